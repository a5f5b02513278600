"""A round's request shape per profile constraint, and its answer read from the content
(runtime/provider/constraint.py)."""

from __future__ import annotations

import json

import pytest

from sam_plugin.errors import StrictJSONError
from sam_plugin.runtime.config.settings import ProviderSettings
from sam_plugin.runtime.provider.client import ChatProvider
from sam_plugin.runtime.provider.constraint import content_arguments, round_shape, unconstrained

PARAMS = {"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
          "properties": {"quads": {"type": "integer", "minimum": 1, "description": "how many"}},
          "required": ["quads"], "additionalProperties": False}
TOOL = {"type": "function", "function": {"name": "build_part", "description": "Build.",
                                         "parameters": PARAMS}}
SMALL = {"type": "object", "properties": {"quads": {"type": "integer", "minimum": 1}},
         "required": ["quads"], "additionalProperties": False}


def test_llamacpp_wraps_the_call_in_a_response_format_and_sends_no_tools():
    shape = round_shape([TOOL], "wrapped", max_tokens=600)
    assert shape.tools is None and shape.reads_content and shape.tool == "build_part"
    schema = shape.options.response_format["json_schema"]["schema"]
    assert shape.options.response_format["type"] == "json_schema"
    assert schema == {"type": "object",
                      "properties": {"name": {"const": "build_part"}, "arguments": SMALL},
                      "required": ["name", "arguments"], "additionalProperties": False}
    assert shape.options.max_tokens == 600 and shape.options.tool_choice is None


def test_ollama_sends_no_tools_and_the_arguments_schema_as_format():
    shape = round_shape([TOOL], "format", max_tokens=600)
    assert shape.tools is None and shape.reads_content
    assert shape.options.response_format["json_schema"]["schema"] == SMALL


def test_vllm_and_openai_name_the_tool():
    shape = round_shape([TOOL], "named", max_tokens=600)
    assert shape.tools == [TOOL] and not shape.reads_content
    assert shape.options.tool_choice == {"type": "function", "function": {"name": "build_part"}}


def test_a_round_of_several_tools_or_no_constraint_is_as_before():
    two = [TOOL, {**TOOL, "function": {**TOOL["function"], "name": "audit_part"}}]
    for shape in (round_shape(two, "wrapped", max_tokens=9), round_shape([TOOL], "none",
                                                                          max_tokens=9)):
        assert not shape.constrained and shape.options.response_format is None
        assert shape.options.tool_choice is None and shape.options.max_tokens == 9
    back = unconstrained(round_shape([TOOL], "format", max_tokens=7), [TOOL])
    assert back.tools == [TOOL] and not back.constrained and back.options.max_tokens == 7


def test_the_request_body_carries_the_options():
    provider = ChatProvider(ProviderSettings(base_url="http://x/v1", model="m",
                                             profile="llamacpp"))
    shape = round_shape([TOOL], "wrapped", max_tokens=600)
    body = provider.build_request([{"role": "user", "content": "u"}], shape.tools,
                                  options=shape.options)
    assert body["response_format"] == shape.options.response_format
    assert body["max_tokens"] == 600 and "tool_choice" not in body and "tools" not in body
    named = round_shape([TOOL], "named", max_tokens=5)
    body = provider.build_request([], named.tools, options=named.options)
    assert body["tool_choice"] == {"type": "function", "function": {"name": "build_part"}}


@pytest.mark.parametrize("content", [
    '{"name": "build_part", "arguments": {"quads": 2}}',
    '```json\n{"name": "build_part", "arguments": {"quads": 2}}\n```',
    '  {"name":"build_part","arguments":{"quads":2}}\n',
])
def test_a_wrapped_call_is_read_from_the_content(content):
    shape = round_shape([TOOL], "wrapped", max_tokens=9)
    assert json.loads(content_arguments(content, shape)) == {"quads": 2}


@pytest.mark.parametrize("content", [
    "Sure! I will build it.", '{"name": "audit_part", "arguments": {}}',
    '{"arguments": {"quads": 2}}', '{"name": "build_part", "arguments": [1]}',
    '{"name": "build_part", "arguments": {}, "x": 1}', "", '{"name": "build_part"',
])
def test_anything_else_is_a_broken_constraint(content):
    assert content_arguments(content, round_shape([TOOL], "wrapped", max_tokens=9)) is None


def test_format_content_is_the_arguments_as_sent():
    shape = round_shape([TOOL], "format", max_tokens=9)
    assert content_arguments(' {"quads": 3} ', shape) == '{"quads": 3}'
    assert content_arguments("[1, 2]", shape) is None


def test_a_key_twice_is_the_models_mistake_not_a_broken_constraint():
    with pytest.raises(StrictJSONError, match="appears twice"):
        content_arguments('{"quads": 1, "quads": 2}', round_shape([TOOL], "format",
                                                                   max_tokens=9))


def test_the_spec_schema_goes_as_response_format_where_the_profile_takes_it():
    from sam_plugin.compilers import registry
    from sam_plugin.compilers.grammar_schema import SPEC_UNROLLED_ITEMS, outside_subset
    from sam_plugin.compilers.spec import spec_json_schema
    from sam_plugin.runtime.provider.constraint import spec_response_format

    for mode in registry.MODES:
        held = spec_response_format(spec_json_schema(mode), "json_schema")
        assert held is not None and held["type"] == "json_schema"
        assert outside_subset(held["json_schema"]["schema"],
                              max_unrolled=SPEC_UNROLLED_ITEMS) == []
    assert spec_response_format({}, "json_object") == {"type": "json_object"}
    assert spec_response_format({}, "none") is None
    caps = {p: ProviderSettings(profile=p).capabilities.spec_format
            for p in ("llamacpp", "vllm", "ollama", "deepseek", "openai", "generic")}
    assert caps == {"llamacpp": "json_schema", "vllm": "json_schema", "ollama": "json_schema",
                    "deepseek": "json_object", "openai": "none", "generic": "none"}
    assert ProviderSettings(profile="llamacpp",
                            constrained_calls=False).capabilities.spec_format == "none"
