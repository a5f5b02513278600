"""The load audit (``load_audit.json``): each step, load and boundary condition with its
region's members and its values; loads on empty regions; nodes both fixed and displaced in
one dof of the same step's conditions."""

from __future__ import annotations

import json
import os
from typing import Any

from sam_plugin.samops.load_ops import DOFS
from sam_plugin.samops.load_read import read_loads

AUDIT_FILE = "load_audit.json"
_LIST_LIMIT = 200


def _node_labels(model: Any, region: list[str]) -> set[int]:
    try:
        part_name, set_name = region
        return {n.label for n in model.parts[part_name].sets[set_name].nodes}
    except Exception:  # a region the model no longer resolves holds no node
        return set()


def _constrained(entry: dict[str, Any]) -> dict[str, float]:
    """The dofs a condition prescribes and their values (an encastre holds all six at 0)."""
    if entry["kind"] == "encastre":
        return dict.fromkeys(DOFS, 0.0)
    return {dof: value for dof, value in entry["values"].items() if value is not None}


def conflicts(model: Any, conditions: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """Nodes one condition fixes (0) and another displaces (not 0) in the same dof."""
    found = []
    entries = list(conditions.values())
    for i, first in enumerate(entries):
        for second in entries[i + 1:]:
            a, b = _constrained(first), _constrained(second)
            dofs = [d for d in DOFS if d in a and d in b and (a[d] == 0.0) != (b[d] == 0.0)]
            if not dofs:
                continue
            shared = _node_labels(model, first["region"]) & _node_labels(model, second["region"])
            if shared:
                found.append({"conditions": [first["name"], second["name"]], "dofs": dofs,
                              "nodes": sorted(shared)[:_LIST_LIMIT],
                              "node_count": len(shared)})
    return found


def audit_loads(model: Any) -> dict[str, Any]:
    data = read_loads(model)
    empty = [name for name, load in data["loads"].items()
             if max(load["members"].values()) <= 0]
    return {"steps": data["steps"], "loads": data["loads"],
            "boundary_conditions": data["boundary_conditions"],
            "loads_on_empty_regions": empty,
            "fixed_and_displaced": conflicts(model, data["boundary_conditions"])}


def write_audit(model: Any, output_dir: str) -> dict[str, Any]:
    report = audit_loads(model)
    path = os.path.join(output_dir, AUDIT_FILE)
    with open(path, "w", encoding="utf-8") as handle:
        json.dump(report, handle, indent=2, ensure_ascii=False)
    return report
