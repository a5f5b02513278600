"""Shared schema fragments and the strict-mode variant."""

from __future__ import annotations

from jsonschema import Draft202012Validator

from sam_plugin.compilers import schema_common as sc


def _valid(schema: dict, value: object) -> bool:
    return Draft202012Validator(schema).is_valid(value)


def test_vec3_takes_exactly_three_numbers() -> None:
    schema = sc.vec3()
    assert _valid(schema, [0, 1.5, -2])
    assert not _valid(schema, [0, 1])
    assert not _valid(schema, [0, 1, 2, 3])
    assert not _valid(schema, [0, "1", 2])


def test_local_id_and_name_patterns() -> None:
    assert _valid(sc.local_id(), "n_1")
    assert not _valid(sc.local_id(), "1n")
    assert not _valid(sc.local_id(), "a" * 33)
    assert _valid(sc.name(), "Set-1.a")
    assert not _valid(sc.name(), "x'y")


def test_selector_variants_and_closed_objects() -> None:
    schema = sc.selector()
    assert _valid(schema, {"by": "all"})
    assert _valid(schema, {"by": "labels", "labels": [1, 2]})
    assert _valid(schema, {"by": "set", "name": "S"})
    assert _valid(schema, {"by": "shape", "shape": "TRI"})
    assert _valid(schema, {"by": "box", "min": [0, 0, 0], "max": [1, 1, 1]})
    assert not _valid(schema, {"by": "all", "labels": [1]})
    assert not _valid(schema, {"by": "labels", "labels": [0]})
    assert not _valid(schema, {"by": "labels", "labels": []})
    assert not _valid(schema, {"by": "shape", "shape": "HEX"})


def _walk(schema: object):
    if isinstance(schema, dict):
        yield schema
        for value in schema.values():
            yield from _walk(value)
    elif isinstance(schema, list):
        for value in schema:
            yield from _walk(value)


def test_strict_variant_requires_everything_and_keeps_only_strict_keywords() -> None:
    params = sc.parameters({"a": sc.integer(minimum=1), "b": sc.vec3(),
                            "sel": sc.selector()}, ["a"])
    strict = sc.strict_schema(params)
    allowed = {"type", "properties", "required", "additionalProperties", "items", "enum",
               "anyOf", "description", "$defs", "$ref"}
    for node in _walk(strict):
        if "properties" in node:
            assert node["required"] == list(node["properties"])
            assert node["additionalProperties"] is False
    for node in _walk(strict):
        keys = set(node) - {"properties"} if "properties" in node else set(node)
        if all(isinstance(v, dict) for v in node.values()) and "type" not in node \
                and "anyOf" not in node and "enum" not in node:
            continue  # a properties map
        assert keys <= allowed, keys - allowed
    assert strict["properties"]["a"]["type"] == "integer"
    assert strict["properties"]["b"]["type"] == ["array", "null"]
    assert strict["properties"]["sel"]["anyOf"][-1] == {"type": "null"}
    assert "const" not in str(strict)
    assert _valid(strict, {"a": 1, "b": None, "sel": None})
    assert not _valid(strict, {"a": 1})


def test_tool_definition_shapes() -> None:
    params = sc.parameters({"x": sc.boolean()})
    loose = sc.tool_definition("t", "does t", params)
    assert loose == {"type": "function",
                     "function": {"name": "t", "description": "does t", "parameters": params}}
    strict = sc.tool_definition("t", "does t", params, strict=True)
    assert strict["function"]["strict"] is True
    assert strict["function"]["parameters"]["properties"]["x"]["type"] == ["boolean", "null"]


def test_drop_nulls_is_recursive() -> None:
    assert sc.drop_nulls({"a": None, "b": [{"c": None, "d": 1}]}) == {"b": [{"d": 1}]}
