"""What the model holds of steps, loads and boundary conditions, as plain JSON data: the Load
mode's readback, its audit and its snapshot cover read it the same way."""

from __future__ import annotations

from typing import Any

from sam_plugin.samops.load_ops import DOFS

LOAD_VALUES = {"pressure": ("magnitude",), "force": ("cf1", "cf2", "cf3")}


def has_loads(model: Any) -> bool:
    return all(hasattr(model, name) for name in ("steps", "loads", "boundaryConditions"))


def _number(value: Any) -> float | None:
    """A value as a number; ``None`` for ``UNSET`` (a free dof) or anything not a number."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value)


def read_steps(model: Any) -> list[dict[str, Any]]:
    return [{"name": str(name), "previous": getattr(step, "previous", None),
             "description": str(getattr(step, "description", "") or "")}
            for name, step in model.steps.items()]


def _kind(entry: Any) -> str:
    if hasattr(entry, "magnitude"):
        return "pressure"
    if hasattr(entry, "cf1"):
        return "force"
    if hasattr(entry, "u1"):
        return "displacement"
    return "encastre"


def _members(model: Any, region: Any) -> dict[str, int]:
    """How many nodes and elements the region's set holds now (-1: the set is gone)."""
    try:
        part_name, set_name = region
        found = model.parts[part_name].sets[set_name]
    except Exception:  # a region the model no longer resolves: said as missing members
        return {"nodes": -1, "elements": -1}
    return {"nodes": len(found.nodes), "elements": len(found.elements)}


def read_entry(model: Any, entry: Any) -> dict[str, Any]:
    kind = _kind(entry)
    fields = LOAD_VALUES.get(kind, DOFS if kind == "displacement" else ())
    region = [str(x) for x in getattr(entry, "region", ("", ""))]
    return {"name": str(entry.name), "kind": kind, "step": str(entry.createStepName),
            "region": region, "members": _members(model, region),
            "values": {field: _number(getattr(entry, field, None)) for field in fields}}


def read_loads(model: Any) -> dict[str, Any]:
    """Steps in order; each load and boundary condition by name."""
    if not has_loads(model):
        return {"steps": [], "loads": {}, "boundary_conditions": {}}
    return {"steps": read_steps(model),
            "loads": {str(k): read_entry(model, v) for k, v in model.loads.items()},
            "boundary_conditions": {str(k): read_entry(model, v)
                                    for k, v in model.boundaryConditions.items()}}
