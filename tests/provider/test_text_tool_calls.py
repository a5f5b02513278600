"""Tool calls written as text (docs/architecture.md §4 "Text-recovered calls"): every form real
local models write, taken only when it is the whole answer; with CRLF, and after the stream
split it across deltas. Call-shaped text inside prose, quotes, ``<think>`` or a nested object
is never a call: each of the four answers below once ran delete-all."""

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
WHOLE_ANSWER = ("a call written as text is taken only when it is the whole answer: one fenced "
                "block, one <tool_call> block or one bare JSON object, holding one call")
DELETE_ALL = '{"name": "edit_part", "arguments": {"delete_elements": {"by": "all"}}}'
# the four answers of the issue that each ran delete-all
STRAYS = {
    "a negated example": (
        f"I must NOT send {DELETE_ALL}, because the spec deletes element 2 only. I will "
        "send the right call in the next answer."),
    "a nested example": json.dumps({"note": "the wrong call would be", "example": json.loads(
        DELETE_ALL)}),
    "an echoed set name": (
        "The part has the sets S1 and "
        f"'<tool_call>{DELETE_ALL}</tool_call>'; neither is touched by this spec."),
    "an xml template reminder": (
        "Template reminder: <tool_call>\n<function=edit_part>\n<parameter=delete_elements>\n"
        '{"by": "all"}\n</parameter>\n</function>\n</tool_call> is the format; I still need '
        "the element label."),
}


@pytest.mark.parametrize("form", sorted(FORMS))
@pytest.mark.parametrize("eol", ["\n", "\r\n"])
def test_each_form_is_taken_as_the_whole_answer(form, eol):
    content = (" \n" + FORMS[form] + "\n\n").replace("\n", eol)
    [call] = find_text_calls(content)
    assert call.name == "build_part"
    assert json.loads(call.arguments) == ARGS


@pytest.mark.parametrize("form", sorted(FORMS))
def test_no_form_is_taken_inside_prose(form):
    assert find_text_calls(PROSE_BEFORE + FORMS[form]) == []
    assert find_text_calls(FORMS[form] + PROSE_AFTER) == []
    assert find_text_calls(f'"{FORMS[form]}"') == []  # quoted


@pytest.mark.parametrize("case", sorted(STRAYS))
def test_the_four_delete_all_answers_are_no_call_and_are_refused_in_words(case):
    assert find_text_calls(STRAYS[case]) == []
    with pytest.raises(CollectionViolation) as refused:
        round_calls(_response(STRAYS[case]), ["edit_part"], KNOWN, text_calls=True)
    assert WHOLE_ANSWER in str(refused.value)


def test_several_calls_are_not_one_whole_answer():
    for content in (
        '{"name": "transform_part", "parameters": {"operations": []}}; '
        '{"name": "audit_part", "parameters": {"checks": ["counts"]}}',
        '<tool_call>{"name": "build_part", "arguments": {}}</tool_call>\n'
        '<tool_call>{"name": "audit_part", "arguments": {}}</tool_call>',
        '[TOOL_CALLS] [{"name": "build_part", "arguments": {}}, '
        '{"name": "audit_part", "arguments": {}}]',
    ):
        assert find_text_calls(content) == []


def test_xml_parameter_values_that_are_not_json_stay_text():
    content = "<tool_call><function=audit_part><parameter=label>\nplate one\n</parameter>" \
        "</function></tool_call>"
    [call] = find_text_calls(content)
    assert json.loads(call.arguments) == {"label": "plate one"}


def test_thinking_is_set_aside_and_a_call_inside_it_is_none():
    thought = f'<think>maybe {DELETE_ALL} first?</think>\n'
    [call] = find_text_calls(thought + '{"name": "build_part", "arguments": {}}')
    assert call.name == "build_part"
    assert find_text_calls(thought) == []
    assert find_text_calls(f"<think>{DELETE_ALL}") == []  # unclosed: all of it is thinking


def test_objects_that_are_not_calls_are_none():
    assert find_text_calls('{"name": "Steel", "youngs_modulus": 210000}') == []
    assert find_text_calls('{"calls": [' + DELETE_ALL + "]}") == []


def test_a_call_without_arguments_is_an_empty_object():
    [call] = find_text_calls('```json\n{"name": "audit_mesh"}\n```')
    assert (call.name, call.arguments) == ("audit_mesh", "{}")


def test_broken_json_finds_nothing_and_does_not_raise():
    assert find_text_calls('```json\n{"name": "build_part", "arguments": {"patches": [\n```') == []
    assert find_text_calls("{" * 5000) == []


def test_a_call_may_carry_call_shaped_text_in_its_own_values():
    content = json.dumps({"name": "edit_part", "arguments": {"element_sets": [
        {"name": "<tool_call>", "selection": {"by": "all"}}]}})
    [call] = find_text_calls(content)
    assert json.loads(call.arguments)["element_sets"][0]["name"] == "<tool_call>"


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
    content = FORMS["tool_call tags"].replace("\n", eol)
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
