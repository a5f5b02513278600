"""Tool calls written as text (issue 13): every form real local models write, found inside
prose, with CRLF, and after the stream split them across deltas."""

from __future__ import annotations

import json

import pytest

from sam_plugin.demo.streams import llamacpp_stream, ollama_stream
from sam_plugin.runtime.provider.types import ChatResponse
from sam_plugin.runtime.run.collection import CollectionViolation, round_calls
from sam_plugin.runtime.run.text_tool_calls import find_text_calls

ARGS = {"patches": [{"id": "p1", "shape": "QUAD", "divisions": [6, 10]}]}
ARGS_TEXT = json.dumps(ARGS)

FORMS = {
    "fenced json": f'```json\n{{"name": "build_part", "arguments": {ARGS_TEXT}}}\n```',
    "fenced without language": f'```\n{{"name": "build_part", "arguments": {ARGS_TEXT}}}\n```',
    "tool_call tags": f'<tool_call>\n{{"name": "build_part", "arguments": {ARGS_TEXT}}}\n'
    "</tool_call>",
    "xml function form": (
        "<tool_call>\n<function=build_part>\n<parameter=patches>\n"
        + json.dumps(ARGS["patches"])
        + "\n</parameter>\n</function>\n</tool_call>"
    ),
    "bare object": f'{{"name": "build_part", "arguments": {ARGS_TEXT}}}',
    "parameters for arguments": f'{{"name": "build_part", "parameters": {ARGS_TEXT}}}',
    "arguments as a JSON string": json.dumps({"name": "build_part", "arguments": ARGS_TEXT}),
    "openai wire shape": json.dumps(
        {"type": "function", "function": {"name": "build_part", "arguments": ARGS_TEXT}}
    ),
    "python tag": f'<|python_tag|>{{"name": "build_part", "parameters": {ARGS_TEXT}}}',
    "mistral array": f'[TOOL_CALLS] [{{"name": "build_part", "arguments": {ARGS_TEXT}}}]',
}
PROSE_BEFORE = "I'll build the plate now, as the spec says {with braces}.\n\n"
PROSE_AFTER = "\n\nThis creates 60 QUAD elements. Let me know if you need anything else!"


@pytest.mark.parametrize("form", sorted(FORMS))
@pytest.mark.parametrize("eol", ["\n", "\r\n"])
def test_each_form_is_found_inside_prose(form, eol):
    content = (PROSE_BEFORE + FORMS[form] + PROSE_AFTER).replace("\n", eol)
    [call] = find_text_calls(content)
    assert call.name == "build_part"
    assert json.loads(call.arguments) == ARGS


def test_several_calls_also_semicolon_separated_come_in_written_order():
    content = (
        '{"name": "transform_part", "parameters": {"operations": []}}; '
        '{"name": "repair_part", "parameters": {"delete_free_nodes": true}};'
        '{"name": "audit_part", "parameters": {"checks": ["counts"]}}'
    )
    calls = find_text_calls(content)
    assert [c.name for c in calls] == ["transform_part", "repair_part", "audit_part"]
    assert json.loads(calls[1].arguments) == {"delete_free_nodes": True}


def test_several_tool_call_blocks_and_mixed_forms_keep_their_order():
    content = (
        "First:\n<tool_call>\n<function=define_property>\n<parameter=materials>\n"
        '[{"name": "Steel", "youngs_modulus": 210000, "poisson_ratio": 0.3}]\n</parameter>\n'
        "</function>\n</tool_call>\nThen:\n"
        '<tool_call>{"name": "assign_property", "arguments": {"assignments": []}}</tool_call>'
    )
    calls = find_text_calls(content)
    assert [c.name for c in calls] == ["define_property", "assign_property"]
    assert json.loads(calls[0].arguments)["materials"][0]["name"] == "Steel"


def test_xml_parameter_values_that_are_not_json_stay_text():
    content = "<function=audit_part><parameter=label>\nplate one\n</parameter></function>"
    [call] = find_text_calls(content)
    assert json.loads(call.arguments) == {"label": "plate one"}


def test_thinking_and_objects_that_are_not_calls_are_ignored():
    content = (
        '<think>maybe {"name": "audit_part", "arguments": {}} first?</think>'
        'A material looks like {"name": "Steel", "youngs_modulus": 210000}.\n'
        '{"name": "build_part", "arguments": {}}'
    )
    assert [c.name for c in find_text_calls(content)] == ["build_part"]


def test_a_call_without_arguments_is_an_empty_object():
    [call] = find_text_calls('```json\n{"name": "audit_mesh"}\n```')
    assert (call.name, call.arguments) == ("audit_mesh", "{}")


def test_broken_json_finds_nothing_and_does_not_raise():
    assert find_text_calls('```json\n{"name": "build_part", "arguments": {"patches": [\n```') == []
    assert find_text_calls("{" * 5000) == []


def _response(content: str, tool_calls=()) -> ChatResponse:
    return ChatResponse(content=content, reasoning="", tool_calls=list(tool_calls),
                        finish_reason="stop", usage=None, raw_sse=b"")


KNOWN = {"build_part", "edit_part", "audit_part"}


def test_round_calls_takes_text_calls_of_the_module_and_marks_them():
    calls = round_calls(_response(FORMS["fenced json"]), ["build_part"], KNOWN, text_calls=True)
    assert [(c.name, c.source) for c in calls] == [("build_part", "text")]


def test_round_calls_with_the_option_off_names_the_setting():
    with pytest.raises(CollectionViolation, match="text_tool_calls") as refused:
        round_calls(_response(FORMS["bare object"]), ["build_part"], KNOWN, text_calls=False)
    assert "wrote its call (build_part) as text" in str(refused.value)


def test_round_calls_refuses_text_that_names_only_unknown_tools():
    with pytest.raises(CollectionViolation, match="delete_model") as refused:
        round_calls(
            _response('{"name": "delete_model", "arguments": {}}'),
            ["build_part"], KNOWN, text_calls=True,
        )
    assert "offered: build_part" in str(refused.value)


def test_plain_prose_is_no_call():
    assert round_calls(_response("I cannot do that."), ["build_part"], KNOWN, text_calls=True) == []


# -- through the real provider: the content arrives split across deltas -------------------


@pytest.mark.parametrize("size", [1, 3, 17])
@pytest.mark.parametrize("eol", ["\n", "\r\n"])
def test_text_calls_split_across_deltas_are_recovered_from_a_llamacpp_stream(
    chat, fake_provider, size, eol
):
    content = (PROSE_BEFORE + FORMS["tool_call tags"] + PROSE_AFTER).replace("\n", eol)
    fake_provider.enqueue_stream(llamacpp_stream(content=content, fragment_size=size, eol=eol))
    response = chat(tools=[{"type": "function", "function": {"name": "build_part"}}])
    assert response.tool_calls == []
    [call] = round_calls(response, ["build_part"], KNOWN, text_calls=True)
    assert json.loads(call.arguments) == ARGS


def test_xml_calls_split_across_ollama_deltas_are_recovered(chat, fake_provider):
    fake_provider.enqueue_stream(ollama_stream(content=FORMS["xml function form"], fragment_size=2))
    response = chat(tools=[{"type": "function", "function": {"name": "build_part"}}])
    [call] = round_calls(response, ["build_part"], KNOWN, text_calls=True)
    assert json.loads(call.arguments) == ARGS
