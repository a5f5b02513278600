"""Holes that let a wrong change through (issue 11): degenerate vectors judged against the
model's scale, and merge tolerances that would join nodes of one element."""

from __future__ import annotations

from typing import Any

import pytest

from sam_plugin.errors import CompileError


def _compile_error(harness: Any, calls: list[tuple[str, Any]]) -> CompileError:
    with pytest.raises(CompileError) as error:
        harness.compile_all("transform and repair the plate", calls)
    return error.value


@pytest.mark.parametrize(("op", "field"), [
    ({"op": "rotate", "origin": [0, 0, 0], "axis": [0, 0, 1e-300], "angle_deg": 90}, "axis"),
    ({"op": "mirror", "origin": [0, 0, 0], "normal": [1e-200, 0, 0], "copy": True}, "normal"),
    ({"op": "translate_copy", "vector": [1e-320, 0, 0]}, "vector"),
    ({"op": "linear_array", "vector": [0, 1e-12, 0], "count": 3}, "vector"),
])
def test_degenerate_vectors_are_judged_against_the_model_scale(harness, op, field):
    harness.grid(3, 2)
    error = _compile_error(harness, [("transform_part", {"operations": [op]})])
    text = str(error)
    assert f"operations[0].{field}" in text
    assert "a part that spans 3.61" in text, text
    part = harness.part()
    assert len(part.nodes) == 12  # nothing ran


def test_a_small_but_real_vector_still_compiles(harness):
    harness.grid(3, 2)
    harness.compile_all("copy it", [("transform_part", {"operations": [
        {"op": "translate_copy", "vector": [0, 0, 0.01]},
        {"op": "rotate", "origin": [0, 0, 0], "axis": [0, 0, 1e-3], "angle_deg": 90}]})])


def test_a_merge_tolerance_that_would_collapse_the_part_is_a_compile_error(harness):
    harness.grid(3, 2)  # 12 nodes, element edges 1.0
    error = _compile_error(harness, [("repair_part",
                                      {"merge_coincident_nodes": {"tolerance": 1e308}})])
    text = str(error)
    assert "merge_coincident_nodes.tolerance" in text
    assert "smallest element edge is 1 (element 1, nodes 1 and 2)" in text, text
    assert "use a tolerance below it, e.g. 0.001" in text


def test_a_merge_tolerance_after_a_scale_is_judged_on_the_scaled_part(harness):
    harness.grid(3, 2)
    error = _compile_error(harness, [
        ("transform_part", {"operations": [{"op": "scale", "origin": [0, 0, 0],
                                            "factor": 0.5}]}),
        ("repair_part", {"merge_coincident_nodes": {"tolerance": 0.5}})])
    assert "smallest element edge is 0.5" in str(error)


def test_a_merge_below_the_smallest_edge_compiles_and_merges_the_coincident_nodes(harness):
    harness.grid(2, 1)
    result = harness.run("copy and merge", [
        ("transform_part", {"operations": [{"op": "translate_copy", "vector": [2, 0, 0]}]}),
        ("repair_part", {"merge_coincident_nodes": {"tolerance": 0.01}})])
    assert result.receipt.status == "PASS"
    assert result.after.node_count == 10  # 6 + 6 copied, the 2 on the shared edge x=2 merged


def test_a_call_that_raises_on_the_shadow_is_a_compile_error_naming_it(harness, monkeypatch):
    """I7: nothing may fail inside SAM that the compile could see."""
    harness.grid(2, 1)
    from sam_plugin.samops import part_transform

    def broken(part: Any, operations: Any) -> None:
        raise ValueError("node 3 is not a live node")

    monkeypatch.setattr(part_transform, "apply", broken)
    error = _compile_error(harness, [("transform_part", {"operations": [
        {"op": "translate", "vector": [1, 0, 0]}]})])
    assert error.tool == "transform_part"
    assert ("simulating call 1 (transform_part) on a copy of the part failed: ValueError: node 3 "
            "is not a live node; the script would fail the same way in SAM") in str(error)


def test_a_merge_tolerance_that_chains_nodes_is_a_compile_error(harness):
    """Nodes 0.6 apart in a row, merged at 0.7: each is within the tolerance of the next but
    the ends are not; SAM may merge the whole row, more than the coincident nodes."""
    harness.grid(1, 1, spacing=2.0)  # element edge 2: the edge rule alone lets 0.7 through
    part = harness.part()
    for x in (5.0, 5.6, 6.2):
        part.Node(coordinates=(x, 0.0, 0.0))
    error = _compile_error(harness, [("repair_part",
                                      {"merge_coincident_nodes": {"tolerance": 0.7}})])
    text = str(error)
    assert "merge_coincident_nodes.tolerance" in text
    assert ("tolerance 0.7 chains nodes 5, 6, 7: nodes 5 and 7 are 1.2 apart, beyond the "
            "tolerance, yet linked through nodes within it") in text, text
    assert "use a tolerance below 0.6" in text
