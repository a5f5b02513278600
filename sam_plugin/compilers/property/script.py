"""Script pieces shared by the Property fragments: literals and the geometry guard.

Every Property preflight takes (once) a snapshot of the part's counts and geometry
fingerprint; every Property postflight starts by verifying it (computed once), so a script
that changed the geometry raises before any postflight work.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any

from sam_plugin.compilers.codegen import check_plain

HELPERS = ["property_ops"]
PART = "_model.parts[_part_name]"

GUARD_PREFLIGHT = (
    '_property_guard = _property_ops.GeometryGuard.begin(globals().get("_property_guard"), '
    "_model, _part_name)\n"
)
GUARD_POSTFLIGHT = "_property_guard.verify(_model, _part_name)\n"


def literal(value: Any) -> str:
    """``repr`` of plain validated data (None, bool, int, finite float, str, lists, dicts)."""
    check_plain(value)
    return repr(value)


def variable(tool: str, normalized: Mapping[str, Any]) -> str:
    """A script variable unique to this call (same call, same name: scripts stay stable)."""
    digest = hashlib.sha256(json.dumps(normalized, sort_keys=True).encode()).hexdigest()[:8]
    return f"_{tool}_{digest}"
