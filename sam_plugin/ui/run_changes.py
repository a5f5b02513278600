"""What a Property run changed, as before/after pairs for the result table.

``result.json`` counts nodes, elements, shapes and sets, none of which a Property run changes.
What it does change is read from the run's own evidence: *before* from the observation the
run started from (``workspace.json``), *after* from the readback recorded in the checks'
``actual`` values — never from the prediction (a check's ``expected``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

PROPERTY_ROWS = ("materials", "sections", "assigned", "oriented")
NOT_READ = "—"
ASSIGNED_CHECK = "elements with a section"
ORIENTED_CHECK = "oriented beam elements"
NAMED_CHECK_PREFIXES = {"materials": "material ", "sections": "section "}


def is_property_check(name: str) -> bool:
    return name in (ASSIGNED_CHECK, ORIENTED_CHECK) or name.startswith(
        tuple(NAMED_CHECK_PREFIXES.values()))


def observed_part(run_dir: Path | None) -> dict[str, Any]:
    """The target part as observed before the run (``workspace.json``), ``{}`` if unknown."""
    if run_dir is None:
        return {}
    try:
        observation = json.loads((Path(run_dir) / "workspace.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    part = observation.get("part") if isinstance(observation, dict) else None
    return part if isinstance(part, dict) else {}


def property_changes(result: Any, run_dir: Path | None) -> dict[str, tuple[str, str]]:
    """``row -> (before, after)`` for a Property run; ``{}`` for the other modes (a Part or
    Mesh run checks sections too, but they are not what it changes)."""
    if getattr(result, "module", "") != "property":
        return {}
    checks = list(getattr(result, "checks", []) or [])
    part = observed_part(run_dir)
    return {
        "materials": (_names(part.get("materials")), _named_after(checks, "materials")),
        "sections": (_names(part.get("sections")), _named_after(checks, "sections")),
        "assigned": (_number(part.get("assigned_elements")), _actual(checks, ASSIGNED_CHECK)),
        "oriented": (_number(part.get("oriented_beams")), _actual(checks, ORIENTED_CHECK)),
    }


def _names(value: Any) -> str:
    if not isinstance(value, list) or not value:
        return NOT_READ
    return ", ".join(str(name) for name in value)


def _number(value: Any) -> str:
    return str(value) if isinstance(value, int) else NOT_READ


def _named_after(checks: list[Any], row: str) -> str:
    """The names the readback found (a name it did not find says what it found instead)."""
    prefix = NAMED_CHECK_PREFIXES[row]
    found = []
    for check in checks:
        # "material Steel" (present?), not "material Steel E" (a value: the values table)
        if check.name.startswith(prefix) and check.expected == "present":
            name = check.name[len(prefix):]
            found.append(name if check.actual == "present" else f"{name}: {check.actual}")
    return ", ".join(found) if found else NOT_READ


def _actual(checks: list[Any], name: str) -> str:
    return next((c.actual for c in checks if c.name == name), NOT_READ)
