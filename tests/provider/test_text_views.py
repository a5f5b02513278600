"""The views the scrubber looks in (sam_plugin/runtime/store/text_views.py): the fast ones and
the mapped ones are the same strings, and a stream of any text, long enough that only its end
is looked at, scrubs like the whole text."""

from __future__ import annotations

import base64

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sam_plugin.runtime.store import key_forms
from sam_plugin.runtime.store.scrubber import Scrubber
from sam_plugin.runtime.store.text_views import _FOLDED, _STABLE_RANGES, fold, mapped_views, views

KEY = "sk-test-SECRET-KEY-1234"
SCRUBBER = Scrubber(KEY)

# what makes views differ: escapes, %-encoding, spacing, invisible and fullwidth characters,
# the key's own characters (and NUL, the separator of joined strings)
tricky = st.text(alphabet=st.sampled_from(
    list("\\ux%0123456789abcdefABCDEF") + [" ", "\n", "\t", "\u200b", "\u00ad", "\ufe0f",
                                           "\uff53", "\uff4b", "\u3000", "\x00", "\x07", "é",
                                           "\ud83d", "\udc2c"] + list(KEY)), max_size=80)


@settings(max_examples=400, deadline=None)
@given(text=tricky)
def test_the_fast_views_are_the_mapped_ones(text):
    assert list(views(text)) == [view.text for view in mapped_views(text)]


@settings(max_examples=300, deadline=None)
@given(text=tricky)
def test_each_view_character_maps_into_the_text_in_order(text):
    for view in mapped_views(text):
        assert len(view.starts) == len(view.ends) == len(view.text) == len(view.base)
        assert all(0 <= a < b <= len(text) for a, b in zip(view.starts, view.ends,
                                                            strict=True))
        assert view.starts == sorted(view.starts)


def test_folding_drops_spacing_and_invisible_characters_and_folds_fullwidth():
    assert fold("ｓｋ－ｔｅｓｔ\u200b-\u00ad S\tE\nC") == "sk-test-SEC"
    assert fold("a\x00b") == "a\x00b"  # the separator stays


def _encoded(piece: str, how: int) -> str:
    if how == 0:
        return "".join(f"\\u{ord(c):04x}" for c in piece)
    if how == 1:
        return "".join(f"%{b:02X}" for b in piece.encode())
    if how == 2:
        return " ".join(piece)
    return base64.b64encode(piece.encode()).decode()


@settings(max_examples=150, deadline=None)
@given(prefix=tricky, size=st.integers(200, 1200), pieces=st.lists(
    st.tuples(st.integers(0, len(KEY) - 8), st.integers(0, 3)), max_size=3),
    filler=tricky, cuts=st.lists(st.integers(0, 3000), max_size=10))
def test_a_long_stream_scrubs_like_the_whole_text(prefix, size, pieces, filler, cuts):
    """Long enough that a stream looks at its end only: what it holds back still never lets a
    run through nor keeps one from being found."""
    text = (prefix * (size // max(1, len(prefix)) + 1))[:size]
    for start, how in pieces:
        text += filler + _encoded(KEY[start:start + 9], how)
    text += filler
    stream = SCRUBBER.stream()
    shown, last = [], 0
    for cut in sorted({min(c, len(text)) for c in cuts}):
        shown.append(stream.feed(text[last:cut]))
        last = cut
    shown.append(stream.feed(text[last:]))
    shown.append(stream.flush())
    assert "".join(shown) == SCRUBBER.text(text)


def test_two_runs_that_touch_in_a_view_are_one_in_a_stream_cut_anywhere():
    """A reversed run, a line break, a fullwidth run: one run in the folded view, so one
    ``***``, wherever the stream is cut (found by a stress run: two)."""
    text = "say 21-YEK-TERCE\n－ＫＥＹ－１２３ again"
    whole = SCRUBBER.text(text)
    assert whole == "say *** again"
    for cut in range(len(text) + 1):
        stream = SCRUBBER.stream()
        assert stream.feed(text[:cut]) + stream.feed(text[cut:]) + stream.flush() == whole


def test_the_ranges_folded_without_a_look_fold_to_themselves():
    assert [chr(c) for low, high in _STABLE_RANGES for c in range(low, high + 1)
            if _FOLDED[chr(c)] != chr(c)] == []


ascii_text = st.text(alphabet=st.sampled_from(sorted(set(KEY + "0123456789abcdefXYZ=+/ -"))),
                     min_size=0, max_size=400)


@settings(max_examples=60, deadline=None)
@given(chunks=st.lists(st.tuples(ascii_text, st.integers(0, len(KEY) - 8),
                                 st.integers(0, 3)), min_size=1, max_size=6))
def test_a_long_view_looked_at_with_numpy_finds_the_runs_python_finds(chunks):
    """Past 512 characters a view has its windows looked up with numpy."""
    forms = key_forms.KeyForms(KEY)
    block = "".join(filler + _encoded(KEY[start:start + 10], how if how != 2 else 0)
                    for filler, start, how in chunks)
    view = (block * (17_000 // len(block) + 1))[:17_000 + len(block) % 97]
    sampled = forms.runs(view)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(key_forms, "_NUMPY_FROM", 10**12)
        assert forms.runs(view) == sampled
