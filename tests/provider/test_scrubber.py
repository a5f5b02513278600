"""The one Scrubber: runs of the key, its escaped forms, and streams cut anywhere."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from sam_plugin.runtime.provider.errors import scrub
from sam_plugin.runtime.store.scrubber import REDACTED, Scrubber

KEY = "sk-test-SECRET-KEY-1234"
SCRUBBER = Scrubber(KEY)


def test_the_whole_key_and_any_run_of_eight_of_its_characters_go():
    assert SCRUBBER.text(f"auth {KEY} failed") == f"auth {REDACTED} failed"
    assert SCRUBBER.text(f"first half {KEY[:8]}") == f"first half {REDACTED}"
    assert SCRUBBER.text(f"{KEY[:11]}|{KEY[11:]}") == f"{REDACTED}|{REDACTED}"
    assert SCRUBBER.text(KEY[:7]) == KEY[:7]  # seven characters are not a run
    assert SCRUBBER.text(f"x{KEY}{KEY}y") == f"x{REDACTED}y"


def test_escaped_forms_go_too():
    quoted = Scrubber('ab"c\\d-efgh')
    assert quoted.text(json.dumps({"k": 'ab"c\\d-efgh'})) == '{"k": "***"}'
    assert quoted.text(repr('ab"c\\d-efgh')) == "'***'"
    escaped = json.dumps(KEY).replace("S", "\\u0053").replace("-", "\\u002d").encode()
    assert SCRUBBER.bytes(b"data: {\"c\":" + escaped + b"}") == b'data: {"c":"***"}'


def test_an_empty_key_hides_nothing():
    assert Scrubber("").text("anything *** at all") == "anything *** at all"
    assert not Scrubber("").contains("")


def test_provider_errors_scrub_is_the_same_mechanism():
    assert scrub(f"bad key {KEY[:9]}", KEY) == f"bad key {REDACTED}"


def test_values_are_scrubbed_keys_and_all():
    assert SCRUBBER.value({KEY: [KEY[2:12], 3, None]}) == {REDACTED: [REDACTED, 3, None]}


text_around = st.text(alphabet=st.characters(codec="utf-8", exclude_characters="\x00"),
                      max_size=40)


@settings(max_examples=300, deadline=None)
@given(before=text_around, after=text_around, start=st.integers(0, len(KEY) - 8),
       length=st.integers(8, len(KEY)), cuts=st.lists(st.integers(0, 120), max_size=8))
def test_a_stream_cut_anywhere_scrubs_like_the_whole_text(before, after, start, length, cuts):
    text = before + KEY[start:start + length] + after
    stream = SCRUBBER.stream()
    pieces, last = [], 0
    for cut in sorted({min(c, len(text)) for c in cuts}):
        pieces.append(stream.feed(text[last:cut]))
        last = cut
    pieces.append(stream.feed(text[last:]))
    pieces.append(stream.flush())
    shown = "".join(pieces)
    assert shown == SCRUBBER.text(text)
    assert not SCRUBBER.contains(shown)
    for piece in pieces:
        assert not SCRUBBER.contains(piece)


@settings(max_examples=200, deadline=None)
@given(before=st.binary(max_size=40), after=st.binary(max_size=40),
       cuts=st.lists(st.integers(0, 120), max_size=8))
def test_a_byte_stream_cut_anywhere_never_passes_the_key(before, after, cuts):
    data = before + KEY.encode() + after
    stream = SCRUBBER.stream(binary=True)
    out, last = [], 0
    for cut in sorted({min(c, len(data)) for c in cuts}):
        out.append(stream.feed(data[last:cut]))
        last = cut
    out.append(stream.feed(data[last:]))
    out.append(stream.flush())
    joined = b"".join(out)
    assert KEY.encode() not in joined and SCRUBBER.bytes(joined) == joined


def test_a_key_under_eight_characters_rewrites_nothing():
    """Key ``1`` made ``"completion_tokens": ***00``; key ``x`` made "e***ecute"."""
    for key in ("1", "x", "ollama", "1234567"):
        short = Scrubber(key)
        assert short.short_key and not short.active
        text = f'{{"completion_tokens": 100}} execute {key}'
        assert short.text(text) == text and short.bytes(text.encode()) == text.encode()
        assert not short.contains(text) and not short.holds({"a": [text]})
    assert not Scrubber(KEY).short_key and not Scrubber("").short_key


def test_holds_sees_decoded_strings_at_every_depth():
    hidden = json.loads('"' + "".join(f"\\u{ord(c):04x}" for c in KEY) + '"')
    assert SCRUBBER.contains("".join(f"\\u{ord(c):04x}" for c in KEY))  # the escapes decoded
    assert SCRUBBER.holds({"sets": [{"name": hidden}]})
    assert SCRUBBER.holds({KEY[2:12]: 1})
    assert not SCRUBBER.holds({"sets": [{"name": "S1"}], "n": 12345678})


def test_run_files_are_scrubbed_as_values_so_json_stays_json(tmp_path):
    from sam_plugin.runtime.store.run_store import RunDir

    quoted = 'ab"c\\d-efgh'
    run = RunDir(tmp_path, "20260101T000000Z-abcdef", Scrubber(quoted)).create()
    run.write_json("x.json", {"message": f"bad key {quoted}", quoted: 7})
    assert json.loads(run.file("x.json").read_text()) == {"message": "bad key ***", "***": 7}
    (run.file("host.json")).write_text(json.dumps({"sets": [f"S-{quoted}"]}))
    (run.file("host.jsonl")).write_text(json.dumps({"e": quoted}) + "\n")
    run.seal()
    assert json.loads(run.file("host.json").read_text()) == {"sets": ["S-***"]}
    assert json.loads(run.file("host.jsonl").read_text()) == {"e": "***"}
