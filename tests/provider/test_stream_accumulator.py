"""Decoder + accumulator on every builder shape under random chunkings (no HTTP, many cases)."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from sam_plugin.demo import streams
from sam_plugin.runtime.provider.sse import SSEDecoder
from sam_plugin.runtime.provider.stream import StreamAccumulator

BUILDERS = {
    "openai": streams.openai_stream,
    "deepseek": streams.deepseek_stream,
    "ollama": streams.ollama_stream,
    "llamacpp": streams.llamacpp_stream,
}
_text = st.text(alphabet=st.sampled_from(list('ab "\\{}\n\r:é中😀')), max_size=30)


@settings(max_examples=60, deadline=None)
@given(
    style=st.sampled_from(sorted(BUILDERS)),
    content=_text,
    arguments=st.lists(st.dictionaries(st.sampled_from(["a", "b"]), _text, max_size=2), max_size=3),
    eol=st.sampled_from(["\n", "\r\n", "\r"]),
    cuts=st.lists(st.integers(min_value=1, max_value=5000), max_size=12),
)
def test_every_shape_any_chunking(style, content, arguments, eol, cuts):
    calls = [
        (f"tool_{i}", json.dumps(args, ensure_ascii=False)) for i, args in enumerate(arguments)
    ]
    body = "".join(BUILDERS[style](content=content, tool_calls=calls, eol=eol)).encode()
    bounds = sorted({0, len(body), *(c for c in cuts if c < len(body))})
    decoder = SSEDecoder()
    accumulator = StreamAccumulator()
    for start, end in zip(bounds, bounds[1:], strict=False):
        for event in decoder.feed(body[start:end]):
            accumulator.handle(event)
    assert accumulator.done
    response = accumulator.result(body)
    assert response.content == content
    assert [(c.name, c.arguments) for c in response.tool_calls] == calls


def _chunk(delta: dict) -> str:
    return "data: " + json.dumps({"choices": [{"index": 0, "delta": delta}]}) + "\n\n"


def test_a_surrogate_pair_split_across_chunks_is_rejoined():
    body = "".join([
        _chunk({"content": "smile \ud83d"}),
        _chunk({"content": "\ude00!", "reasoning_content": "r\ud83d"}),
        _chunk({"reasoning_content": "\ude00", "tool_calls": [
            {"index": 0, "id": "c", "function": {"name": "edit_part", "arguments": '{"t":"\ud83d'}}
        ]}),
        _chunk({"tool_calls": [{"index": 0, "function": {"arguments": '\ude00"}'}}]}),
        _chunk({"content": " lone \udc00"}),
        "data: [DONE]\n\n",
    ]).encode()
    assert b"\\ud83d" in body  # the JSON escapes, as a provider sends them
    accumulator = StreamAccumulator()
    for event in SSEDecoder().feed(body):
        accumulator.handle(event)
    response = accumulator.result(body)
    assert response.content == "smile 😀! lone \ufffd"
    assert response.reasoning == "r😀"
    assert response.tool_calls[0].arguments == '{"t":"😀"}'
    response.content.encode("utf-8")  # writable as design.txt
