"""Every provider stream shape and quirk, through the real HTTP path against the fake server."""

from __future__ import annotations

import json

import pytest

from sam_plugin.demo import streams
from sam_plugin.demo.streams import _Chunker, sse_comment, sse_data, sse_done
from sam_plugin.runtime.provider.client import ChatResponse, ToolCall
from tests.support.fixtures import TEST_MODEL, RecordingListener, settings_for

BUILD_ARGS = json.dumps(
    {
        "nodes": [{"id": "n1", "coordinates": [0, 0, 0]}, {"id": "n2", "coordinates": [60, 0, 0]}],
        "elements": [],
        "patches": [
            {
                "id": "p1",
                "shape": "QUAD",
                "corners": [[0, 0, 0], [60, 0, 0], [60, 100, 0], [0, 100, 0]],
                "divisions": [6, 10],
            }
        ],
        "note": '平板 \u00e9\\"quoted\\"',
    },
    ensure_ascii=False,
)
AUDIT_ARGS = '{"checks": ["counts", "free_nodes"]}'
CALLS = [("build_part", BUILD_ARGS), ("audit_part", AUDIT_ARGS)]
TOOLS = [
    {"type": "function", "function": {"name": "build_part", "parameters": {}, "strict": True}},
    {"type": "function", "function": {"name": "audit_part", "parameters": {}}},
]


def expected_calls(response: ChatResponse) -> list[tuple[int, str, str]]:
    return [(c.index, c.name, c.arguments) for c in response.tool_calls]


def custom(deltas: list[dict], finish: str = "tool_calls") -> list[str]:
    """A stream of hand-written deltas (for quirks no builder produces by default)."""
    chunker = _Chunker("chatcmpl-quirk", "m", "\n")
    return [chunker.event(d) for d in deltas] + [chunker.event({}, finish), sse_done()]


@pytest.mark.parametrize(
    "builder",
    [
        streams.openai_stream,
        streams.deepseek_stream,
        streams.ollama_stream,
        streams.llamacpp_stream,
    ],
)
def test_every_provider_shape_reassembles_exactly(fake_provider, chat, builder):
    fake_provider.enqueue_stream(builder(content="Spec: plate 60×100.", tool_calls=CALLS))
    listener = RecordingListener()

    response = chat(TOOLS, listener=listener)

    assert response.content == "Spec: plate 60×100."
    assert expected_calls(response) == [
        (0, "build_part", BUILD_ARGS),
        (1, "audit_part", AUDIT_ARGS),
    ]
    assert json.loads(response.tool_calls[0].arguments)["note"] == '平板 é\\"quoted\\"'
    assert listener.calls == response.tool_calls  # one event per reconstructed call
    assert "".join(listener.content) == response.content
    assert response.raw_sse == b"".join(listener.raw)
    assert response.raw_sse.rstrip().endswith(b"data: [DONE]")


def test_openai_stream_usage_on_final_chunk_with_empty_choices(fake_provider, chat):
    fake_provider.enqueue_stream(streams.openai_stream(tool_calls=CALLS[:1]))
    listener = RecordingListener()

    response = chat(TOOLS, listener=listener)

    assert response.finish_reason == "tool_calls"
    assert response.usage == {"prompt_tokens": 120, "completion_tokens": 48, "total_tokens": 168}
    assert listener.usage == [response.usage]
    assert response.tool_calls[0].id == "call_00DdmZFplOQzDtYv8FT2W9Qk"


def test_deepseek_reasoning_kept_apart_keepalives_ignored_usage_on_finish(fake_provider, chat):
    pieces = streams.deepseek_stream(
        content="The plate is 60 by 100.", reasoning="User wants a plate; mesh 6x10.", keepalives=3
    )
    assert pieces[0] == ": keep-alive\n\n"
    fake_provider.enqueue_stream(pieces)
    listener = RecordingListener()

    response = chat(listener=listener)

    assert response.content == "The plate is 60 by 100."
    assert response.reasoning == "User wants a plate; mesh 6x10."
    assert "".join(listener.reasoning) == response.reasoning
    assert response.usage is not None and response.usage["prompt_cache_hit_tokens"] == 64
    assert response.finish_reason == "stop"


def test_deepseek_tool_call_ids_are_uuids(fake_provider, chat):
    fake_provider.enqueue_stream(streams.deepseek_stream(tool_calls=CALLS))
    response = chat(TOOLS)
    assert expected_calls(response) == [
        (0, "build_part", BUILD_ARGS),
        (1, "audit_part", AUDIT_ARGS),
    ]
    assert (
        response.tool_calls[0].id.startswith("call_0_")
        and response.tool_calls[0].id.count("-") == 4
    )


def test_llamacpp_name_and_id_repeated_on_every_delta_are_not_concatenated(fake_provider, chat):
    pieces = streams.llamacpp_stream(tool_calls=CALLS, fragment_size=3)
    assert sum('"name":"build_part"' in p for p in pieces) > 10  # the quirk is really there
    fake_provider.enqueue_stream(pieces)

    response = chat(TOOLS)

    assert [c.name for c in response.tool_calls] == ["build_part", "audit_part"]
    assert response.tool_calls[0].id == "Ab3xK9mPq2ZtW7rYcD5vL8nH1sFgJ0"
    assert response.tool_calls[0].arguments == BUILD_ARGS


def test_ollama_whole_call_in_one_delta_with_finish_reason_stop(fake_provider, chat):
    fake_provider.enqueue_stream(streams.ollama_stream(tool_calls=CALLS))
    response = chat(TOOLS)
    assert response.finish_reason == "stop"  # the quirk: calls were sent anyway
    assert expected_calls(response) == [
        (0, "build_part", BUILD_ARGS),
        (1, "audit_part", AUDIT_ARGS),
    ]


def test_arguments_delivered_as_json_object_become_json_text(fake_provider, chat):
    fake_provider.enqueue_stream(streams.ollama_stream(tool_calls=CALLS, arguments_as_object=True))
    response = chat(TOOLS)
    assert isinstance(response.tool_calls[0].arguments, str)
    assert json.loads(response.tool_calls[0].arguments) == json.loads(BUILD_ARGS)
    assert json.loads(response.tool_calls[1].arguments) == {"checks": ["counts", "free_nodes"]}


def test_index_missing_on_a_single_call_stream(fake_provider, chat):
    fake_provider.enqueue_stream(
        custom(
            [
                {
                    "tool_calls": [
                        {
                            "id": "call_x",
                            "type": "function",
                            "function": {"name": "audit_part", "arguments": ""},
                        }
                    ]
                },  # noqa: E501
                {"tool_calls": [{"function": {"arguments": '{"checks": '}}]},
                {"tool_calls": []},
                {"tool_calls": [{"function": {"arguments": '["counts"]}'}}]},
            ]
        )
    )
    response = chat(TOOLS)
    assert expected_calls(response) == [(0, "audit_part", '{"checks": ["counts"]}')]
    assert response.tool_calls[0].id == "call_x"


def test_empty_tool_calls_deltas_and_null_content_are_harmless(fake_provider, chat):
    fake_provider.enqueue_stream(
        custom(
            [
                {"role": "assistant", "content": None, "tool_calls": []},
                {"content": None, "tool_calls": None},
                {
                    "tool_calls": [
                        {
                            "index": 0,
                            "id": "c0",
                            "function": {"name": "audit_part", "arguments": "{}"},
                        }
                    ]
                },  # noqa: E501
                {"tool_calls": []},
            ]
        )
    )
    response = chat(TOOLS)
    assert response.content == ""
    assert expected_calls(response) == [(0, "audit_part", "{}")]


def test_parallel_calls_with_interleaved_deltas(fake_provider, chat):
    def head(i: int, name: str) -> dict:
        return {
            "index": i,
            "id": f"c{i}",
            "type": "function",
            "function": {"name": name, "arguments": ""},
        }  # noqa: E501

    def arg(i: int, text: str) -> dict:
        return {"index": i, "function": {"arguments": text}}

    fake_provider.enqueue_stream(
        custom(
            [
                {"tool_calls": [head(0, "build_part")]},
                {"tool_calls": [head(1, "audit_part")]},
                {"tool_calls": [arg(1, '{"checks"')]},
                {"tool_calls": [arg(0, '{"nodes"')]},
                {"tool_calls": [arg(0, ": []}"), arg(1, ': ["counts"]}')]},
            ]
        )
    )
    response = chat(TOOLS)
    assert expected_calls(response) == [
        (0, "build_part", '{"nodes": []}'),
        (1, "audit_part", '{"checks": ["counts"]}'),
    ]


def test_same_index_reused_with_a_new_id_starts_a_new_call(fake_provider, chat):
    def whole(call_id: str, name: str, args: str) -> dict:
        return {
            "index": 0,
            "id": call_id,
            "type": "function",
            "function": {"name": name, "arguments": args},
        }  # noqa: E501

    fake_provider.enqueue_stream(
        custom(
            [
                {"tool_calls": [whole("a", "build_part", "{}")]},
                {"tool_calls": [whole("b", "audit_part", '{"checks": []}')]},
            ]
        )
    )
    response = chat(TOOLS)
    assert [(c.id, c.name, c.arguments) for c in response.tool_calls] == [
        ("a", "build_part", "{}"),
        ("b", "audit_part", '{"checks": []}'),
    ]


@pytest.mark.parametrize("eol", ["\n", "\r\n", "\r"])
@pytest.mark.parametrize("size", [2, 5, 64])
def test_any_line_ending_and_any_chunking_over_http(fake_provider, chat, eol, size):
    pieces = streams.openai_stream(content="π ≈ 3.14159", tool_calls=CALLS, eol=eol)
    fake_provider.enqueue_stream(streams.rechunk(pieces, size))
    response = chat(TOOLS)
    assert response.content == "π ≈ 3.14159"
    assert expected_calls(response) == [
        (0, "build_part", BUILD_ARGS),
        (1, "audit_part", AUDIT_ARGS),
    ]


def test_data_without_space_multiline_data_and_comments(fake_provider, chat):
    first = json.dumps({"choices": [{"index": 0, "delta": {"content": "a"}}]})
    second = '{"choices": [{"index": 0,\ndata: "delta": {"content": "b"}}]}'
    fake_provider.enqueue_stream(
        [f"data:{first}\n\n", sse_comment("ping"), f"data: {second}\n\n", "data:[DONE]\n\n"]
    )
    assert chat().content == "ab"


def test_unknown_event_types_are_skipped(fake_provider, chat):
    fake_provider.enqueue_stream(
        [
            "event: ping\ndata: {}\n\n",
            sse_data({"choices": [{"index": 0, "delta": {"content": "x"}}]}),
            sse_done(),
        ]  # noqa: E501
    )
    assert chat().content == "x"


def test_done_without_final_blank_line_is_still_complete(fake_provider, chat):
    pieces = streams.openai_stream(content="ok")
    pieces[-1] = "data: [DONE]"
    fake_provider.enqueue_stream(pieces)
    assert chat().content == "ok"


def test_vllm_reasoning_field_name(fake_provider, chat):
    fake_provider.enqueue_stream(
        custom([{"reasoning": "think "}, {"reasoning": "more"}, {"content": "done"}], finish="stop")
    )
    response = chat()
    assert (response.reasoning, response.content) == ("think more", "done")


def test_server_ignoring_stream_true_returns_one_json_completion(fake_provider, chat):
    body = {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "choices": [
            {
                "index": 0,
                "message": {
                    "role": "assistant",
                    "content": "",
                    "tool_calls": [
                        {
                            "id": "c",
                            "type": "function",
                            "function": {"name": "audit_part", "arguments": "{}"},
                        }
                    ],  # noqa: E501
                },
                "finish_reason": "tool_calls",
            }
        ],
        "usage": {"total_tokens": 9},
    }
    fake_provider.enqueue_stream([json.dumps(body)], content_type="application/json")
    response = chat(TOOLS)
    assert [(c.index, c.id, c.name, c.arguments) for c in response.tool_calls] == [
        (0, "c", "audit_part", "{}")
    ]
    assert response.usage == {"total_tokens": 9}


def test_tool_call_event_fires_once_per_call_only_at_the_end(fake_provider, chat):
    seen_before_done: list[int] = []

    class Listener(RecordingListener):
        def on_tool_call(self, call: ToolCall) -> None:
            seen_before_done.append(len(self.raw))
            super().on_tool_call(call)

    listener = Listener()
    fake_provider.enqueue_stream(streams.openai_stream(tool_calls=CALLS, fragment_size=50))
    chat(TOOLS, listener=listener)
    assert [c.name for c in listener.calls] == ["build_part", "audit_part"]
    assert len(set(seen_before_done)) == 1  # both fired after the whole body was read


def test_fixture_settings_point_at_fake(provider_settings, fake_provider):
    assert provider_settings.base_url == fake_provider.base_url
    assert provider_settings.base_url.endswith("/v1")
    assert provider_settings.model == TEST_MODEL
    assert settings_for(fake_provider, profile="deepseek").profile == "deepseek"
