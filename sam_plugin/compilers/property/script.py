"""Script pieces shared by the Property fragments: literals and the geometry guard.

Every Property preflight takes (once) a snapshot of the part's counts and geometry
fingerprint; every Property postflight starts by verifying it (computed once), so a script
that changed the geometry raises before any postflight work.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Mapping
from typing import Any

HELPERS = ["property_ops"]
PART = "_model.parts[_part_name]"

GUARD_PREFLIGHT = (
    '_property_guard = _property_ops.GeometryGuard.begin(globals().get("_property_guard"), '
    "_model, _part_name)\n"
)
GUARD_POSTFLIGHT = "_property_guard.verify(_model, _part_name)\n"


def literal(value: Any) -> str:
    """``repr`` of plain validated data (None, bool, int, finite float, str, lists, dicts)."""
    _check_plain(value)
    return repr(value)


def _check_plain(value: Any) -> None:
    if value is None or isinstance(value, bool | int | str):
        return
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError("a script literal must be finite")
        return
    if isinstance(value, list | tuple):
        for item in value:
            _check_plain(item)
        return
    if isinstance(value, Mapping):
        for key, item in value.items():
            if not isinstance(key, str):
                raise TypeError(f"a script literal dict needs str keys, got {key!r}")
            _check_plain(item)
        return
    raise TypeError(f"{type(value).__name__} cannot enter a script as a literal")


def variable(tool: str, normalized: Mapping[str, Any]) -> str:
    """A script variable unique to this call (same call, same name: scripts stay stable)."""
    digest = hashlib.sha256(json.dumps(normalized, sort_keys=True).encode()).hexdigest()[:8]
    return f"_{tool}_{digest}"
