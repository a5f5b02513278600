"""Every tool schema goes to the servers in the subset their grammar builders accept
(compilers/grammar_schema.py), and keeps the structure the grammar must hold."""

from __future__ import annotations

import pytest

from sam_plugin.compilers.grammar_schema import (
    MAX_UNROLLED_ITEMS,
    grammar_schema,
    outside_subset,
)
from sam_plugin.compilers.registry import MODES, get_module


def _every_tool():
    for mode in MODES:
        module = get_module(mode)
        for tool in module.tool_names.values():
            for strict in (False, True):
                yield mode, tool, module.tool_definitions([tool], strict=strict)[0]


@pytest.mark.parametrize(("mode", "tool", "definition"), list(_every_tool()),
                         ids=lambda v: v if isinstance(v, str) else "")
def test_every_tool_schema_converts_to_the_grammar_subset(mode, tool, definition):
    params = definition["function"]["parameters"]
    converted = grammar_schema(params)
    assert outside_subset(converted) == []
    assert converted["type"] == "object" and converted["additionalProperties"] is False
    assert set(converted["properties"]) == set(params["properties"])
    assert converted.get("required", []) == params.get("required", [])


def test_what_leaves_and_what_stays():
    schema = {"$schema": "x", "type": "object", "description": "d", "properties": {
        "n": {"type": "number", "minimum": 0, "maximum": 5},
        "k": {"type": "integer", "minimum": 1, "maximum": 3},
        "name": {"type": "string", "pattern": "^[A-Za-z][A-Za-z0-9_.-]{0,63}$"},
        "odd": {"type": "string", "pattern": "(a|b)+"},
        "v": {"type": "array", "items": {"type": "number"}, "minItems": 3, "maxItems": 3},
        "many": {"type": "array", "items": {"type": "integer"},
                 "maxItems": MAX_UNROLLED_ITEMS + 1},
        "sel": {"anyOf": [{"type": "object", "properties": {"by": {"const": "all"}},
                           "format": "x"}]},
    }, "required": ["n"], "additionalProperties": False}
    assert sorted(outside_subset(schema)) == sorted([
        "#/$schema", "#/description", "#/properties/n/minimum", "#/properties/n/maximum",
        "#/properties/odd/pattern", "#/properties/many/maxItems",
        "#/properties/sel/anyOf/0/format"])
    out = grammar_schema(schema)
    assert outside_subset(out) == []
    assert out["properties"]["n"] == {"type": "number"}
    assert out["properties"]["k"] == {"type": "integer", "minimum": 1, "maximum": 3}
    assert out["properties"]["name"]["pattern"] == "^[A-Za-z][A-Za-z0-9_.-]{0,63}$"
    assert "pattern" not in out["properties"]["odd"]
    assert out["properties"]["v"]["maxItems"] == 3
    assert "maxItems" not in out["properties"]["many"]
    assert schema["properties"]["n"]["minimum"] == 0  # the input is untouched
