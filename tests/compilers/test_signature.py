"""A tool's arguments as a compact signature (compilers/signature.py): what a constrained
round shows the model instead of the JSON Schema."""

from __future__ import annotations

import json

from sam_plugin.compilers.registry import MODES, get_module
from sam_plugin.compilers.signature import signature


def test_every_tool_has_a_signature_far_smaller_than_its_schema():
    for mode in MODES:
        module = get_module(mode)
        for tool in module.tool_names.values():
            params = module.tool_definitions([tool])[0]["function"]["parameters"]
            text = signature(params)
            for key in params["properties"]:
                assert json.dumps(key) in text, (tool, key)
            assert len(text) <= max(200, len(json.dumps(params)) // 4), tool
            assert text.count("Selector:") <= 1


def test_optional_fields_unions_vectors_and_the_selector():
    text = signature(get_module("part").tool_definitions(["transform_part"])[0]["function"]
                     ["parameters"])
    first, selector = text.splitlines()
    assert first.startswith('{"operations": [{"op": "translate", "vector": [x, y, z], '
                            '"selection"?: Selector} | {"op": "rotate"')
    assert selector.startswith('Selector: {"by": "all"} | {"by": "labels", "labels": '
                               "[integer, ...]}")
    assert signature({"type": "object", "properties": {
        "d": {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 2},
        "k": {"enum": ["a", "b"]}}, "required": ["d"]}) == (
        '{"d": [integer, integer], "k"?: "a" | "b"}')
