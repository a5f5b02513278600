"""ToolCallAssembler on its own: quirks, errors, and random interleavings."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sam_plugin.errors import ProviderError
from sam_plugin.runtime.provider.assembly import ToolCallAssembler


def assemble(*batches: list) -> list[tuple[int, str, str, str]]:
    assembler = ToolCallAssembler()
    for batch in batches:
        assembler.add(batch)
    return [(c.index, c.id, c.name, c.arguments) for c in assembler.finish()]


def test_name_sent_in_fragments_is_joined_and_snapshots_replace():
    fragments = [
        {"index": 0, "function": {"name": "build_"}},
        {"index": 0, "function": {"name": "part"}},
    ]  # noqa: E501
    assert assemble(fragments) == [(0, "call_0", "build_part", "{}")]
    snapshots = [
        {"index": 0, "function": {"name": "build_"}},
        {"index": 0, "function": {"name": "build_part"}},
    ]  # noqa: E501
    assert assemble(snapshots) == [(0, "call_0", "build_part", "{}")]


def test_missing_id_is_synthesised_and_empty_arguments_become_an_empty_object():
    assert assemble([{"index": 3, "function": {"name": "audit_mesh", "arguments": ""}}]) == [
        (0, "call_0", "audit_mesh", "{}")
    ]


def test_indices_are_renumbered_in_wire_order():
    calls = assemble(
        [{"index": 2, "id": "b", "function": {"name": "audit_part", "arguments": "{}"}}],
        [{"index": 1, "id": "a", "function": {"name": "build_part", "arguments": "{}"}}],
    )
    assert [(i, call_id) for i, call_id, _, _ in calls] == [(0, "a"), (1, "b")]


def test_missing_index_with_a_new_id_starts_the_next_call():
    calls = assemble(
        [{"id": "a", "function": {"name": "build_part", "arguments": "{}"}}],
        [{"id": "b", "function": {"name": "audit_part", "arguments": '{"checks": []}'}}],
    )
    assert [(c[1], c[2], c[3]) for c in calls] == [
        ("a", "build_part", "{}"),
        ("b", "audit_part", '{"checks": []}'),
    ]


@pytest.mark.parametrize(
    ("batch", "message"),
    [
        ({"index": 0}, "protocol: delta.tool_calls must be a list, got dict"),
        (["x"], "protocol: a tool_calls entry must be an object, got str"),
        ([{"index": "first"}], "protocol: tool_calls[].index must be an integer, got 'first'"),
        (
            [{"index": 0, "function": {"name": "a", "arguments": 5}}],
            "protocol: tool_calls[].function.arguments must be a string or an object, got int",
        ),
        ([{"index": 0, "function": {"arguments": "{}"}}], None),
    ],
)
def test_malformed_deltas_are_protocol_errors(batch, message):
    assembler = ToolCallAssembler()
    with pytest.raises(ProviderError) as info:
        assembler.add(batch)
        assembler.finish()
    assert str(info.value) == (message or "protocol: tool call at index 0 has no function name")


_args = st.dictionaries(
    st.text(alphabet="abcxyz_", min_size=1, max_size=5),
    st.one_of(st.integers(), st.text(alphabet='ab"\\{}[]:,é中 ', max_size=8), st.booleans()),
    max_size=4,
)


@settings(max_examples=50, deadline=None)
@given(
    calls=st.lists(
        st.tuples(st.sampled_from(["build_part", "audit_part", "edit_part"]), _args),
        min_size=1,
        max_size=3,
    ),  # noqa: E501
    size=st.integers(min_value=1, max_value=9),
    repeat_name=st.booleans(),
    seed=st.randoms(use_true_random=False),
)
def test_random_interleaving_and_fragmentation_reassembles(calls, size, repeat_name, seed):
    texts = [json.dumps(args, ensure_ascii=False) for _, args in calls]
    queues = []
    for index, ((name, _), text) in enumerate(zip(calls, texts, strict=True)):
        head = {
            "index": index,
            "id": f"id{index}",
            "type": "function",
            "function": {"name": name, "arguments": ""},
        }  # noqa: E501
        parts = [text[i : i + size] for i in range(0, len(text), size)]
        tail = [
            {
                "index": index,
                **({"id": f"id{index}"} if repeat_name else {}),
                "function": {**({"name": name} if repeat_name else {}), "arguments": part},
            }
            for part in parts
        ]
        queues.append([head, *tail])
    assembler = ToolCallAssembler()
    while any(queues):
        queue = seed.choice([q for q in queues if q])
        assembler.add([queue.pop(0)])
        if seed.random() < 0.2:
            assembler.add([])
    result = assembler.finish()
    assert [(c.index, c.id, c.name, c.arguments) for c in result] == [
        (i, f"id{i}", name, text)
        for i, ((name, _), text) in enumerate(zip(calls, texts, strict=True))  # noqa: E501
    ]


def test_whole_calls_without_index_or_id_stay_separate():
    calls = assemble(
        [{"function": {"name": "build_part", "arguments": '{"a":1}'}}],
        [{"function": {"name": "audit_part", "arguments": "{}"}}],
    )
    assert calls == [(0, "call_0", "build_part", '{"a":1}'), (1, "call_1", "audit_part", "{}")]


def test_whole_calls_to_one_tool_without_index_or_id_stay_separate():
    calls = assemble(
        [{"function": {"name": "edit_part", "arguments": '{"a":1}'}}],
        [{"function": {"name": "edit_part", "arguments": '{"b":2}'}}],
    )
    assert calls == [(0, "call_0", "edit_part", '{"a":1}'), (1, "call_1", "edit_part", '{"b":2}')]


def test_whole_calls_with_object_arguments_without_index_or_id_stay_separate():
    calls = assemble(
        [{"function": {"name": "build_part", "arguments": {"a": 1}}}],
        [{"function": {"name": "audit_part", "arguments": {}}}],
    )
    assert calls == [(0, "call_0", "build_part", '{"a": 1}'), (1, "call_1", "audit_part", "{}")]


def test_name_repeated_on_every_delta_without_index_continues_the_call():
    parts = ['{"s":"}', '{x", "n":', "{", '"k":1}', "}"]
    calls = assemble(*[[{"function": {"name": "edit_part", "arguments": p}}] for p in parts])
    assert calls == [(0, "call_0", "edit_part", '{"s":"}{x", "n":{"k":1}}')]
