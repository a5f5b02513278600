"""Golden scripts: representative calls of each Part tool compose to exactly these bytes.

Regenerate after an intended change with ``SAM_AGENT_UPDATE_GOLDEN=1`` and review the diff.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

GOLDEN = Path(__file__).parent / "golden"
SQUARE = [[0, 0, 0], [60, 0, 0], [60, 100, 0], [0, 100, 0]]

CASES: dict[str, tuple[str, list[tuple[str, Any]]]] = {
    "build_and_audit": ("build a 60 x 100 plate meshed 6 x 10 with QUAD, a beam along the "
                        "bottom edge, put the plate in a set Skin, then audit", [
        ("build_part", {
            "patches": [{"id": "P1", "shape": "QUAD", "corners": SQUARE,
                         "divisions": [6, 10]}],
            "lines": [{"id": "L1", "start": [0, 0, 0], "end": [60, 0, 0], "divisions": 6}],
            "element_sets": [{"name": "Skin", "element_ids": ["P1"]}]}),
        ("audit_part", {"checks": ["counts", "quality"]}),
    ]),
    "edit": ("delete element 1, move node 5 up, add a triangle and group the bottom row", [
        ("edit_part", {
            "delete_elements": {"by": "labels", "labels": [1]},
            "move_nodes": [{"label": 5, "coordinates": [1, 1, 0.5]}],
            "nodes": [{"id": "a", "coordinates": [2, 0, 0]}, {"id": "b", "coordinates":
                                                              [3, 0, 0]},
                      {"id": "c", "coordinates": [2, 1, 0]}],
            "add_elements": [{"id": "T", "shape": "TRI", "node_ids": ["a", "b", "c"]}],
            "element_sets": [{"name": "Bottom", "element_ids": ["T"],
                              "selection": {"by": "box", "min": [0, 0, 0],
                                            "max": [2, 1, 0]}}]}),
    ]),
    "transform_repair_audit": ("mirror a copy about x = 0, array it, merge and audit", [
        ("transform_part", {"operations": [
            {"op": "mirror", "origin": [0, 0, 0], "normal": [1, 0, 0], "copy": True},
            {"op": "linear_array", "vector": [0, 5, 0], "count": 3,
             "selection": {"by": "shape", "shape": "QUAD"}},
            {"op": "rotate", "origin": [0, 0, 0], "axis": [0, 0, 1], "angle_deg": 90}]}),
        ("repair_part", {"merge_coincident_nodes": {}, "delete_duplicate_elements": True}),
        ("audit_part", {}),
    ]),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_script(harness: Any, name: str) -> None:
    request, calls = CASES[name]
    if calls[0][0] != "build_part":
        harness.grid(2, 2)
    result = harness.run(request, calls)
    assert result.receipt.status == "PASS", result.receipt.traceback
    assert harness.within(result.evidence, result.after) == []
    path = GOLDEN / f"{name}.py.golden"
    if os.environ.get("SAM_AGENT_UPDATE_GOLDEN") == "1":
        path.write_text(result.script.text, encoding="utf-8")
    assert result.script.text == path.read_text(encoding="utf-8")
