"""Strict schemas (issue 13): the strict variant of EVERY tool of every module is what
OpenAI's strict function calling accepts, the profile option decides whether it is sent,
and what strict decoding cannot express is still checked by the compilers."""

from __future__ import annotations

import json
from typing import Any

import pytest

from sam_plugin.compilers.protocol import CompileContext, Target
from sam_plugin.compilers.registry import MODES, get_module
from sam_plugin.errors import CompileError
from sam_plugin.runtime.config.settings import ProviderSettings
from sam_plugin.runtime.provider.client import ChatProvider

STRICT_KEYWORDS = {"type", "properties", "required", "additionalProperties", "items", "enum",
                   "anyOf", "description", "$defs", "$ref"}
ALL_TOOLS = [(mode, tool) for mode in MODES for tool in get_module(mode).tool_names.values()]


def _walk(schema: Any, depth: int = 0):
    if isinstance(schema, dict):
        yield schema, depth
        for key in ("properties", "$defs"):
            for sub in schema.get(key, {}).values():
                yield from _walk(sub, depth + 1)
        if "items" in schema:
            yield from _walk(schema["items"], depth + 1)
        for sub in schema.get("anyOf", []):
            yield from _walk(sub, depth)


@pytest.mark.parametrize(("mode", "tool"), ALL_TOOLS)
def test_the_strict_variant_of_every_tool_is_strict_mode_compatible(mode, tool):
    [definition] = get_module(mode).tool_definitions([tool], strict=True)
    function = definition["function"]
    assert function["strict"] is True
    params = function["parameters"]
    assert params["type"] == "object" and "anyOf" not in params  # root: a plain object
    properties = 0
    for node, depth in _walk(params):
        assert set(node) <= STRICT_KEYWORDS, (tool, set(node) - STRICT_KEYWORDS)
        kinds = node.get("type")
        if kinds == "object" or (isinstance(kinds, list) and "object" in kinds):
            assert node["additionalProperties"] is False, tool
            assert sorted(node["required"]) == sorted(node["properties"]), tool
            properties += len(node["properties"])
        assert depth <= 10, tool  # OpenAI: at most 10 levels of nesting
    assert properties <= 5000


@pytest.mark.parametrize(("profile", "sent"), [
    ("openai", True), ("deepseek", False), ("ollama", False), ("vllm", False),
    ("llamacpp", False), ("generic", False),
])
def test_strict_is_sent_where_the_profile_honours_it(profile, sent):
    settings = ProviderSettings(base_url="http://127.0.0.1:9/v1", model="m", profile=profile)
    assert settings.capabilities.strict_tools is sent
    tools = get_module("part").tool_definitions(["build_part"], strict=True)
    body = ChatProvider(settings).build_request([], tools)
    assert ("strict" in body["tools"][0]["function"]) is sent


def test_the_strict_option_is_a_setting_that_overrides_the_profile():
    on = ProviderSettings(base_url="http://x/v1", model="m", profile="vllm", strict_tools=True)
    off = ProviderSettings(base_url="http://x/v1", model="m", profile="openai", strict_tools=False)
    assert on.capabilities.strict_tools and not off.capabilities.strict_tools


def test_what_strict_decoding_cannot_express_is_still_a_compile_diagnostic():
    """Strict mode drops minItems/maxItems and patterns; the compilers still check them, and
    the nulls a strict answer sends for absent fields are dropped first."""
    from sam_plugin.compilers.evidence import Prediction, Readback

    module = get_module("part")
    ctx = CompileContext(
        request_text="a plate", target=Target(model_name="Model-1", part_name="P"),
        state=Prediction.from_readback(Readback(part_exists=False)), model=object(), part=None,
    )
    arguments = {
        "nodes": None, "elements": None, "lines": None, "element_sets": None,
        "patches": [{"id": "1bad", "shape": "QUAD", "corners": [[0, 0, 0]],
                     "divisions": [2, 2]}],
    }
    with pytest.raises(CompileError) as error:
        module.compile("build_part", json.dumps(arguments), ctx)
    text = str(error.value)
    assert "patches[0]" in text
