"""Script pieces shared by the Property fragments: literals and the geometry guard.

Every Property preflight takes (once) a snapshot of the part's counts and geometry
fingerprint; every Property postflight starts by verifying it (computed once), so a script
that changed the geometry raises before any postflight work.
"""

from __future__ import annotations

from collections.abc import Sequence

from sam_plugin.compilers.codegen import PART, variable
from sam_plugin.compilers.codegen import plain_literal as literal
from sam_plugin.compilers.protocol import Fragment

__all__ = ["GUARD_POSTFLIGHT", "HELPERS", "PART", "guard_preflight", "literal", "variable"]

HELPERS = ["property_ops"]

_GUARD = "_property_guard"
GUARD_POSTFLIGHT = f"{_GUARD}.verify(_model, _part_name)\n"


def guard_preflight(prior: Sequence[Fragment]) -> str:
    """The guard's preflight line: the first Property call of the script takes the snapshot,
    later ones reuse it (the script's namespace holds no ``globals()`` to look it up)."""
    previous = _GUARD if any(_GUARD in f.preflight for f in prior) else "None"
    return f"{_GUARD} = _property_ops.GeometryGuard.begin({previous}, _model, _part_name)\n"
