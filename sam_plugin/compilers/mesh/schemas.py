"""Wire schemas (docs/architecture.md §4) and descriptions of the two Mesh tools."""

from __future__ import annotations

from typing import Any

from sam_plugin.compilers import schema_common as sc
from sam_plugin.samops.mesh_ops import MAX_LEVELS

REFINE = sc.parameters(
    {
        "selection": sc.selector("the elements to refine"),
        "levels": sc.integer(
            f"refinement levels 1..{MAX_LEVELS}; each level splits QUAD into 4, TRI into 4, "
            "BEAM into 2", minimum=1, maximum=MAX_LEVELS),
    },
    ["selection", "levels"],
)

AUDIT = sc.parameters({})

SCHEMAS: dict[str, dict[str, Any]] = {"refine_mesh": REFINE, "audit_mesh": AUDIT}

DESCRIPTIONS: dict[str, str] = {
    "refine_mesh": (
        "Uniformly refine the selected elements: per level QUAD -> 4, TRI -> 4, BEAM -> 2. "
        "Edge midpoints are shared, so neighbours refined together stay conforming; where the "
        "refined region borders unrefined elements hanging nodes appear (reported). Children "
        "keep their parent's section assignment, beam orientation and set membership; the "
        "parents are removed. Coordinates are in the model's units."
    ),
    "audit_mesh": (
        "Read-only audit written to mesh_audit.json: element quality (aspect ratio, min/max "
        "angle, warping, inverted elements), element size histogram, hanging nodes and free "
        "edges. Takes no arguments: {}."
    ),
}
