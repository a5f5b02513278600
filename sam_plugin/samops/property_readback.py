"""Read material and section values back from the live model (E, ν, density, thickness,
profile dimensions), for the verifier to compare with the calls that defined them."""

from __future__ import annotations

from typing import Any

from sam_plugin.samops.property_ops import material_definition, section_definition


def read_property_values(model: Any) -> dict[str, dict[str, Any]]:
    """``{"materials": {name: definition}, "sections": {name: definition}}`` as the IR's
    plain fields (``property_ops.material_definition`` / ``section_definition``)."""
    if model is None:
        return {"materials": {}, "sections": {}}
    return {
        "materials": {name: material_definition(model.materials[name])
                      for name in sorted(model.materials.keys())},
        "sections": {name: section_definition(model, model.sections[name])
                     for name in sorted(model.sections.keys())},
    }
