"""build_part semantics and diagnostics."""

from __future__ import annotations

from typing import Any

import pytest

from sam_plugin.errors import CompileError

SQUARE = [[0, 0, 0], [10, 0, 0], [10, 10, 0], [0, 10, 0]]


def _errors(harness: Any, args: Any, request: str = "build it") -> list[str]:
    with pytest.raises(CompileError) as err:
        harness.compile_all(request, [("build_part", args)])
    return [str(d) for d in err.value.diagnostics]


def test_quad_patch_builds_a_structured_grid(harness: Any) -> None:
    result = harness.run("build a 60 x 100 plate meshed 6 x 10 with QUAD", [("build_part", {
        "patches": [{"id": "P1", "shape": "QUAD", "divisions": [6, 10],
                     "corners": [[0, 0, 0], [60, 0, 0], [60, 100, 0], [0, 100, 0]]}]})])
    assert result.receipt.status == "PASS", result.receipt.traceback
    assert (result.after.node_count, result.after.element_count) == (77, 60)
    assert result.after.shape_counts == {"QUAD": 60, "TRI": 0, "BEAM": 0}
    assert result.after.bounding_box == ((0.0, 0.0, 0.0), (60.0, 100.0, 0.0))
    assert result.evidence.node_count.is_exact
    assert harness.within(result.evidence, result.after) == []
    first = harness.part().elements[0]
    assert first.connectivity == (1, 2, 9, 8)  # counter-clockwise: normal +z


def test_tri_patch_has_two_triangles_per_cell(harness: Any) -> None:
    result = harness.run("a TRI plate", [("build_part", {"patches": [
        {"id": "P", "shape": "TRI", "corners": SQUARE, "divisions": [2, 3]}]})])
    assert result.after.shape_counts == {"QUAD": 0, "TRI": 12, "BEAM": 0}
    assert result.after.node_count == 12


def test_patches_sharing_an_edge_and_a_beam_on_it_are_connected(harness: Any) -> None:
    right = [[10, 0, 0], [20, 0, 0], [20, 10, 0], [10, 10, 0]]
    result = harness.run("two plates and a beam", [("build_part", {
        "patches": [{"id": "A", "shape": "QUAD", "corners": SQUARE, "divisions": [2, 2]},
                    {"id": "B", "shape": "QUAD", "corners": right, "divisions": [2, 2]}],
        "lines": [{"id": "L", "start": [10, 0, 0], "end": [10, 10, 0], "divisions": 2}]})])
    assert result.after.node_count == 15  # 9 + 9 - 3 shared
    assert result.after.element_count == 10
    assert harness.within(result.evidence, result.after) == []


def test_explicit_elements_over_local_ids(harness: Any) -> None:
    result = harness.run("one quad and a beam", [("build_part", {
        "nodes": [{"id": "a", "coordinates": [0, 0, 0]}, {"id": "b", "coordinates": [1, 0, 0]},
                  {"id": "c", "coordinates": [1, 1, 0]}, {"id": "d", "coordinates": [0, 1, 0]},
                  {"id": "e", "coordinates": [0, 0, 5]}],
        "elements": [{"id": "Q", "shape": "quad", "node_ids": ["a", "b", "c", "d"]},
                     {"id": "B", "shape": "BEAM", "node_ids": ["a", "e"]}]})])
    assert result.receipt.status == "PASS"
    assert result.after.shape_counts == {"QUAD": 1, "TRI": 0, "BEAM": 1}
    assert result.fragments[0].normalized["elements"][0]["shape"] == "QUAD"


def test_quad_with_three_distinct_nodes(harness: Any) -> None:
    nodes = [{"id": n, "coordinates": [i, i * i, 0]} for i, n in enumerate("abc")]
    assert _errors(harness, {"nodes": nodes, "elements": [
        {"id": "E1", "shape": "QUAD", "node_ids": ["a", "b", "c", "c"]}]}) == [
        "elements[0].node_ids: E1: QUAD needs 4 distinct nodes, got 3"]
    assert _errors(harness, {"nodes": nodes, "elements": [
        {"id": "T1", "shape": "TRI", "node_ids": ["a", "b", "c", "a"]}]}) == [
        "elements[0].node_ids: T1: TRI needs 3 distinct nodes, got 3"]


def test_unresolved_local_id_lists_the_declared_ids(harness: Any) -> None:
    nodes = [{"id": "a", "coordinates": [0, 0, 0]}, {"id": "b", "coordinates": [1, 0, 0]}]
    assert _errors(harness, {"nodes": nodes, "elements": [
        {"id": "B1", "shape": "BEAM", "node_ids": ["a", "zz"]}]}) == [
        "elements[0].node_ids[1]: B1: unresolved node id 'zz'; declared node ids: a, b"]


def test_coincident_nodes_make_an_element_degenerate(harness: Any) -> None:
    nodes = [{"id": "a", "coordinates": [0, 0, 0]}, {"id": "b", "coordinates": [1, 0, 0]},
             {"id": "c", "coordinates": [1, 1, 0]}, {"id": "d", "coordinates": [1, 1, 1e-9]}]
    assert _errors(harness, {"nodes": nodes, "elements": [
        {"id": "E1", "shape": "QUAD", "node_ids": ["a", "b", "c", "d"]}]}) == [
        "elements[0].node_ids: E1: QUAD needs 4 distinct nodes, got 3 (c and d coincide "
        "within tolerance 1.41e-06)"]


def test_zero_area_and_zero_length_are_rejected(harness: Any) -> None:
    nodes = [{"id": n, "coordinates": [i, 0, 0]} for i, n in enumerate("abc")]
    assert _errors(harness, {"nodes": nodes, "elements": [
        {"id": "T", "shape": "TRI", "node_ids": ["a", "b", "c"]}]}) == [
        "elements[0].node_ids: T: TRI has zero area (its nodes are collinear)"]
    assert _errors(harness, {"lines": [
        {"id": "L", "start": [1, 1, 1], "end": [1, 1, 1], "divisions": 3}]}) == [
        "lines[0]: L: BEAM line has zero length (start and end coincide)"]
    assert _errors(harness, {"patches": [{"id": "P", "shape": "QUAD", "divisions": [2, 2],
                                          "corners": [[0, 0, 0], [1, 0, 0], [2, 0, 0],
                                                      [3, 0, 0]]}]}) == [
        "patches[0].corners: P: QUAD patch has zero area (its corners are coincident or "
        "collinear)"]


def test_crossed_patch_corners_are_rejected(harness: Any) -> None:
    crossed = [[0, 0, 0], [10, 10, 0], [10, 0, 0], [0, 10, 0]]
    assert _errors(harness, {"patches": [{"id": "P", "shape": "QUAD", "corners": crossed,
                                          "divisions": [2, 2]}]}) == [
        "patches[0].corners: P: corners must go around a convex patch in order: (u=0,v=0), "
        "(u=1,v=0), (u=1,v=1), (u=0,v=1); these cross or fold"]


def test_empty_build_and_duplicate_ids(harness: Any) -> None:
    assert _errors(harness, {}) == [
        "build_part needs at least one element, patch or line; give patches for plates and "
        "lines for beams"]
    assert _errors(harness, {"patches": [
        {"id": "P", "shape": "QUAD", "corners": SQUARE, "divisions": [1, 1]}], "lines": [
        {"id": "P", "start": [0, 0, 0], "end": [0, 0, 1], "divisions": 1}]}) == [
        "lines[0].id: duplicate id 'P' (already used at patches[0]); element, patch and line "
        "ids share one namespace"]


def test_build_only_on_an_empty_or_missing_part(harness: Any) -> None:
    harness.grid(2, 2)
    assert _errors(harness, {"patches": [
        {"id": "P", "shape": "QUAD", "corners": SQUARE, "divisions": [1, 1]}]}) == [
        "build_part needs an empty or missing part, but part 'Plate' has 9 nodes and 4 "
        "elements; use edit_part"]


def test_build_on_an_existing_empty_part(harness: Any) -> None:
    harness.model.Part(name="Plate")
    result = harness.run("plate", [("build_part", {"patches": [
        {"id": "P", "shape": "QUAD", "corners": SQUARE, "divisions": [1, 1]}]})])
    assert result.receipt.status == "PASS" and result.after.element_count == 1


def test_sets_are_dropped_unless_the_request_asks(harness: Any) -> None:
    args = {"patches": [{"id": "P", "shape": "QUAD", "corners": SQUARE, "divisions": [2, 2]}],
            "element_sets": [{"name": "Skin", "element_ids": ["P"]}]}
    dropped = harness.compile_all("build a plate", [("build_part", args)])[0]
    assert dropped.notes == ["element_sets dropped (Skin): the request does not ask for sets "
                             "or groups"]
    assert dropped.normalized["element_sets"] == [] and "Skin" not in dropped.mutation
    chinese = harness.compile_all("建立一块板并放入集合", [("build_part", args)])[0]
    assert chinese.notes == []
    result = harness.run("build a plate and put it in a set called Skin",
                         [("build_part", args)])
    assert result.fragments[0].notes == []
    assert result.after.sets == ["Skin"]
    assert len(harness.part().sets["Skin"].elements) == 4


def test_unknown_set_member_lists_declared_ids(harness: Any) -> None:
    assert _errors(harness, {
        "patches": [{"id": "P", "shape": "QUAD", "corners": SQUARE, "divisions": [1, 1]}],
        "element_sets": [{"name": "S", "element_ids": ["Q"]}]}, "make a set") == [
        "element_sets[0].element_ids[0]: unknown element id 'Q'; declared element, patch and "
        "line ids: P"]


def test_preflight_stops_before_any_mutation(harness: Any) -> None:
    fragments = harness.compile_all("plate", [("build_part", {"patches": [
        {"id": "P", "shape": "QUAD", "corners": SQUARE, "divisions": [1, 1]}]})])
    harness.grid(1, 1)  # the part fills up after compile: the script's preflight must stop
    from sam_plugin.compilers.composer import compose

    before = harness.gateway.readback(harness.target).fingerprint
    receipt = harness.gateway.execute(compose(fragments).text, harness.target,
                                      harness.tmp_path / "x")
    assert receipt.status == "FAIL"
    assert ("PreflightError: build_part needs an empty or missing part, but part 'Plate' has "
            "4 nodes and 1 elements; use edit_part") in receipt.traceback
    assert harness.gateway.readback(harness.target).fingerprint == before
