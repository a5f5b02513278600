"""Elements a build or edit creates on the node set of another element, or with collinear nodes,
are refused at compile, naming the pair (docs/architecture.md §4 "What the compilers check").

The first case is what a real local model did when asked for a 6 x 10 plate: four QUADs on
the same four nodes, each in a rotated order; it used to compile, run and verify.
"""

from __future__ import annotations

from typing import Any

import pytest

from sam_plugin.errors import CompileError

CORNERS = {"a": [0, 0, 0], "b": [60, 0, 0], "c": [60, 100, 0], "d": [0, 100, 0]}
NODES = [{"id": k, "coordinates": v} for k, v in CORNERS.items()]
SQUARE = [[0, 0, 0], [2, 0, 0], [2, 2, 0], [0, 2, 0]]


def _errors(harness: Any, tool: str, args: Any, request: str) -> list[str]:
    with pytest.raises(CompileError) as err:
        harness.compile_all(request, [(tool, args)])
    return [str(d) for d in err.value.diagnostics]


def _quad(name: str, order: str) -> dict[str, Any]:
    return {"id": name, "shape": "QUAD", "node_ids": list(order)}


def test_four_quads_on_the_same_nodes_in_rotated_order_are_refused(harness: Any) -> None:
    elements = [_quad("Q1", "abcd"), _quad("Q2", "bcda"), _quad("Q3", "cdab"),
                _quad("Q4", "dabc")]
    found = _errors(harness, "build_part", {"nodes": NODES, "elements": elements},
                    "build a 60 x 100 plate meshed 6 x 10 with QUAD elements")
    assert found == [
        f"elements[{i}].node_ids: Q{i + 1} has the same nodes as Q1 (elements[0]); an element "
        "may not repeat another's node set, in any order. Remove it, or say in the request "
        "that duplicate elements are wanted" for i in (1, 2, 3)]


def test_a_reversed_quad_is_a_duplicate_too(harness: Any) -> None:
    found = _errors(harness, "build_part", {"nodes": NODES, "elements": [
        _quad("Q1", "abcd"), _quad("Q2", "adcb")]}, "build one quad")
    assert len(found) == 1 and found[0].startswith(
        "elements[1].node_ids: Q2 has the same nodes as Q1 (elements[0])")


def test_an_element_on_the_cells_of_a_patch_is_named_with_the_patch(harness: Any) -> None:
    nodes = [{"id": k, "coordinates": v} for k, v in zip("abcd", SQUARE, strict=True)]
    found = _errors(harness, "build_part", {
        "nodes": nodes, "elements": [_quad("Q", "abcd")],
        "patches": [{"id": "P", "shape": "QUAD", "corners": SQUARE, "divisions": [1, 1]}]},
        "a plate")
    assert len(found) == 1 and found[0].startswith(
        "patches[0]: P (element 1 of 1) has the same nodes as Q (elements[0])")


def test_two_identical_patches_are_one_diagnostic_with_the_count(harness: Any) -> None:
    patch = {"shape": "QUAD", "corners": SQUARE, "divisions": [2, 2]}
    found = _errors(harness, "build_part", {"patches": [{"id": "P", **patch},
                                                        {"id": "R", **patch}]}, "a plate")
    assert len(found) == 1 and found[0].startswith(
        "patches[1]: R (element 1 of 4, and 3 more) has the same nodes as P (patches[0], "
        "element 1 of 4)")


def test_the_request_may_ask_for_duplicates(harness: Any) -> None:
    elements = [_quad("Q1", "abcd"), _quad("Q2", "bcda")]
    result = harness.run("build one quad and a duplicate element on the same nodes, to test "
                         "the audit", [("build_part", {"nodes": NODES, "elements": elements})])
    assert result.receipt.status == "PASS", result.receipt.traceback
    assert result.after.element_count == 2


def test_a_negated_ask_does_not_allow_duplicates(harness: Any) -> None:
    found = _errors(harness, "build_part", {"nodes": NODES, "elements": [
        _quad("Q1", "abcd"), _quad("Q2", "cdab")]}, "one quad, no duplicate elements")
    assert len(found) == 1


def test_edit_adding_an_element_on_an_existing_elements_nodes_is_refused(harness: Any) -> None:
    harness.grid(1, 1)  # element 1 on nodes 1:(0,0) 2:(1,0) 4:(1,1) 3:(0,1)
    nodes = [{"id": k, "coordinates": v} for k, v in
             zip("abcd", [[1, 1, 0], [0, 1, 0], [0, 0, 0], [1, 0, 0]], strict=True)]
    found = _errors(harness, "edit_part", {"nodes": nodes, "add_elements": [
        _quad("E", "abcd")]}, "add a quad")
    assert found == [
        "add_elements[0].node_ids: E has the same nodes as existing element 1 (nodes 1, 2, 4, "
        "3); an element may not repeat another's node set, in any order. Remove it, or say in "
        "the request that duplicate elements are wanted"]


def test_edit_replacing_an_element_it_deletes_is_fine(harness: Any) -> None:
    harness.grid(1, 1)
    nodes = [{"id": k, "coordinates": v} for k, v in
             zip("abc", [[0, 0, 0], [1, 0, 0], [1, 1, 0]], strict=True)]
    result = harness.run("replace element 1 by a triangle", [("edit_part", {
        "delete_elements": {"by": "labels", "labels": [1]}, "nodes": nodes,
        "add_elements": [{"id": "T", "shape": "TRI", "node_ids": ["a", "b", "c"]}]})])
    assert result.receipt.status == "PASS", result.receipt.traceback
    assert result.after.shape_counts == {"QUAD": 0, "TRI": 1, "BEAM": 0}


def test_edit_patch_over_existing_elements_is_refused(harness: Any) -> None:
    harness.grid(2, 2)
    found = _errors(harness, "edit_part", {"add_patches": [
        {"id": "P", "shape": "QUAD", "corners": SQUARE, "divisions": [2, 2]}]}, "add a patch")
    assert len(found) == 1 and found[0].startswith(
        "add_patches[0]: P (element 1 of 4, and 3 more) has the same nodes as existing "
        "element 1 (nodes 1, 2, 5, 4)")


def test_a_quad_with_three_collinear_nodes_is_degenerate(harness: Any) -> None:
    nodes = [{"id": k, "coordinates": v} for k, v in
             zip("abcd", [[0, 0, 0], [1, 0, 0], [2, 0, 0], [1, 1, 0]], strict=True)]
    found = _errors(harness, "build_part", {"nodes": nodes, "elements": [
        _quad("Q", "abcd")]}, "one quad")
    assert found == ["elements[0].node_ids: Q: QUAD has three collinear nodes (a, b, c): it "
                     "is a triangle, not a quadrilateral; use TRI or move a node"]
