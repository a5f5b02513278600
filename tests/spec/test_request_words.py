"""The numbers a request states, read as words (compilers/spec/request_words.py), and which
of a step's numbers they source (compilers/spec/provenance.py). Each table grows with every
finding: a phrasing that was misread is a row here."""

from __future__ import annotations

import pytest

from sam_plugin.compilers import registry
from sam_plugin.compilers.spec.provenance import Sources, text_sources, unsourced_values
from sam_plugin.compilers.spec.request_words import fold, stated_numbers
from tests.support.specs import labels, spec, step

# (request, numbers it must state, numbers it must not state)
STATED = [
    ("Extend the plate along X.", set(), {10.0}),
    ("Set the height of the plate.", set(), {8.0}),
    ("Someone has done it; often, nine times out of ten.", {9.0, 10.0}, {1.0}),
    ("把四边形单元细化", set(), {4.0}),
    ("将单元细化两次", {2.0}, set()),
    ("绕Z轴旋转九十度", {90.0}, set()),
    ("删除第四个单元", {4.0}, set()),
    ("统一一起处理", set(), {1.0}),
    ("Refine the elements of set S1.", set(), {1.0}),
    ("Rotate the part a quarter turn about Z.", {90.0}, set()),
    ("Rotate set S1 a half turn.", {180.0}, set()),
    ("将集合 S1 旋转半圈", {180.0}, set()),
    ("Rotate by a right angle.", {90.0}, set()),
    ("Use ticket 100-2000 for this.", {100.0, 2000.0}, {1500.0, -2000.0}),
    ("Move by -5 along X.", {-5.0}, {5.0}),
    ("Move node 3 up by 50.", {50.0, 3.0}, {-50.0}),
    ("Refine a 2x2 block.", {2.0}, set()),
    ("Move by ５ along Ｘ.", {5.0}, set()),
    ("Scale by 1e999.", set(), {float("inf")}),
    ("Delete node4 and element12.", {4.0, 12.0}, set()),
    ("Keep set S1 and model M10.", set(), {1.0, 10.0}),
]


@pytest.mark.parametrize(("request_text", "said", "unsaid"), STATED)
def test_a_request_states_the_numbers_its_words_state(request_text, said, unsaid):
    numbers = stated_numbers(request_text).numbers
    assert said <= numbers, numbers
    assert not unsaid & numbers, numbers


# (request, labels a scope may take from it)
LABEL_RANGES = [
    ("Delete elements 1-4.", {1.0, 2.0, 3.0, 4.0}),
    ("Assign Skin to elements 1 to 9.", {float(n) for n in range(1, 10)}),
    ("删除 2至4号单元", {2.0, 3.0, 4.0}),
    ("删除单元 2 到 4", {2.0, 3.0, 4.0}),
    ("Use ticket 100-2000 for this.", set()),
    ("Move by 1 to 3 mm.", set()),
    ("Delete elements1-3.", {1.0, 2.0, 3.0}),
    ("Delete elements " + "9" * 5000 + "-" + "9" * 5001, set()),
]


@pytest.mark.parametrize(("request_text", "expected"), LABEL_RANGES)
def test_a_range_states_labels_only_where_it_names_them(request_text, expected):
    assert stated_numbers(request_text).labels == expected


def test_typographic_quotes_are_folded():
    assert fold("Don\u2019t change anything") == "Don't change anything"
    assert fold("\u201cS1\u201d") == '"S1"'


PART = registry.get_module("part").vocabulary


def warnings_of(request_text: str, *steps: dict, observed: object = None) -> list[str]:
    return unsourced_values(spec(*steps), PART, text_sources([request_text], data=observed))


# (request, the step, the words of its warning, or "" for none)
SOURCED = [
    ("Extend set S1 along X.", step("translate", {"by": "set", "name": "S1"},
                                    vector=[10, 0, 0]),
     "step 1 (translate set S1 by (10, 0, 0)): 10 is in neither the request nor the "
     "observation; check where it comes from (edit the step if it is wrong)"),
    ("Raise the height of node 3.", step("move_nodes", labels=[3], to=[[0, 8, 0]]),
     "step 1 (move nodes 3 to (0, 8, 0)): 8 is in neither the request nor the observation; "
     "check where it comes from (edit the step if it is wrong)"),
    ("Move node 3 up by 50.", step("translate", labels(3), vector=[0, -50, 0]),
     "step 1 (translate element 3 by (0, -50, 0)): -50 is not stated by the request (a scope "
     "or a move takes its numbers, with their signs, from the request's own words); check "
     "where it comes from (edit the step if it is wrong)"),
    ("Move node 3 down by 50.", step("translate", labels(3), vector=[0, -50, 0]), ""),
    ("Move node 3 by -50 along Y.", step("translate", labels(3), vector=[0, -50, 0]), ""),
    ("Rotate the part a quarter turn about Z.",
     step("rotate", {"by": "all"}, angle_deg=90, axis=[0, 0, 1], origin=[0, 0, 0]), ""),
    ("Rotate the part a half turn about Z.",
     step("rotate", {"by": "all"}, angle_deg=180, axis=[0, 0, 1], origin=[0, 0, 0]), ""),
    ("Use ticket 100-2000: delete the bad element.", step("delete_elements", labels(1500)),
     "step 1 (delete element 1500): 1500 is in neither the request nor the observation; "
     "check where it comes from (edit the step if it is wrong)"),
    ("Delete the bad element.", step("delete_elements", labels(1)),
     "step 1 (delete element 1): 1 is not stated by the request (a scope or a move takes its "
     "numbers, with their signs, from the request's own words); check where it comes from "
     "(edit the step if it is wrong)"),
    ("Delete elements 1-4.", step("delete_elements", labels(1, 2, 3, 4)), ""),
    ("把四边形单元删除", step("delete_elements", labels(4)),
     "step 1 (delete element 4): 4 is in neither the request nor the observation; check "
     "where it comes from (edit the step if it is wrong)"),
    ("Merge coincident nodes within 0.01.", step("merge_nodes", tolerance=0.01), ""),
]


@pytest.mark.parametrize(("request_text", "the_step", "expected"), SOURCED)
def test_a_steps_numbers_are_sourced_by_the_words_of_the_request(request_text, the_step,
                                                                 expected):
    assert warnings_of(request_text, the_step) == ([expected] if expected else [])


def test_the_observations_numbers_source_a_tolerance_but_not_a_scope_or_a_move():
    observed = {"nodes": 9, "labels": [7], "box": [[0, 0, 0], [2, 2, 0]]}
    assert warnings_of("Merge coincident nodes.", step("merge_nodes", tolerance=2),
                       observed=observed) == []
    assert warnings_of("Delete the corner element.", step("delete_elements", labels(7)),
                       observed=observed) == [
        "step 1 (delete element 7): 7 is not stated by the request (a scope or a move takes "
        "its numbers, with their signs, from the request's own words); check where it comes "
        "from (edit the step if it is wrong)"]


def test_the_picked_labels_source_a_scope():
    sources = Sources(picked=frozenset({7.0}))
    assert unsourced_values(spec(step("delete_elements", labels(7))), PART, sources) == []


def test_an_edit_keeps_the_warnings_on_the_values_it_did_not_change():
    model = spec(step("merge_nodes", tolerance=0.001),
                 step("translate", {"by": "all"}, vector=[7, 0, 0]))
    edited = spec(step("merge_nodes", tolerance=0.002),
                  step("translate", {"by": "all"}, vector=[7, 0, 0]))
    sources = text_sources(["Merge the nodes and move the part along X."])
    assert unsourced_values(edited, PART, sources, unchanged_from=model) == [
        "step 2 (translate all nodes by (7, 0, 0)): 7 is in neither the request nor the "
        "observation; check where it comes from (edit the step if it is wrong)"]
    assert unsourced_values(model, PART, sources, unchanged_from=model) == \
        unsourced_values(model, PART, sources)
