"""The SSE decoder follows the event-stream rules, checked against httpx-sse on random input."""

from __future__ import annotations

from httpx_sse._decoders import SSEDecoder as ReferenceDecoder
from httpx_sse._decoders import SSELineDecoder as ReferenceLineDecoder
from hypothesis import given, settings
from hypothesis import strategies as st

from sam_plugin.runtime.provider.sse import SSEDecoder, SSEEvent


def decode(chunks: list[bytes]) -> list[SSEEvent]:
    decoder = SSEDecoder()
    events = [event for chunk in chunks for event in decoder.feed(chunk)]
    assert decoder.finish() is None
    return events


def test_line_endings_lf_crlf_cr_and_optional_space():
    text = b"data: a\n\ndata:b\r\n\r\ndata:  c\r\rdata: d\n\r\n"
    assert [e.data for e in decode([text])] == ["a", "b", " c", "d"]


def test_crlf_split_across_chunks_is_one_line_end():
    events = decode([b"data: a\r", b"\n", b"\r", b"\ndata: b\r", b"\r"])
    assert [e.data for e in events] == ["a", "b"]


def test_multiline_data_joined_with_newline_and_comments_ignored():
    events = decode([b': keep-alive\n\ndata: {"a":\ndata: 1}\n: inside\n\n'])
    assert events == [SSEEvent(event="", data='{"a":\n1}')]


def test_event_id_retry_and_unknown_fields():
    events = decode([b"event: error\nid: 7\nretry: 1500\nfoo: bar\ndata: boom\n\n"])
    assert events == [SSEEvent(event="error", data="boom", id="7", retry=1500)]


def test_typed_event_without_data_is_dispatched_but_blank_lines_alone_are_not():
    assert decode([b"\n\n\nevent: error\n\n"]) == [SSEEvent(event="error", data="")]


def test_leading_bom_is_dropped_even_when_split():
    assert [e.data for e in decode([b"\xef", b"\xbb", b"\xbfdata: x\n\n"])] == ["x"]


def test_utf8_split_inside_a_character():
    encoded = "data: 平板 é\n\n".encode()
    assert [e.data for e in decode([encoded[:7], encoded[7:]])] == ["平板 é"]


def test_unterminated_event_is_handed_back_by_finish():
    decoder = SSEDecoder()
    assert decoder.feed(b"data: [DONE]") == []
    assert decoder.has_partial_input
    pending = decoder.finish()
    assert pending is not None and pending.data == "[DONE]"


def test_long_line_in_tiny_chunks_is_linear():
    line = b"data: " + b"x" * 200_000 + b"\n\n"
    chunks = [line[i : i + 7] for i in range(0, len(line), 7)]
    [event] = decode(chunks)
    assert len(event.data) == 200_000


# -- property: same events as httpx-sse's decoder, whatever the chunking -------------------

_values = st.text(alphabet=st.sampled_from(list('ab {}:"é中😀 ')), max_size=12)
_line = st.one_of(
    st.tuples(st.sampled_from(["data", "event", "id", "retry", "", "x"]), _values).map(
        lambda fv: f"{fv[0]}:{fv[1]}" if fv[0] else f":{fv[1]}"
    ),
    st.just("data"),
    st.just(""),
)
_stream = st.lists(st.tuples(_line, st.sampled_from(["\n", "\r\n", "\r"])), max_size=25).map(
    lambda lines: "".join(text + eol for text, eol in lines)
)


def reference(text: str) -> list[tuple[str, str, str]]:
    line_decoder = ReferenceLineDecoder()
    lines = line_decoder.decode(text) + line_decoder.flush() if text else []
    decoder = ReferenceDecoder()
    events = [decoder.decode(line) for line in lines]
    return [normal(e) for e in events if e is not None and normal(e)[:2] != ("message", "")]


def normal(event) -> tuple[str, str, str]:
    return (event.event or "message", event.data, event.id)


@settings(max_examples=60, deadline=None)
@given(text=_stream, cuts=st.lists(st.integers(min_value=0, max_value=400), max_size=8))
def test_matches_httpx_sse_on_any_chunking(text, cuts):
    data = text.encode()
    bounds = sorted({0, len(data), *(c for c in cuts if c < len(data))})
    chunks = [data[a:b] for a, b in zip(bounds, bounds[1:], strict=False)]
    decoder = SSEDecoder()
    ours = [event for chunk in chunks for event in decoder.feed(chunk)]
    decoder.finish()
    assert [normal(e) for e in ours if normal(e)[:2] != ("message", "")] == reference(text)
