"""Script pieces shared by the Property fragments: literals and the geometry guard.

Every Property preflight takes (once) a snapshot of the part's counts and geometry
fingerprint; every Property postflight starts by verifying it (computed once), so a script
that changed the geometry raises before any postflight work.
"""

from __future__ import annotations

from sam_plugin.compilers.codegen import PART, variable
from sam_plugin.compilers.codegen import plain_literal as literal

__all__ = ["GUARD_POSTFLIGHT", "GUARD_PREFLIGHT", "HELPERS", "PART", "literal", "variable"]

HELPERS = ["property_ops"]

GUARD_PREFLIGHT = (
    '_property_guard = _property_ops.GeometryGuard.begin(globals().get("_property_guard"), '
    "_model, _part_name)\n"
)
GUARD_POSTFLIGHT = "_property_guard.verify(_model, _part_name)\n"
