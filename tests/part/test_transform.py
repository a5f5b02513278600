"""transform_part: each op, copies, mirror orientation, predictions, diagnostics."""

from __future__ import annotations

import math
from typing import Any

import pytest

from sam_plugin.errors import CompileError


def _run(harness: Any, ops: list[dict], request: str = "transform it") -> Any:
    result = harness.run(request, [("transform_part", {"operations": ops})])
    assert result.receipt.status == "PASS", result.receipt.traceback
    assert harness.within(result.evidence, result.after) == []
    return result


def _coords(harness: Any, label: int) -> tuple[float, ...]:
    return tuple(round(c, 9) for c in harness.part().nodes.getFromLabel(label).coordinates)


def test_translate_all_keeps_counts(harness: Any) -> None:
    harness.grid(2, 2)
    result = _run(harness, [{"op": "translate", "vector": [500, 0, 0]}])
    assert result.after.bounding_box == ((500.0, 0.0, 0.0), (502.0, 2.0, 0.0))
    assert result.evidence.node_count.describe() == "9"


def test_rotate_right_hand_rule_in_degrees(harness: Any) -> None:
    harness.grid(1, 1)
    _run(harness, [{"op": "rotate", "origin": [0, 0, 0], "axis": [0, 0, 1], "angle_deg": 90}])
    assert _coords(harness, 2) == (0.0, 1.0, 0.0)


def test_scale_about_origin(harness: Any) -> None:
    harness.grid(1, 1)
    _run(harness, [{"op": "scale", "origin": [1, 1, 0], "factor": 3}])
    assert _coords(harness, 1) == (-2.0, -2.0, 0.0)


def _normal_z(harness: Any, element: Any) -> float:
    p = [harness.part().nodes.getFromLabel(k).coordinates for k in element.connectivity]
    return (p[1][0] - p[0][0]) * (p[2][1] - p[0][1]) - (p[1][1] - p[0][1]) * (p[2][0] - p[0][0])


def test_mirror_copy_reverses_node_order_so_normals_agree(harness: Any) -> None:
    harness.grid(1, 1)
    result = _run(harness, [{"op": "mirror", "origin": [0, 0, 0], "normal": [1, 0, 0],
                             "copy": True}])
    assert (result.after.node_count, result.after.element_count) == (8, 2)
    original, copy = list(harness.part().elements)
    assert copy.connectivity == (5, 7, 8, 6)
    assert _normal_z(harness, original) > 0 and _normal_z(harness, copy) > 0


def test_mirror_in_place_keeps_sets_and_normals(harness: Any) -> None:
    harness.grid(2, 1)
    harness.part().Set(name="Both", elements=harness.part().elements)
    result = _run(harness, [{"op": "mirror", "origin": [0, 0, 0], "normal": [1, 0, 0],
                             "copy": False}])
    assert result.after.bounding_box == ((-2.0, 0.0, 0.0), (0.0, 1.0, 0.0))
    assert all(_normal_z(harness, e) > 0 for e in harness.part().elements)
    assert len(harness.part().sets["Both"].elements) == 2
    assert result.evidence.assigned_elements is None  # re-created elements: not predicted


def test_translate_copy_and_linear_array_counts(harness: Any) -> None:
    harness.grid(2, 2)
    result = _run(harness, [{"op": "translate_copy", "vector": [0, 0, 10]},
                            {"op": "linear_array", "vector": [5, 0, 0], "count": 3,
                             "selection": {"by": "shape", "shape": "QUAD"}}])
    assert (result.after.node_count, result.after.element_count) == (54, 24)
    assert result.evidence.node_count.describe() == "54"  # every op simulated, not only the first


def test_linear_array_exact_on_first_op(harness: Any) -> None:
    harness.grid(1, 1)
    result = _run(harness, [{"op": "linear_array", "vector": [2, 0, 0], "count": 100}])
    assert result.evidence.element_count.describe() == "100"
    assert result.after.element_count == 100


def test_selection_by_labels_moves_only_their_nodes(harness: Any) -> None:
    harness.grid(2, 1)
    _run(harness, [{"op": "translate", "vector": [0, 0, 1],
                    "selection": {"by": "labels", "labels": [2]}}])
    assert _coords(harness, 1) == (0.0, 0.0, 0.0)
    assert _coords(harness, 3) == (2.0, 0.0, 1.0)


@pytest.mark.parametrize(("op", "message"), [
    ({"op": "rotate", "origin": [0, 0, 0], "axis": [0, 0, 0], "angle_deg": 5},
     "operations[0].axis: axis must not be the zero vector"),
    ({"op": "mirror", "origin": [0, 0, 0], "normal": [0, 0, 0], "copy": True},
     "operations[0].normal: normal must not be the zero vector"),
    ({"op": "translate_copy", "vector": [0, 0, 0]},
     "operations[0].vector: vector must not be zero: the copies would lie on the original"),
    ({"op": "linear_array", "vector": [1, 0, 0], "count": 101},
     "operations[0].count: 101 exceeds the maximum 100"),
    ({"op": "linear_array", "vector": [1, 0, 0], "count": 1},
     "operations[0].count: 1 is below the minimum 2"),
    ({"op": "translate", "vector": [1, 0, 0], "selection": {"by": "set", "name": "Nope"}},
     "operations[0].selection.name: unknown set 'Nope'; the part has no sets"),
    # a subnormal shift used to verify and write a subnormal coordinate (docs/architecture.md
    # §4): below the part's model-scale epsilon, as translate_copy already was
    ({"op": "translate", "vector": [1e-320, 0, 0]},
     "operations[0].vector: vector (1e-320, 0, 0) (length 1e-320) is within the merge "
     "tolerance 1.41e-06 of a part that spans 1.41: the nodes would not move"),
    ({"op": "translate", "vector": [0, 0, 0]},
     "operations[0].vector: vector must not be zero: the nodes would not move"),
])
def test_transform_diagnostics(harness: Any, op: dict, message: str) -> None:
    harness.grid(1, 1)
    with pytest.raises(CompileError) as err:
        harness.compile_all("t", [("transform_part", {"operations": [op]})])
    assert [str(d) for d in err.value.diagnostics] == [message]


@pytest.mark.parametrize("selection", [
    {"by": "shape", "shape": "TRI"},
    {"by": "box", "min": [50, 50, 0], "max": [60, 60, 0]},
])
def test_a_scope_that_picks_nothing_is_refused_naming_what_the_part_has(
        harness: Any, selection: dict) -> None:
    """"Rotate the part about Y" came as a rotation of "all TRI" on a part of QUADs: it
    compiled, ran and moved nothing."""
    harness.grid(2, 1)
    with pytest.raises(CompileError) as err:
        harness.compile_all("t", [("transform_part", {"operations": [
            {"op": "rotate", "origin": [0, 0, 0], "axis": [0, 1, 0], "angle_deg": 90,
             "selection": selection}]})])
    assert [str(d) for d in err.value.diagnostics] == [
        "operations[0].selection: the selection picks no elements nor nodes, so nothing "
        "would move; the part has 2 elements (QUAD)"]
    assert err.value.diagnostics[0].needs == ("picking_scope",)


@pytest.mark.parametrize(("box", "labels", "to"), [
    ([[1, 1, 0], [1, 1, 0]], "5", "[5] and to [[1, 1, 2.5]]"),  # "lift the centre node"
    ([[-0.1, 1.9, -0.1], [2.1, 2.1, 0.1]], "7, 8, 9",  # "raise the top edge's nodes"
     "[7, 8, 9] and to [[0, 2, 2.5], [1, 2, 2.5], [2, 2, 2.5]]"),
])
def test_a_translate_whose_box_holds_only_nodes_of_elements_is_told_move_nodes(
        harness: Any, box: list, labels: str, to: str) -> None:
    """"Lift the centre node of the plate by 2.5 mm" came as a translate of a box around the
    node: a transform moves whole elements, so it picked nothing, and the repair, told only
    that, answered another box."""
    harness.grid(2, 2)
    with pytest.raises(CompileError) as err:
        harness.compile_all("t", [("transform_part", {"operations": [
            {"op": "translate", "vector": [0, 0, 2.5],
             "selection": {"by": "box", "min": box[0], "max": box[1]}}]})])
    assert [str(d) for d in err.value.diagnostics] == [
        "operations[0].selection: the selection picks no whole element, so nothing would "
        f"move: a translate moves whole elements, and the box holds only node(s) {labels} of "
        f"the part's elements; to move those nodes alone, write move_nodes with labels {to}"]
    assert err.value.diagnostics[0].needs == ("action=move_nodes",)


def test_a_rotation_whose_box_holds_only_nodes_is_asked_for_a_scope(harness: Any) -> None:
    """Only a translate says where the nodes go; another transform is asked for its scope."""
    harness.grid(2, 2)
    with pytest.raises(CompileError) as err:
        harness.compile_all("t", [("transform_part", {"operations": [
            {"op": "rotate", "origin": [0, 0, 0], "axis": [0, 0, 1], "angle_deg": 90,
             "selection": {"by": "box", "min": [1, 1, 0], "max": [1, 1, 0]}}]})])
    assert err.value.diagnostics[0].needs == ("picking_scope",)


def test_a_box_a_later_operation_fills_is_not_judged_on_the_part_as_observed(
        harness: Any) -> None:
    harness.grid(1, 1)
    _run(harness, [{"op": "translate", "vector": [10, 0, 0]},
                   {"op": "translate", "vector": [0, 5, 0],
                    "selection": {"by": "box", "min": [9, -1, -1], "max": [12, 2, 1]}}])
    assert _coords(harness, 1) == (10.0, 5.0, 0.0)


def test_transform_needs_a_part(harness: Any) -> None:
    with pytest.raises(CompileError, match="part 'Plate' does not exist; there is nothing to "
                       "transform"):
        harness.compile_all("t", [("transform_part", {"operations": [
            {"op": "translate", "vector": [1, 0, 0]}]})])


def test_rotation_matches_rodrigues_off_axis(harness: Any) -> None:
    harness.grid(1, 1)
    _run(harness, [{"op": "rotate", "origin": [1, 0, 0], "axis": [1, 1, 1], "angle_deg": 120}])
    # 120 degrees about (1,1,1) permutes the axes: (x,y,z) -> (z,x,y) around origin (1,0,0)
    x, y, z = harness.part().nodes.getFromLabel(4).coordinates  # (1,1,0) - o = (0,1,0)
    assert math.isclose(x, 1.0, abs_tol=1e-9) and math.isclose(y, 0.0, abs_tol=1e-9)
    assert math.isclose(z, 1.0, abs_tol=1e-9)


def test_labels_deleted_by_an_earlier_edit_are_rejected(harness: Any) -> None:
    harness.grid(2, 2)
    with pytest.raises(CompileError) as err:
        harness.compile_all("delete and move", [
            ("edit_part", {"delete_elements": {"by": "labels", "labels": [1]},
                           "add_lines": [{"id": "L", "start": [0, 0, 0], "end": [0, 0, 2],
                                          "divisions": 2}]}),
            ("transform_part", {"operations": [
                {"op": "translate", "vector": [1, 0, 0],
                 "selection": {"by": "labels", "labels": [1, 2]}}]})])
    # the edit adds more than it deletes: only the simulation sees that label 1 is gone
    assert [str(d) for d in err.value.diagnostics] == [
        "operations[0].selection.labels: element(s) 1 are deleted by an earlier call of this "
        "run; after it, existing element labels: 2..6 (5 elements)"]


def test_labels_that_survive_an_earlier_edit_can_be_transformed(harness: Any) -> None:
    harness.grid(2, 2)
    result = harness.run("delete one and lift another", [
        ("edit_part", {"delete_elements": {"by": "labels", "labels": [1]}}),
        ("transform_part", {"operations": [{"op": "translate_copy", "vector": [0, 0, 1],
                                            "selection": {"by": "labels", "labels": [4]}}]})])
    assert result.receipt.status == "PASS", result.receipt.traceback
    assert result.evidence.element_count.describe() == "4"
    assert result.evidence.node_count.describe() == "13"
    assert (result.after.node_count, result.after.element_count) == (13, 4)


def test_without_a_simulation_labels_after_a_deleting_edit_are_refused(
        harness: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from sam_plugin.compilers.part import simulate

    harness.grid(2, 2)
    monkeypatch.setattr(simulate, "SIMULATION_LIMIT", 5)
    with pytest.raises(CompileError) as err:
        harness.compile_all("delete and move", [
            ("edit_part", {"delete_elements": {"by": "labels", "labels": [1]},
                           "add_lines": [{"id": "L", "start": [0, 0, 0], "end": [0, 0, 2],
                                          "divisions": 2}]}),
            ("transform_part", {"operations": [
                {"op": "translate", "vector": [1, 0, 0],
                 "selection": {"by": "labels", "labels": [4]}}]})])
    assert [str(d) for d in err.value.diagnostics] == [
        "operations[0].selection.labels: an earlier call of this run may delete elements, so "
        "these labels may be gone; select by shape, box or all, or transform in a separate "
        "request"]


def test_set_made_by_an_earlier_edit_can_be_transformed(harness: Any) -> None:
    harness.grid(2, 2)
    result = harness.run("group the bottom row as a set and lift it", [
        ("edit_part", {"element_sets": [{"name": "Row", "selection": {
            "by": "box", "min": [0, 0, 0], "max": [2, 1, 0]}}]}),
        ("transform_part", {"operations": [{"op": "translate", "vector": [0, 0, 1],
                                            "selection": {"by": "set", "name": "Row"}}]})])
    assert result.receipt.status == "PASS", result.receipt.traceback
    assert result.after.bounding_box == ((0.0, 0.0, 0.0), (2.0, 2.0, 1.0))
