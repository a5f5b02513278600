"""The edited spec without Qt: what a field's text is read as, the document the form builds,
the reader's problems on the fields their paths name (docs/ui.md "Editing the spec")."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sam_plugin.compilers import registry
from sam_plugin.compilers.ir_common import fixed_precision
from sam_plugin.compilers.spec.problem import SpecProblem
from sam_plugin.compilers.spec.values import same_value
from sam_plugin.demo.examples import load_examples
from sam_plugin.ui.field_text import (
    ABSENT,
    MAX_RANGE_LABELS,
    field_text,
    read_text,
    read_vector,
    vector_texts,
)
from sam_plugin.ui.spec_draft import (
    json_text,
    new_step,
    place_problems,
    problems_of,
    spec_document,
    split_problem,
    step_document,
    unshowable,
    with_action,
)

PART = registry.get_module("part").vocabulary


def translate(vector: object, scope: object = None) -> dict:
    action = PART.action("translate")
    assert action is not None
    return spec_document("Move the panel.", [step_document(
        action, {"by": "all"} if scope is None else scope, {"vector": vector}, "")], None)


# -- what a text is read as -----------------------------------------------------------------


@pytest.mark.parametrize(("kind", "text", "value"), [
    ("number", "5", 5), ("number", " 2.5e3 ", 2500.0), ("number", "-0.001", -0.001),
    ("number", "abc", "abc"),  # kept as typed: the reader names it
    ("integer", "3", 3),
    ("labels", "1-5, 9", [1, 2, 3, 4, 5, 9]), ("labels", "7 – 9 12", [7, 8, 9, 12]),
    ("labels", "[3, 1]", [3, 1]), ("labels", "1, x", [1, "x"]), ("labels", "5-1", ["5-1"]),
    ("numbers", "60, 100", [60, 100]), ("numbers", "60 x 100", [60, 100]),
    ("numbers", "60 × 100", [60, 100]), ("integers", "[6, 10]", [6, 10]),
    ("names", "S1, Top ,", ["S1", "Top"]), ("name", "  S1 ", "S1"),
    ("points", "(0, 0, 0); (60, 0, 0)", [[0, 0, 0], [60, 0, 0]]),
    ("points", "[[1, 2, 3]]", [[1, 2, 3]]),
    ("records", '[{"start": [0, 0, 0]}]', [{"start": [0, 0, 0]}]),
    ("count_or_records", "60", 60),
])
def test_a_text_is_read_as_literally_as_its_kind_allows(kind, text, value):
    reading = read_text(kind, text)
    assert reading.unreadable is None
    assert reading.value == value


@pytest.mark.parametrize("kind", ["number", "labels", "points", "records", "name"])
def test_an_empty_field_leaves_its_key_out(kind):
    assert read_text(kind, "  ").value is ABSENT
    assert read_vector(["", " ", ""]).value is ABSENT


def test_a_vector_keeps_an_empty_component_for_the_reader_to_name():
    assert read_vector(["5", "", "0"]).value == [5, "", 0]


@pytest.mark.parametrize(("kind", "text", "code"), [
    ("records", '[{"start": [0, 0', "json"),
    ("count_or_records", "NaN", "json"),  # JSON numbers are finite
    ("points", "(0, 0, 0) and then", "points"),
    ("labels", f"1-{MAX_RANGE_LABELS + 1}", "range"),
])
def test_a_text_no_value_stands_for_is_said_and_kept(kind, text, code):
    reading = read_text(kind, text)
    assert reading.unreadable is not None and reading.unreadable.code == code
    assert reading.value == text  # the spec still holds what was typed


_numbers = st.floats(min_value=-1e12, max_value=1e12, allow_nan=False).map(fixed_precision)


@given(st.lists(st.integers(min_value=1, max_value=300), min_size=1, max_size=40))
def test_labels_shown_as_runs_read_back_as_the_same_labels(labels):
    assert read_text("labels", field_text("labels", labels)).value == sorted(set(labels))


@given(st.lists(_numbers, min_size=1, max_size=3))
def test_numbers_shown_read_back_as_the_same_numbers(numbers):
    assert same_value(read_text("numbers", field_text("numbers", numbers)).value, numbers)


@given(st.lists(st.lists(_numbers, min_size=3, max_size=3), min_size=1, max_size=16))
def test_points_shown_read_back_as_the_same_points(points):
    assert same_value(read_text("points", field_text("points", points)).value, points)


@given(st.lists(_numbers, min_size=3, max_size=3))
def test_a_vector_shown_in_three_fields_reads_back(vector):
    assert same_value(read_vector(vector_texts(vector)).value, vector)


def test_every_value_of_every_example_reads_back_from_its_field():
    """What the form shows of a real spec is what it holds: nothing changes on the way."""
    for example in load_examples():
        vocabulary = registry.get_module(example.mode).vocabulary
        for step in example.spec["steps"]:
            action = vocabulary.action(step["action"])
            for key, value in step["values"].items():
                kind = action.values[key].kind
                if kind in ("number", "integer", "labels", "numbers", "integers", "points",
                            "names", "name", "records", "count_or_records"):
                    assert same_value(read_text(kind, field_text(kind, value)).value, value), \
                        (example.id, key)


# -- the document and the reader --------------------------------------------------------------


def test_the_document_of_every_example_reads_as_its_spec():
    for example in load_examples():
        vocabulary = registry.get_module(example.mode).vocabulary
        steps = [step_document(vocabulary.action(s["action"]), s.get("scope"), s["values"],
                               s["text"]) for s in example.spec["steps"]]
        document = spec_document(example.spec["summary"], steps, example.spec.get("expected"))
        assert document == example.spec, example.id
        assert problems_of(document, vocabulary) == [], example.id
        assert unshowable(document, vocabulary) == ""


def test_the_json_shown_is_the_document_with_short_lists_on_one_line():
    for example in load_examples():
        assert json.loads(json_text(example.spec)) == example.spec
    text = json_text(translate([5, 0, 0], {"by": "labels", "labels": list(range(1, 2001))}))
    assert text.splitlines()[11] == '        "vector": [5, 0, 0]'
    assert len(text.splitlines()) == 17  # 2,000 labels, one line


@pytest.mark.parametrize("mode", registry.MODES)
def test_a_step_added_from_the_vocabulary_names_what_it_still_needs(mode):
    vocabulary = registry.get_module(mode).vocabulary
    for action in vocabulary.actions:
        document = spec_document("A change.", [new_step(action)], None)
        problems = problems_of(document, vocabulary)
        needs = [k for k in action.required if k not in action.defaults]
        if action.scope == "required":
            assert problems[0].startswith("steps[0].scope: "), (action.name, problems)
        elif needs:
            assert problems == [f"steps[0].values: '{needs[0]}' is a required property; "
                                f"{action.name} states {', '.join(action.required)}"] or \
                len(needs) > 1, (action.name, problems)
        else:
            assert problems == [], (action.name, problems)


def test_another_action_keeps_the_values_and_scope_it_shares():
    scale, translate_copy, build = (PART.action(n) for n in ("scale", "translate_copy", "build"))
    step = translate([5, 0, 0])["steps"][0]
    assert with_action(step, translate_copy)["values"] == {"vector": [5, 0, 0]}
    scaled = with_action(step, scale)
    assert scaled["values"] == {"origin": [0.0, 0.0, 0.0]} and scaled["scope"] == {"by": "all"}
    built = with_action(step, build)
    assert "scope" not in built and built["capability"] == "build"


def test_what_the_form_cannot_show_is_named():
    assert unshowable(translate([5, 0, 0]), PART) == ""
    document = translate([5, 0, 0])
    document["steps"][0]["action"] = "teleport"
    assert unshowable(document, PART) == "steps[0].action: 'teleport' is not a Part action"
    assert unshowable([], PART) == "(the spec): not a JSON object"
    assert unshowable({"summary": "x", "steps": [{"action": "translate", "scope": 5}]},
                      PART) == "steps[0].scope: not a selector"


# -- problems on fields -------------------------------------------------------------------------

FIELDS = ["summary", "steps", "steps[0]", "steps[0].scope", "steps[0].values.vector",
          "steps[0].text", "steps[1]", "expected", "expected.nodes"]


def test_a_problem_goes_to_the_field_its_path_names_in_the_readers_words():
    problems = problems_of(translate([0, 7]), PART)
    assert problems == ["steps[0].values.vector: [0, 7] is too short"]
    placed = place_problems(problems, FIELDS)
    assert placed.on_fields == {"steps[0].values.vector": ["[0, 7] is too short"]}
    assert placed.elsewhere == []


def test_a_problem_inside_a_field_keeps_the_rest_of_its_path():
    placed = place_problems(problems_of(translate([0, "abc", 0]), PART), FIELDS)
    assert placed.on_fields == {"steps[0].values.vector": ["[1]: 'abc' is not of type 'number'"]}


def test_a_missing_required_value_goes_to_that_values_field():
    document = translate([0, 0, 0])
    del document["steps"][0]["values"]["vector"]
    del document["summary"]
    placed = place_problems(problems_of(document, PART), FIELDS)
    assert placed.on_fields == {
        "summary": ["'summary' is a required property"],
        "steps[0].values.vector": ["'vector' is a required property; translate states vector"]}


def test_a_value_the_action_does_not_take_goes_to_its_step():
    document = translate([0, 0, 0])
    document["steps"][0]["values"]["factor"] = 2
    placed = place_problems(problems_of(document, PART), FIELDS)
    assert placed.on_fields == {"steps[0]": [
        ".values: 'factor' not allowed; legal fields of translate: vector"]}


def test_a_box_the_reader_refuses_goes_to_the_scope():
    problems = problems_of(translate([1, 0, 0], {"by": "box", "min": [5, 0, 0],
                                                 "max": [0, 1, 1]}), PART)
    assert len(problems) == 1 and problems[0].startswith("steps[0].scope: ")
    assert "box min x=5.0 exceeds max x=0.0" in problems[0]
    assert list(place_problems(problems, FIELDS).on_fields) == ["steps[0].scope"]


def test_a_path_is_held_only_at_its_boundary():
    placed = place_problems([SpecProblem("steps[10].values", "bad"), SpecProblem("stepsX", "bad"),
                             SpecProblem("expected.nodesy", "-1")], FIELDS)
    # steps[10] is not steps[1]'s: the steps as a whole hold it
    assert placed.on_fields == {"steps": ["[10].values: bad"], "expected": [".nodesy: -1"]}
    assert placed.elsewhere == ["stepsX: bad"]


def test_a_problem_with_no_path_is_said_whole():
    routed = SpecProblem("steps", "Panel already has 25 nodes: ask to edit it, or pick a new "
                                  "part name")
    placed = place_problems(["the answer must be one JSON object", routed], FIELDS)
    assert placed.elsewhere == ["the answer must be one JSON object"]
    assert placed.on_fields == {"steps": [routed.removeprefix("steps: ")]}
    assert split_problem(SpecProblem("", "'steps' is a required property")) == (
        "", "'steps' is a required property")


def test_each_missing_required_value_is_placed_by_the_schemas_typed_error_not_its_words():
    placed = place_problems(problems_of({"expected": {}}, PART), FIELDS)
    assert placed.on_fields == {"summary": ["'summary' is a required property"],
                                "steps": ["'steps' is a required property"]}
    # the words alone no longer place a problem: one made elsewhere, saying the same with
    # no missing key as data, stays on the object's own field
    said = SpecProblem("steps[0].values", "'vector' is a required property")
    assert place_problems([said], FIELDS).on_fields == {
        "steps[0]": [".values: 'vector' is a required property"]}


def test_a_problems_words_are_never_read_back_for_its_path():
    # a line that reads like a path and words, made with no path as data, names no field
    said = "steps[0].values.vector: [0, 7] is too short"
    assert split_problem(said) == ("", said)
    assert place_problems([said], FIELDS).elsewhere == [said]
    # the same problem as data goes to its field, and says the same line
    problem = SpecProblem("steps[0].values.vector", "[0, 7] is too short")
    assert problem == said
    assert place_problems([problem], FIELDS).on_fields == {
        "steps[0].values.vector": ["[0, 7] is too short"]}
