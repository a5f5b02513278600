"""The key as a provider can echo it, dressed up (docs/architecture.md §7 "The key"): base64
(and URL-safe, at any offset), hex, %-encoding, split by zero-width or other invisible
characters or by spaces and line breaks (in 7-character pieces), fullwidth (folded by NFKC),
reversed, behind JSON or Python escapes in text; runs of 8 or more characters of each form
(16 hex digits); and base32, rot13, spelled out between dots or as decimal codes, HTML
character references, upper or lower case, base85 and Ascii85, with an accent on every
letter. On main each of these reached design.txt, spec.json and the CLI output."""

from __future__ import annotations

import base64
import codecs
import json
import unicodedata
import urllib.parse

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sam_plugin.runtime.store.scrubber import REDACTED, Scrubber

KEY = "sk-test-SECRET-KEY-1234"
SCRUBBER = Scrubber(KEY)
URL_KEY = "sk-?>~~?>-Key0123456"  # its base64 holds + and /, its URL-safe base64 - and _


def b64(text: str) -> str:
    return base64.b64encode(text.encode()).decode()


def fullwidth(text: str) -> str:
    return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in text)


def pieces(text: str, size: int, between: str) -> str:
    return between.join(text[i:i + size] for i in range(0, len(text), size))


ENCODED = {
    "base64": b64(KEY),
    "base64 unpadded": b64(KEY).rstrip("="),
    "base64 at an offset (an echoed Basic header)": b64("api:" + KEY),
    "base64 wrapped every 8 characters": pieces(b64(KEY), 8, "\n"),
    "a run of base64": b64(KEY)[8:20],
    "hex": KEY.encode().hex(),
    "HEX": KEY.encode().hex().upper(),
    "hex in pairs": pieces(KEY.encode().hex(), 2, " "),
    "a run of hex (16 digits)": KEY.encode().hex()[10:26],
    "%-encoded": "".join(f"%{b:02X}" for b in KEY.encode()),
    "%-encoded, lower case": "".join(f"%{b:02x}" for b in KEY.encode()),
    "partly %-encoded": urllib.parse.quote(KEY, safe="") .replace("S", "%53"),
    "zero-width spaces": "\u200b".join(KEY),
    "word joiners": "\u2060".join(KEY),
    "soft hyphens": "\u00ad".join(KEY),
    "byte order marks": "\ufeff".join(KEY),
    "variation selectors": "\ufe0f".join(KEY),
    "7-character runs with spaces": pieces(KEY, 7, " "),
    "7-character runs on lines": pieces(KEY, 7, "\n"),
    "7-character runs with zero-width spaces": pieces(KEY, 7, "\u200b"),
    "fullwidth": fullwidth(KEY),
    "fullwidth with an ideographic space": fullwidth(KEY[:9]) + "\u3000" + fullwidth(KEY[9:]),
    "reversed": KEY[::-1],
    "a reversed run": KEY[::-1][3:12],
    "JSON \\u escapes in text": "".join(f"\\u{ord(c):04x}" for c in KEY),
    "Python \\x escapes in text": "".join(f"\\x{ord(c):02x}" for c in KEY),
    "%-encoded zero-width spaces": "%E2%80%8B".join(KEY),
    "fullwidth hex": fullwidth(KEY.encode().hex()),
    "base32": base64.b32encode(KEY.encode()).decode(),
    "base32, lower case": base64.b32encode(KEY.encode()).decode().lower(),
    "a run of base32": base64.b32encode(KEY.encode()).decode()[5:17],
    "rot13": codecs.encode(KEY, "rot13"),
    "dot-separated": ".".join(KEY),
    "comma-separated": ", ".join(KEY),
    "HTML entities": "".join(f"&#{ord(c)};" for c in KEY),
    "HTML hex entities": "".join(f"&#x{ord(c):X};" for c in KEY),
    "upper case": KEY.upper(),
    "lower case": KEY.lower(),
    "decimal codes": " ".join(str(ord(c)) for c in KEY),
    "decimal codes with commas": ",".join(str(ord(c)) for c in KEY),
    "base85": base64.b85encode(KEY.encode()).decode(),
    "ascii85": base64.a85encode(KEY.encode()).decode(),
    "combining accents": "".join(c + "\u0301" for c in KEY),
    "combining accents below and above": "".join(c + "\u0323\u0308" for c in KEY),
}


@pytest.mark.parametrize("form", ENCODED)
def test_each_encoding_of_the_key_is_scrubbed_whole(form):
    encoded = ENCODED[form]
    kept = b64("api:sk")[:8] if "Basic" in form else ""  # "api:" and 2 of the key's characters
    assert SCRUBBER.text(f"your key: {encoded} (echoed)") == \
        f"your key: {kept}{REDACTED} (echoed)"
    assert SCRUBBER.contains(encoded) and SCRUBBER.holds({"summary": [encoded]})
    assert SCRUBBER.value({"summary": f"k={encoded}"}) == {"summary": f"k={kept}{REDACTED}"}
    raw = json.dumps({"content": encoded}).encode()
    assert SCRUBBER.bytes(b"data: " + raw) == f'data: {{"content": "{kept}***"}}'.encode()


def test_url_safe_base64_and_its_runs_go_too():
    scrubber = Scrubber(URL_KEY)
    for encoded in (b64(URL_KEY), base64.urlsafe_b64encode(URL_KEY.encode()).decode(),
                    base64.urlsafe_b64encode(URL_KEY.encode()).decode()[2:14]):
        assert scrubber.text(f"<{encoded}>") == f"<{REDACTED}>"


def test_runs_shorter_than_a_run_stay():
    """Seven characters of a form, and 8 hex digits (4 of the key's characters: a run of
    8 decimal digits of the key's hex turns up in any long list of coordinates), are text."""
    hex_key = KEY.encode().hex()
    for text in (KEY[:7], KEY[::-1][:7], b64(KEY)[:7], hex_key[:15], fullwidth(KEY[:7]),
                 "\u200b".join(KEY[:7]), f"x = 0.{hex_key[2:10]}"):
        assert SCRUBBER.text(text) == text, text
        assert not SCRUBBER.contains(text)


def test_ordinary_text_numbers_and_json_are_left_as_they_are():
    texts = ["translate the hull by 5 in z, then audit the part",
             "把零件沿 z 方向平移 5，然后检查",
             json.dumps({"vector": [0.0, 0.0, 5.0], "labels": list(range(1, 40))}),
             "50% of 200 elements, 100%", "C:\\Users\\analyst\\runs\\x.json", "ｆｕｌｌｗｉｄｔｈ",
             "sha256 " + "0123456789abcdef" * 4]
    for text in texts:
        assert SCRUBBER.text(text) == text and not SCRUBBER.contains(text)


def test_a_scrubbed_text_holds_nothing_more_to_scrub():
    for encoded in ENCODED.values():
        once = SCRUBBER.text(f"a {encoded} b {KEY} c")
        assert SCRUBBER.text(once) == once and not SCRUBBER.contains(once)


def test_nfkc_folding_is_what_the_scrubber_undoes():
    """The fullwidth form folds to the key by NFKC: the same folding the scrubber does."""
    assert unicodedata.normalize("NFKC", fullwidth(KEY)) == KEY


encoding = st.sampled_from(sorted(ENCODED))
around = st.text(alphabet=st.characters(codec="utf-8", exclude_characters="\x00"), max_size=30)


@settings(max_examples=200, deadline=None)
@given(form=encoding, before=around, after=around,
       cuts=st.lists(st.integers(0, 200), max_size=8))
def test_a_stream_of_any_encoding_cut_anywhere_scrubs_like_the_whole_text(form, before, after,
                                                                          cuts):
    text = before + ENCODED[form] + after
    stream = SCRUBBER.stream()
    shown, last = [], 0
    for cut in sorted({min(c, len(text)) for c in cuts}):
        shown.append(stream.feed(text[last:cut]))
        last = cut
    shown.append(stream.feed(text[last:]))
    shown.append(stream.flush())
    assert "".join(shown) == SCRUBBER.text(text)
    assert all(not SCRUBBER.contains(piece) for piece in shown)


@settings(max_examples=200, deadline=None)
@given(form=encoding, before=st.binary(max_size=30), after=st.binary(max_size=30),
       cuts=st.lists(st.integers(0, 300), max_size=8))
def test_a_byte_stream_of_any_encoding_cut_anywhere_scrubs_like_the_whole(form, before, after,
                                                                          cuts):
    data = before + ENCODED[form].encode() + after
    stream = SCRUBBER.stream(binary=True)
    shown, last = [], 0
    for cut in sorted({min(c, len(data)) for c in cuts}):
        shown.append(stream.feed(data[last:cut]))
        last = cut
    shown.append(stream.feed(data[last:]))
    shown.append(stream.flush())
    assert b"".join(shown) == SCRUBBER.bytes(data)


COORDINATES = ", ".join(f"[{i * 0.731:.4f}, {i * 1.117:.4f}, 0.0]" for i in range(200))


@pytest.mark.parametrize("form", ENCODED)
def test_each_encoding_is_scrubbed_in_a_long_text_of_numbers(form):
    """A long text is looked at with numpy, where a window of a long form (hex, spelled out)
    counts only beside another hit: every encoding is still found there."""
    kept = b64("api:sk")[:8] if "Basic" in form else ""
    text = f"{COORDINATES} key {ENCODED[form]} end {COORDINATES}"
    assert len(text) > 4096
    assert SCRUBBER.text(text) == f"{COORDINATES} key {kept}{REDACTED} end {COORDINATES}"
