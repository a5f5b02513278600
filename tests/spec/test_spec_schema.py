"""The JSON Schema of each mode's spec (docs/architecture.md §4 "The spec"): valid Draft
2020-12, within what local grammars accept, restricted to the mode's actions, and in
agreement with the reader that checks every answer."""

from __future__ import annotations

import json
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from sam_plugin.compilers import registry
from sam_plugin.compilers.spec import spec_json_schema
from sam_plugin.compilers.spec.reading import spec_from_json
from sam_plugin.errors import SpecRejected

DESIGN_EXAMPLE = {
    "summary": "Translate set S1 by (5, 0, 0).",
    "steps": [{"capability": "transform", "action": "translate",
               "scope": {"by": "set", "name": "S1"}, "values": {"vector": [5, 0, 0]},
               "text": "Translate the nodes of set S1 by (5, 0, 0)."}],
    "expected": {"nodes": 6, "elements": 2, "shapes": {"QUAD": 2}, "sets": ["S1"],
                 "selected": 2},
}
_GRAMMAR_UNSAFE = {"oneOf", "allOf", "if", "then", "else", "not", "patternProperties",
                   "dependentSchemas", "dependentRequired", "unevaluatedProperties"}


def _walk(schema: Any, path: str = "#"):
    if isinstance(schema, dict):
        yield path, schema
        for key, value in schema.items():
            yield from _walk(value, f"{path}/{key}")
    elif isinstance(schema, list):
        for i, value in enumerate(schema):
            yield from _walk(value, f"{path}/{i}")


@pytest.mark.parametrize("mode", registry.MODES)
def test_each_mode_schema_is_draft_2020_12(mode):
    Draft202012Validator.check_schema(spec_json_schema(mode))


@pytest.mark.parametrize("mode", registry.MODES)
def test_schema_stays_in_the_grammar_subset(mode):
    schema = spec_json_schema(mode)
    refs = []
    for path, node in _walk(schema):
        assert not (_GRAMMAR_UNSAFE & set(node)), f"{path} uses {_GRAMMAR_UNSAFE & set(node)}"
        if node.get("type") == "object":
            assert node.get("additionalProperties") is False, f"{path} allows extra fields"
        if "$ref" in node:
            refs.append(node["$ref"])
    # the one reference goes to the Selector, which holds no reference itself (no cycle)
    assert set(refs) == {"#/$defs/selector"}
    assert not [p for p, n in _walk(schema["$defs"]) if "$ref" in n]


@pytest.mark.parametrize("mode", registry.MODES)
def test_actions_are_exactly_the_modes_vocabulary(mode):
    vocabulary = registry.get_module(mode).vocabulary
    variants = spec_json_schema(mode)["properties"]["steps"]["items"]["anyOf"]
    pairs = [(v["properties"]["capability"]["enum"], v["properties"]["action"]["enum"])
             for v in variants]
    assert pairs == [([a.capability], [a.name]) for a in vocabulary.actions]
    assert set(vocabulary.capabilities) >= {a.capability for a in vocabulary.actions}


def test_design_example_meets_the_part_schema_and_reads_back():
    Draft202012Validator(spec_json_schema("part")).validate(DESIGN_EXAMPLE)
    spec = spec_from_json(DESIGN_EXAMPLE, registry.get_module("part").vocabulary)
    assert spec.steps[0].values == {"vector": [5.0, 0.0, 0.0]}
    assert spec.expected.selected == 2
    # spec.json round-trips: what is stored reads back as the same spec
    again = spec_from_json(json.loads(json.dumps(spec.as_json())),
                           registry.get_module("part").vocabulary)
    assert again == spec


def test_schema_is_a_fresh_dict_each_time():
    first = spec_json_schema("mesh")
    first["properties"].clear()
    assert spec_json_schema("mesh")["properties"]


def test_unknown_mode_names_the_legal_ones():
    with pytest.raises(ValueError, match="legal modes: part, property, mesh, load"):
        spec_json_schema("contact")


# The schema and the reader must agree: what one accepts the other accepts.
_PART_CASES = [
    DESIGN_EXAMPLE,
    {**DESIGN_EXAMPLE, "expected": {}},
    {"summary": "s", "steps": [{"capability": "transform", "action": "scale",
                                "scope": {"by": "all"}, "values": {"factor": 2},
                                "text": ""}]},
    {"summary": "s", "steps": [{"capability": "edit", "action": "move_nodes",
                                "values": {"labels": [3], "to": [1, 2, 3]}, "text": "t"}]},
    {"summary": "s", "steps": [{"capability": "build", "action": "build",
                                "values": {"shape": "QUAD", "size": [60, 100],
                                           "divisions": [6, 10]}, "text": "t"}]},
    # not specs
    {"summary": "s", "steps": []},
    {"summary": "s", "steps": [{"capability": "transform", "action": "translate",
                                "values": {"vector": [1, 0, 0]}, "text": ""}]},
    {"summary": "s", "steps": [{"capability": "transform", "action": "translate",
                                "scope": {"by": "all"}, "values": {"vector": [1, 0]},
                                "text": ""}]},
    {"summary": "s", "steps": [{"capability": "edit", "action": "translate",
                                "scope": {"by": "all"}, "values": {"vector": [1, 0, 0]},
                                "text": ""}]},
    {"summary": "s", "steps": [{"capability": "build", "action": "build", "values": {},
                                "scope": {"by": "all"}, "text": ""}]},
    {"summary": "s", "steps": [{"capability": "audit", "action": "audit", "values": {},
                                "text": ""}], "expected": {"nodes": -1}},
    {"summary": "s", "steps": [{"capability": "audit", "action": "rm_rf", "values": {},
                                "text": ""}]},
]


@pytest.mark.parametrize("document", _PART_CASES)
def test_schema_and_reader_agree(document):
    schema_ok = Draft202012Validator(spec_json_schema("part")).is_valid(document)
    try:
        spec_from_json(document, registry.get_module("part").vocabulary)
        reader_ok = True
    except SpecRejected:
        reader_ok = False
    assert schema_ok == reader_ok
