"""A design answer read as a spec: one JSON object (whole, fenced, or alone in prose); every
problem named by its field with what is legal there (docs/architecture.md §4)."""

from __future__ import annotations

import json

import pytest

from sam_plugin.compilers import registry
from sam_plugin.compilers.expectations import parse_expectations
from sam_plugin.compilers.spec.ir import Expected
from sam_plugin.compilers.spec.reading import read_spec
from sam_plugin.errors import SpecRejected

PART = registry.get_module("part").vocabulary
SPEC = {"summary": "Rotate set Arm by 30 degrees.",
        "steps": [{"capability": "transform", "action": "rotate",
                   "scope": {"by": "set", "name": "Arm"},
                   "values": {"angle_deg": 30, "axis": [0, 0, 1], "origin": [0, 0, 0]},
                   "text": "Rotate Arm."}]}
TEXT = json.dumps(SPEC)


@pytest.mark.parametrize("content", [
    TEXT,
    f"  {TEXT}\n",
    f"```json\n{TEXT}\n```",
    f"Here is the spec:\n```\n{TEXT}\n```\nConfirm when ready.",
    f"<think>the analyst wants {{\"summary\": 1}}</think>\n{TEXT}",
    f"The spec: {TEXT} (as asked).",
])
def test_the_one_object_is_read_wherever_the_answer_puts_it(content):
    spec = read_spec(content, PART)
    assert spec.steps[0].action == "rotate" and spec.steps[0].values["angle_deg"] == 30.0


def problems(content: str) -> list[str]:
    with pytest.raises(SpecRejected) as caught:
        read_spec(content, PART)
    return caught.value.problems


def test_prose_is_named_as_prose():
    with pytest.raises(SpecRejected) as caught:
        read_spec("I will rotate set Arm by 30 degrees.\nPlanned Part capabilities: transform",
                  PART)
    assert caught.value.found_json is False
    assert "prose, not a spec" in caught.value.problems[0]


def test_two_objects_are_refused():
    assert "holds 2 JSON objects" in problems(f"{TEXT}\nor\n{TEXT}")[0]


def test_broken_json_says_where():
    assert problems(TEXT[:-1])[0].startswith("the JSON object does not parse")


def test_a_key_twice_is_refused():
    twice = TEXT.replace('"angle_deg": 30', '"angle_deg": 30, "angle_deg": 270')
    assert "appears twice" in problems(twice)[0]


def test_each_problem_names_its_field_and_the_legal_set():
    bad = {"summary": "s", "steps": [
        {"capability": "transform", "action": "spin", "values": {}, "text": ""},
        {"capability": "edit", "action": "rotate", "scope": {"by": "all"},
         "values": {"angle_deg": 1, "axis": [0, 0, 1]}, "text": ""},
        {"capability": "transform", "action": "rotate", "values": {"angle_deg": 1,
                                                                   "axis": [0, 0, 1]},
         "text": ""},
        {"capability": "transform", "action": "rotate", "scope": {"by": "all"},
         "values": {"angle_deg": 1, "axis": [0, 0, 1], "factor": 2}, "text": ""},
        {"capability": "build", "action": "build", "scope": {"by": "all"}, "values": {},
         "text": ""},
        {"capability": "edit", "action": "move_nodes",
         "values": {"labels": [1, 2], "to": [[0, 0, 0]]}, "text": ""},
        {"capability": "edit", "action": "move_nodes",
         "values": {"labels": [4, 4], "to": [[0, 0, 0], [1, 1, 1]]}, "text": ""},
    ]}
    found = problems(json.dumps(bad))
    assert found == [
        "steps[0].action: 'spin' is not a Part action; legal actions: build, add_nodes, "
        "add_elements, delete_elements, delete_nodes, move_nodes, create_set, clear_all, "
        "translate, translate_copy, rotate, mirror, scale, linear_array, merge_nodes, "
        "delete_free_nodes, delete_duplicate_elements, audit",
        "steps[1].capability: rotate is a transform action, not 'edit'",
        'steps[2].scope: rotate needs a scope, the entities it acts on ({"by":"all"} for '
        "the whole part)",
        "steps[3].values: 'factor' not allowed; legal fields of rotate: angle_deg, axis, "
        "origin",
        "steps[4].scope: build acts on no existing entities; leave scope out",
        "steps[5].values.to: 1 point(s) for 2 label(s); give one point [x, y, z] per label, "
        "in the order of labels",
        "steps[6].values.labels: 4 given twice; name each label once",
    ]


def test_a_box_upside_down_is_named():
    spec = {**SPEC, "steps": [{**SPEC["steps"][0],
                               "scope": {"by": "box", "min": [1, 0, 0], "max": [0, 1, 1]}}]}
    assert "box min x=1.0 exceeds max x=0.0" in problems(json.dumps(spec))[0]


def test_values_are_normalized_like_the_tool_ir():
    spec = read_spec(json.dumps({"summary": "s", "steps": [
        {"capability": "edit", "action": "move_nodes",
         "values": {"labels": [7, 3], "to": [[7, 7, 7], [3, 3, 3]]}, "text": ""},
        {"capability": "audit", "action": "audit",
         "values": {"checks": ["quality", "counts", "quality"]}, "text": ""}]}), PART)
    # one point per label, held in label order
    assert spec.steps[0].values == {"labels": [3, 7], "to": [[3.0, 3.0, 3.0], [7.0, 7.0, 7.0]]}
    assert spec.steps[1].values == {"checks": ["counts", "quality"]}


def test_old_expected_line_becomes_the_expected_field():
    line = parse_expectations("x\nExpected results: 45 nodes, 32 elements (32 QUAD), "
                              "sets: S1; selected: 16 elements")
    assert Expected.from_line(line) == Expected(nodes=45, elements=32, shapes={"QUAD": 32},
                                                sets=("S1",), selected=16)
