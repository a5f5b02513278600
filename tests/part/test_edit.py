"""edit_part: order of steps, cascades, coordinate reuse, authorization, diagnostics."""

from __future__ import annotations

from typing import Any

import pytest

from sam_plugin.errors import CompileError


def _errors(harness: Any, args: Any, request: str = "edit it") -> list[str]:
    with pytest.raises(CompileError) as err:
        harness.compile_all(request, [("edit_part", args)])
    return [str(d) for d in err.value.diagnostics]


def _ok(harness: Any, args: Any, request: str = "edit it") -> Any:
    result = harness.run(request, [("edit_part", args)])
    assert result.receipt.status == "PASS", result.receipt.traceback
    assert harness.within(result.evidence, result.after) == []
    return result


def test_delete_elements_keeps_their_nodes(harness: Any) -> None:
    harness.grid(3, 3)
    result = _ok(harness, {"delete_elements": {"by": "labels", "labels": [1, 2, 2]}})
    assert (result.after.node_count, result.after.element_count) == (16, 7)
    assert result.evidence.element_count.is_exact
    assert result.fragments[0].normalized["delete_elements"] == {"by": "labels",
                                                                 "labels": [1, 2]}


def test_delete_nodes_takes_dependent_elements_and_counts_them(harness: Any) -> None:
    harness.grid(3, 3)
    result = _ok(harness, {"delete_nodes": {"by": "labels", "labels": [6]}})
    assert (result.after.node_count, result.after.element_count) == (15, 5)
    assert result.evidence.element_count.describe() == "5"


def test_move_then_coordinate_table_reuses_the_moved_node(harness: Any) -> None:
    harness.grid(1, 1)  # nodes 1:(0,0) 2:(1,0) 3:(0,1) 4:(1,1)
    result = _ok(harness, {
        "move_nodes": [{"label": 4, "coordinates": [1, 1.5, 0]}],
        "nodes": [{"id": "top", "coordinates": [1, 1.5, 0]}, {"id": "far", "coordinates":
                                                              [3, 0, 0]}],
        "add_elements": [{"id": "B", "shape": "BEAM", "node_ids": ["top", "far"]}]})
    assert result.after.node_count == 5  # 'top' reused node 4 at its new place
    assert result.evidence.node_count.describe() == "5"  # simulated: the reuse is known
    beam = [e for e in harness.part().elements if str(e.type) == "BEAM"][0]
    assert beam.connectivity[0] == 4


def test_added_patch_connects_to_the_existing_edge(harness: Any) -> None:
    harness.grid(2, 2)
    result = _ok(harness, {"add_patches": [{"id": "R", "shape": "QUAD", "divisions": [2, 2],
                                            "corners": [[2, 0, 0], [4, 0, 0], [4, 2, 0],
                                                        [2, 2, 0]]}]})
    assert (result.after.node_count, result.after.element_count) == (15, 8)


def test_order_delete_elements_before_delete_nodes_before_add(harness: Any) -> None:
    harness.grid(2, 1)  # elements 1, 2; nodes 1..6
    result = _ok(harness, {
        "delete_elements": {"by": "labels", "labels": [1]},
        "delete_nodes": {"by": "labels", "labels": [1]},
        "add_lines": [{"id": "L", "start": [0, 0, 0], "end": [0, 1, 0], "divisions": 1}]})
    # node 1 was deleted, so the line recreates a node at (0,0,0) and reuses node 4 at (0,1,0)
    assert (result.after.node_count, result.after.element_count) == (6, 2)
    assert result.after.shape_counts == {"QUAD": 1, "TRI": 0, "BEAM": 1}


def test_unknown_label_gives_the_existing_range(harness: Any) -> None:
    harness.grid(2, 2)
    assert _errors(harness, {"delete_elements": {"by": "labels", "labels": [3, 99]}}) == [
        "delete_elements.labels: unknown element label(s) 99; existing element labels: 1..4 "
        "(4 elements)"]
    assert _errors(harness, {"move_nodes": [{"label": 10, "coordinates": [0, 0, 1]}]}) == [
        "move_nodes[0].label: unknown node label 10; existing node labels: 1..9 (9 nodes)"]


def test_unknown_set_gives_the_existing_set_names(harness: Any) -> None:
    harness.grid(2, 2)
    harness.part().Set(name="Left", elements=harness.part().elements[0:1])
    assert _errors(harness, {"delete_elements": {"by": "set", "name": "Right"}}) == [
        "delete_elements.name: unknown set 'Right'; existing sets: Left"]


def test_moving_a_deleted_node_is_rejected(harness: Any) -> None:
    harness.grid(1, 1)
    assert _errors(harness, {"delete_nodes": {"by": "labels", "labels": [2]},
                             "move_nodes": [{"label": 2, "coordinates": [5, 5, 5]}]}) == [
        "move_nodes[0].label: node 2 is deleted by delete_nodes first; it cannot be moved"]


def test_clear_all_needs_an_explicit_request(harness: Any) -> None:
    harness.grid(2, 2)
    patch = {"id": "P", "shape": "TRI", "divisions": [1, 1],
             "corners": [[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0]]}
    assert _errors(harness, {"clear_all": True, "add_patches": [patch]},
                   "replace the quads in the corner with triangles") == [
        "clear_all: clear_all deletes every node, element and set, but the request does not "
        "explicitly ask to delete or replace everything; remove clear_all"]
    before = harness.gateway.readback(harness.target)
    result = _ok(harness, {"clear_all": True, "add_patches": [patch]},
                 "delete everything and build one triangle cell instead")
    assert result.after.shape_counts == {"QUAD": 0, "TRI": 2, "BEAM": 0}
    assert result.after.node_count == 4 and before.node_count == 9
    chinese = harness.compile_all("清空零件后重建", [("edit_part", {"clear_all": True,
                                                           "add_patches": [patch]})])
    assert chinese[0].mutation.count("clear_all") == 1


def test_sets_dropped_unless_asked_and_name_collisions(harness: Any) -> None:
    harness.grid(2, 2)
    harness.part().Set(name="Old", elements=harness.part().elements[0:1])
    args = {"element_sets": [{"name": "Bottom", "selection": {"by": "box", "min": [0, 0, 0],
                                                              "max": [2, 1, 0]}}]}
    dropped = harness.compile_all("tidy up", [("edit_part", args)])[0]
    assert dropped.notes == ["element_sets dropped (Bottom): the request does not ask for sets "
                             "or groups"]
    result = _ok(harness, args, "make a set of the bottom row")
    assert sorted(result.after.sets) == ["Bottom", "Old"]
    assert [e.label for e in harness.part().sets["Bottom"].elements] == [1, 2]
    assert _errors(harness, {"element_sets": [{"name": "Old", "element_ids": []}]},
                   "group them") == [
        "element_sets[0]: a set needs element_ids (elements added in this call) or a selection",
        "element_sets[0].name: set 'Old' already exists; existing sets: Bottom, Old; choose a "
        "new name"]


def test_edit_needs_an_existing_part(harness: Any) -> None:
    assert _errors(harness, {"delete_elements": {"by": "all"}}) == [
        "edit_part needs an existing part; part 'Plate' does not exist (use build_part)"]


def test_delete_by_shape_and_box_predictions_hold(harness: Any) -> None:
    harness.grid(3, 2)
    _ok(harness, {"add_lines": [{"id": "L", "start": [0, 0, 0], "end": [0, 0, 3],
                                 "divisions": 3}]})
    result = _ok(harness, {"delete_nodes": {"by": "shape", "shape": "BEAM"},
                           "delete_elements": {"by": "box", "min": [0, 0, 0],
                                               "max": [1, 1, 0]}})
    assert result.after.shape_counts["BEAM"] == 0
