"""The property audit (``property_audit.json``): what a solver would trip over.

- unassigned elements: elements without any section;
- multiply assigned elements: elements in more than one section assignment;
- section/shape mismatches: a shell section on BEAM, a beam section on QUAD/TRI, or an
  assignment naming a section the model does not have;
- beams without orientation: BEAM elements no beam orientation covers;
- unused sections: sections of the model no part assigns;
- materials without elastic data, and sections whose material does not exist.
"""

from __future__ import annotations

import json
import os
from typing import Any

from sam_plugin.samops import readback
from sam_plugin.samops.property_ops import SHAPES_FOR_KIND, oriented_labels, section_kind

AUDIT_FILE = "property_audit.json"
_LIST_LIMIT = 200


def _listed(labels: list[int]) -> dict[str, Any]:
    ordered = sorted(labels)
    return {"count": len(ordered), "labels": ordered[:_LIST_LIMIT]}


def audit_property(model: Any, part_name: str) -> dict[str, Any]:
    """The audit of one part's properties (plus the model-wide unused/material checks)."""
    part = readback.find_part(model, part_name)
    shapes: dict[int, str] = {}
    sections_of: dict[int, list[str]] = {}
    mismatches: list[dict[str, Any]] = []
    if part is not None:
        shapes = {e.label: str(e.type) for e in part.elements}
        for entry in part.sectionAssignments:
            name = entry.sectionName
            labels = [e.label for e in entry.region.elements]
            for label in labels:
                sections_of.setdefault(label, []).append(name)
            kind = section_kind(model, name)
            if kind is None:
                mismatches.append({"section": name, "problem": "section does not exist",
                                   "elements": sorted(labels)[:_LIST_LIMIT]})
                continue
            wrong = sorted(lab for lab in labels
                           if shapes.get(lab) not in SHAPES_FOR_KIND.get(kind, ()))
            if wrong:
                found = sorted({shapes.get(lab, "?") for lab in wrong})
                mismatches.append({
                    "section": name,
                    "problem": f"{kind} section on {', '.join(found)} elements",
                    "elements": wrong[:_LIST_LIMIT],
                })
    unassigned = [label for label in shapes if label not in sections_of]
    multiple = [label for label, names in sections_of.items() if len(names) > 1]
    beams = [label for label, shape in shapes.items() if shape == "BEAM"]
    oriented = oriented_labels(part) if part is not None else set()
    unoriented = [label for label in beams if label not in oriented]
    used = _used_sections(model)
    unused = sorted(name for name in model.sections.keys() if name not in used)
    no_elastic = sorted(name for name in model.materials.keys()
                        if model.materials[name].elastic is None)
    missing_materials = sorted(
        {model.sections[name].material for name in model.sections.keys()}
        - set(model.materials.keys())
    )
    return {
        "part": part_name,
        "part_exists": part is not None,
        "element_count": len(shapes),
        "unassigned_elements": _listed(unassigned),
        "multiply_assigned_elements": _listed(multiple),
        "section_shape_mismatches": {"count": len(mismatches), "items": mismatches},
        "beams_without_orientation": _listed(unoriented),
        "unused_sections": unused,
        "materials_without_elastic": no_elastic,
        "sections_with_missing_material": missing_materials,
        "materials": sorted(model.materials.keys()),
        "sections": sorted(model.sections.keys()),
    }


def _used_sections(model: Any) -> set[str]:
    used: set[str] = set()
    for name in model.parts.keys():
        for entry in model.parts[name].sectionAssignments:
            used.add(entry.sectionName)
    return used


def write_audit(model: Any, part_name: str, output_dir: str) -> dict[str, Any]:
    """Audit and write ``property_audit.json`` into ``output_dir``."""
    report = audit_property(model, part_name)
    os.makedirs(output_dir, exist_ok=True)
    with open(os.path.join(output_dir, AUDIT_FILE), "w", encoding="utf-8") as handle:
        json.dump(report, handle, indent=2, sort_keys=True)
    return report
