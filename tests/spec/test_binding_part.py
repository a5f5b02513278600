"""Binding Part calls to the spec (docs/architecture.md §4 "The spec", I15): the table of
action × scope width × value, and each contradiction the spec-as-data issue found on main,
through the real Part compilers on the offline SAM."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from sam_plugin.compilers.part import MODULE
from sam_plugin.compilers.protocol import Target
from tests.support.pipeline import Pipeline, fresh_database
from tests.support.specs import ALL, box, contradictions, labels, named_set, spec, step

TARGET = Target(model_name="Model-1", part_name="Plate")
fresh_sam = pytest.fixture(fresh_database)


@pytest.fixture
def plate(fresh_sam: Any, tmp_path: Path) -> Pipeline:
    """3 x 1 QUAD elements (labels 1, 2, 3; nodes 1..8 on a unit grid) and set S1 = {1, 2}."""
    pipe = Pipeline(MODULE, fresh_sam, tmp_path, TARGET)
    patch = {"id": "G", "shape": "QUAD", "divisions": [3, 1],
             "corners": [[0, 0, 0], [3, 0, 0], [3, 1, 0], [0, 1, 0]]}
    pipe.run([("build_part", {"patches": [patch]})], "build a plate")
    done = pipe.run([("edit_part", {"element_sets": [{"name": "S1",
                                                      "selection": labels(1, 2)}]})],
                    "create the set S1")
    assert done.receipt.status == "PASS", done.receipt.traceback
    return pipe


def translate(vector: list[float], selection: dict[str, Any] | None = None) -> dict[str, Any]:
    op: dict[str, Any] = {"op": "translate", "vector": vector}
    if selection is not None:
        op["selection"] = selection
    return op


def test_a_narrower_move_that_shears_the_set_is_named_in_words(plate):
    """2 of S1's nodes moved by a narrower scope once read "translate set S1 ✓"."""
    the_spec = spec(step("translate", named_set("S1"), vector=[5, 0, 0]))
    found = contradictions(plate, the_spec, [
        ("transform_part", {"operations": [translate([5, 0, 0], labels(1))]})])
    assert found == [
        "step 1 says translate set S1 by (5, 0, 0); the call translates element 1 by "
        "(5, 0, 0) (the call's scope (element 1) moves some, not all, of the nodes of 1 "
        "element of the step's scope (set S1), which it would distort: 2; a narrower move "
        "may move whole elements of the step's scope only)"]


def test_the_issue_translate_all_by_500_is_named_in_words(plate):
    the_spec = spec(step("translate", named_set("S1"), vector=[5, 0, 0]))
    found = contradictions(plate, the_spec, [
        ("transform_part", {"operations": [translate([0, 500, 0])]})])
    assert found == [
        "step 1 says translate set S1 by (5, 0, 0); the call translates all nodes by "
        "(0, 500, 0) (vector (0, 500, 0), not (5, 0, 0); the call's scope (all nodes: 8 "
        "nodes) goes beyond the step's (set S1: 6 nodes); 2 nodes outside it)"]


SCOPE_TABLE = [
    # (step scope, call selection, binds?)
    (named_set("S1"), named_set("S1"), True),  # the same selector
    (named_set("S1"), labels(1, 2), True),  # the same members
    # fewer: element 1 shares its nodes with element 2 of S1, which the move would shear
    (named_set("S1"), labels(1), False),
    (named_set("S1"), labels(3), False),  # others
    (named_set("S1"), labels(2, 3), False),  # more
    (named_set("S1"), None, False),  # all (the default selection)
    (named_set("S1"), box([0, 0, 0], [3, 1, 0]), False),  # a box around everything
    (labels(2), box([0.9, -0.1, 0], [2.1, 1.1, 0]), True),  # a box around element 2 only
    (ALL, labels(3), False),  # element 3 alone tears element 2 beside it
    (ALL, None, True),
    ({"by": "shape", "shape": "QUAD"}, None, True),  # every element is a QUAD: same nodes
]


@pytest.mark.parametrize(("scope", "selection", "binds"), SCOPE_TABLE)
def test_scope_width(plate, scope, selection, binds):
    the_spec = spec(step("translate", scope, vector=[5, 0, 0]))
    found = contradictions(plate, the_spec, [
        ("transform_part", {"operations": [translate([5, 0, 0], selection)]})])
    assert (found == []) is binds, found


VALUE_TABLE = [
    # (step, call operation, binds?, words of the contradiction)
    (step("rotate", ALL, angle_deg=90, axis=[0, 0, 1], origin=[0, 0, 0]),
     {"op": "rotate", "angle_deg": 270, "axis": [0, 0, 1], "origin": [0, 0, 0]}, False,
     "angle_deg 270, not 90"),
    # an origin left out is the vocabulary's default, stated: another origin contradicts it
    (step("rotate", ALL, angle_deg=90, axis=[0, 0, 1]),
     {"op": "rotate", "angle_deg": 90, "axis": [0, 0, 1], "origin": [7, 7, 0]}, False,
     "origin (7, 7, 0), not (0, 0, 0)"),
    (step("rotate", ALL, angle_deg=90, axis=[0, 0, 1]),
     {"op": "rotate", "angle_deg": 90, "axis": [0, 0, 1], "origin": [0, 0, 0]}, True, ""),
    (step("scale", ALL, factor=2),
     {"op": "scale", "factor": 2, "origin": [1e5, 0, 0]}, False,
     "origin (100000, 0, 0), not (0, 0, 0)"),
    (step("scale", ALL, factor=2, origin=[0, 0, 0]),
     {"op": "scale", "factor": 0.001, "origin": [0, 0, 0]}, False, "factor 0.001, not 2"),
    (step("scale", ALL, factor=2),
     {"op": "scale", "factor": 2 * (1 + 1e-12), "origin": [0, 0, 0]}, True, ""),
    (step("scale", ALL, factor=2),
     {"op": "scale", "factor": 2 * (1 + 1e-8), "origin": [0, 0, 0]}, False, "factor"),
    (step("mirror", ALL, copy=True, normal=[1, 0, 0], origin=[3, 0, 0]),
     {"op": "mirror", "copy": False, "normal": [1, 0, 0], "origin": [3, 0, 0]}, False,
     "copy in place, not as a copy"),
    (step("mirror", ALL, copy=True, normal=[1, 0, 0], origin=[3, 0, 0]),
     {"op": "translate", "vector": [3, 0, 0]}, False,
     "step 1 says mirror all nodes as a copy in the plane through (3, 0, 0) with the normal "
     "(1, 0, 0); the call translates all nodes by (3, 0, 0) instead"),
    (step("translate_copy", ALL, vector=[3, 0, 0]),
     {"op": "translate_copy", "vector": [3, 0, 0]}, True, ""),
    (step("linear_array", ALL, vector=[3, 0, 0], count=3),
     {"op": "linear_array", "vector": [3, 0, 0], "count": 4}, False, "count 4, not 3"),
]


@pytest.mark.parametrize(("the_step", "operation", "binds", "words"), VALUE_TABLE)
def test_transform_values(plate, the_step, operation, binds, words):
    found = contradictions(plate, spec(the_step),
                           [("transform_part", {"operations": [operation]})])
    assert (found == []) is binds, found
    assert words in " ".join(found)


@pytest.mark.parametrize("deletion", [
    {"delete_elements": ALL},
    {"delete_elements": box([-1, -1, -1], [10, 10, 1])},
    {"delete_elements": labels(3)},
    {"delete_elements": labels(2, 3)},
    {"delete_nodes": labels(2)},
])
def test_delete_element_2_and_nothing_else(plate, deletion):
    """The issue: "delete element 2 and nothing else" ran as delete all, a box around
    everything, the wrong label, delete nodes."""
    the_spec = spec(step("delete_elements", labels(2)))
    found = contradictions(plate, the_spec, [("edit_part", deletion)],
                           request="delete element 2 and nothing else")
    assert found and found[0].startswith("step 1 says delete element 2; the call deletes")


def test_delete_element_2_binds(plate):
    the_spec = spec(step("delete_elements", labels(2)))
    assert contradictions(plate, the_spec, [("edit_part", {"delete_elements": labels(2)})],
                          request="delete element 2") == []


def test_an_operation_no_step_states(plate):
    the_spec = spec(step("translate", ALL, vector=[1, 0, 0]))
    found = contradictions(plate, the_spec, [("transform_part", {"operations": [
        translate([1, 0, 0]), {"op": "scale", "factor": 3, "origin": [0, 0, 0]}]})])
    assert found == ["the call scales all nodes by 3 about (0, 0, 0), which no step of the "
                     "spec states; remove it (the spec says what may change)"]


def test_the_same_step_carried_out_twice_is_one_too_many(plate):
    the_spec = spec(step("translate", ALL, vector=[1, 0, 0]))
    found = contradictions(plate, the_spec, [("transform_part", {"operations": [
        translate([1, 0, 0]), translate([1, 0, 0])]})])
    assert len(found) == 1 and "which no step of the spec states" in found[0]


def test_a_step_no_call_carries_out(plate):
    the_spec = spec(step("translate", ALL, vector=[1, 0, 0]),
                    step("rotate", ALL, angle_deg=90, axis=[0, 0, 1]))
    found = contradictions(plate, the_spec, [("transform_part", {"operations": [
        translate([1, 0, 0])]})])
    assert found == ["step 2 says rotate all nodes by 90 degrees about the axis (0, 0, 1) "
                     "through (0, 0, 0); no call carries it out"]


def test_steps_bind_in_any_order_of_operations(plate):
    the_spec = spec(step("rotate", ALL, angle_deg=90, axis=[0, 0, 1]),
                    step("translate", ALL, vector=[1, 0, 0]))
    assert contradictions(plate, the_spec, [("transform_part", {"operations": [
        translate([1, 0, 0]), {"op": "rotate", "angle_deg": 90, "axis": [0, 0, 1],
                               "origin": [0, 0, 0]}]})]) == []


def test_two_steps_of_one_action_each_carried_out_once(plate):
    the_spec = spec(step("translate", labels(1), vector=[1, 0, 0]),
                    step("translate", labels(3), vector=[0, 1, 0]))
    good = [("transform_part", {"operations": [translate([0, 1, 0], labels(3)),
                                               translate([1, 0, 0], labels(1))]})]
    assert contradictions(plate, the_spec, good) == []
    swapped = [("transform_part", {"operations": [translate([0, 1, 0], labels(1)),
                                                  translate([1, 0, 0], labels(3))]})]
    assert len(contradictions(plate, the_spec, swapped)) == 2


def test_a_step_of_another_capability_waits_for_its_own_call(plate):
    the_spec = spec(step("translate", ALL, vector=[1, 0, 0]),
                    step("merge_nodes", tolerance=0.001))
    chain = plate.chain("translate and merge", the_spec)
    chain.add("transform_part", {"operations": [translate([1, 0, 0])]})
    assert [c.message for c in chain.unbound()] == [
        "step 2 says merge coincident nodes within 0.001; no call carries it out"]
    chain.add("repair_part", {"merge_coincident_nodes": {"tolerance": 0.001}})
    assert chain.unbound() == []


@pytest.mark.parametrize(("call", "binds"), [
    ({"merge_coincident_nodes": {"tolerance": 0.001}}, True),
    ({"merge_coincident_nodes": {"tolerance": 0.01}}, False),
    ({"merge_coincident_nodes": {}}, False),  # the step's tolerance, not the part's own
    ({"merge_coincident_nodes": {"tolerance": 0.001}, "delete_free_nodes": True}, False),
])
def test_repair_values(plate, call, binds):
    the_spec = spec(step("merge_nodes", tolerance=0.001))
    assert (contradictions(plate, the_spec, [("repair_part", call)]) == []) is binds


def test_repair_acts_on_the_whole_part_so_a_narrower_step_contradicts(plate):
    the_spec = spec(step("merge_nodes", named_set("S1"), tolerance=0.001))
    found = contradictions(plate, the_spec,
                           [("repair_part", {"merge_coincident_nodes": {"tolerance": 0.001}})])
    assert "goes beyond the step's (set S1" in found[0]


def test_audit_checks(plate):
    the_spec = spec(step("audit", checks=["free_nodes", "counts"]))
    assert contradictions(plate, the_spec, [("audit_part", {"checks": ["counts",
                                                                       "free_nodes"]})]) == []
    found = contradictions(plate, the_spec, [("audit_part", {})])
    assert "checks counts, free nodes, duplicate elements" in found[0]


def test_move_nodes_labels_and_points(plate):
    the_spec = spec(step("move_nodes", labels=[8, 1], to=[[3, 2, 0], [0, -1, 0]]))
    move = {"move_nodes": [{"label": 1, "coordinates": [0, -1, 0]},
                           {"label": 8, "coordinates": [3, 2, 0]}]}
    assert contradictions(plate, the_spec, [("edit_part", move)]) == []
    wrong = {"move_nodes": [{"label": 1, "coordinates": [3, 2, 0]},
                            {"label": 8, "coordinates": [0, -1, 0]}]}
    assert "to (3, 2, 0); (0, -1, 0), not (0, -1, 0); (3, 2, 0)" in \
        contradictions(plate, the_spec, [("edit_part", wrong)])[0]


def test_set_names_are_exact(plate):
    the_spec = spec(step("create_set", labels(3), name="Top"))
    call = {"element_sets": [{"name": "top", "selection": labels(3)}]}
    assert contradictions(plate, the_spec, [("edit_part", call)],
                          request="create a set named Top")[0].endswith("(name top, not Top)")


def test_edit_operations_each_carry_out_their_step(plate):
    the_spec = spec(step("delete_elements", labels(3)),
                    step("add_elements", count=1, shape="TRI"))
    call = {"delete_elements": labels(3),
            "nodes": [{"id": "a", "coordinates": [0, 2, 0]}, {"id": "b", "coordinates":
                                                               [1, 2, 0]}],
            "add_elements": [{"id": "t", "shape": "TRI", "node_ids": ["a", "b", "b2"]}]}
    call["nodes"].append({"id": "b2", "coordinates": [1, 3, 0]})
    assert contradictions(plate, the_spec, [("edit_part", call)],
                          request="delete element 3 and add a triangle") == []


def test_clear_all_needs_its_step(plate):
    the_spec = spec(step("add_elements", count=1, shape="QUAD"))
    call = {"clear_all": True, "add_patches": [{
        "id": "P", "shape": "QUAD", "divisions": [1, 1],
        "corners": [[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0]]}]}
    found = contradictions(plate, the_spec, [("edit_part", call)],
                           request="delete all and replace everything with one quad")
    assert found == ["the call deletes everything (every node, element and set), which no "
                     "step of the spec states; remove it (the spec says what may change)"]


def test_build_values(fresh_sam, tmp_path):
    pipe = Pipeline(MODULE, fresh_sam, tmp_path, TARGET)
    patch = {"id": "P", "shape": "QUAD", "divisions": [6, 10],
             "corners": [[0, 0, 0], [60, 0, 0], [60, 100, 0], [0, 100, 0]]}
    the_spec = spec(step("build", shape="QUAD", size=[60, 100], divisions=[6, 10],
                         origin=[0, 0, 0], nodes=77, elements=60))
    assert contradictions(pipe, the_spec, [("build_part", {"patches": [patch]})]) == []
    coarse = {**patch, "divisions": [6, 5]}
    found = contradictions(pipe, the_spec, [("build_part", {"patches": [coarse]})])
    # the counts are the model's arithmetic: a warning of the plan, never a contradiction
    assert found[0].endswith("(divisions 6 x 5, not 6 x 10)")


def test_counts_a_step_claims_are_checked_not_bound(fresh_sam, tmp_path):
    """A 6 x 10 plate has 77 nodes; the 0.5B wrote "nodes": 60. The computed build binds, and
    the wrong count is a warning that names the step."""
    pipe = Pipeline(MODULE, fresh_sam, tmp_path, TARGET)
    patch = {"id": "P", "shape": "QUAD", "divisions": [6, 10],
             "corners": [[0, 0, 0], [60, 0, 0], [60, 100, 0], [0, 100, 0]]}
    the_spec = spec(step("build", shape="QUAD", size=[60, 100], divisions=[6, 10],
                         nodes=60, elements=60))
    chain = pipe.chain("build a 60 x 100 plate meshed 6 x 10", the_spec)
    chain.add("build_part", {"patches": [patch]})
    assert chain.unbound() == []
    assert chain.claims == ["step 1 counts nodes 60; the calls make 77 (the step's count is "
                            "the model's arithmetic: check it)"]


def test_a_copy_is_bound_by_the_elements_it_copies_not_the_nodes_it_moves(plate):
    """"copy set S1 shifted by (0, 0, 50)" was carried out by copying a BEAM standing on two
    of S1's nodes: its nodes are S1's, its element is not."""
    beam = {"nodes": [{"id": "a", "coordinates": [0, 0, 0]},
                      {"id": "b", "coordinates": [1, 0, 0]}],
            "add_elements": [{"id": "B", "shape": "BEAM", "node_ids": ["a", "b"]}]}
    assert plate.run([("edit_part", beam)], "add a beam").receipt.status == "PASS"
    for action, values, op in (
            ("translate_copy", {"vector": [0, 0, 50]}, {"op": "translate_copy",
                                                        "vector": [0, 0, 50]}),
            ("linear_array", {"vector": [0, 0, 50], "count": 2},
             {"op": "linear_array", "vector": [0, 0, 50], "count": 2}),
            ("mirror", {"copy": True, "normal": [0, 0, 1], "origin": [0, 0, 5]},
             {"op": "mirror", "copy": True, "normal": [0, 0, 1], "origin": [0, 0, 5]})):
        found = contradictions(plate, spec(step(action, named_set("S1"), **values)), [
            ("transform_part", {"operations": [{**op, "selection": labels(4)}]})])
        assert len(found) == 1, (action, found)
        assert ("the call's scope (element 4: 1 element) goes beyond the step's (set S1: 2 "
                "elements); 1 element outside it") in found[0], found[0]


def test_a_scope_is_resolved_on_the_part_as_the_earlier_operations_leave_it(plate):
    """The call's first operation moves element 3 into a box that, on the part as observed,
    holds only element 1; the second scales that box. Element 3 would be scaled too."""
    the_spec = spec(step("translate", labels(3), vector=[-2, 0, 5]),
                    step("scale", labels(1), factor=2))
    found = contradictions(plate, the_spec, [("transform_part", {"operations": [
        {"op": "translate", "vector": [-2, 0, 5], "selection": labels(3)},
        {"op": "scale", "factor": 2, "origin": [0, 0, 0],
         "selection": box([-0.1, -0.1, -0.1], [1.1, 1.1, 5.1])}]})])
    assert len(found) == 1 and found[0].startswith("step 2 says scale element 1 by 2"), found
    assert "goes beyond the step's (element 1: 4 nodes)" in found[0], found[0]
    # the same box before anything moved: the one element the step names
    alone = spec(step("scale", labels(1), factor=2))
    assert contradictions(plate, alone, [("transform_part", {"operations": [
        {"op": "scale", "factor": 2, "origin": [0, 0, 0],
         "selection": box([-0.1, -0.1, -0.1], [1.1, 1.1, 5.1])}]})]) == []
