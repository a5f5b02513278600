"""The one place the API key is taken out of anything the plugin writes or shows.

A :class:`Scrubber` replaces with ``***`` every run of at least :data:`MIN_RUN` characters of
any form of the key (``key_forms.py``: the key, reversed, in other cases, rot13, spelled out
between separators or as decimal codes, hex, base64, base32, base85) in any view of the text
(``text_views.py``: spaces, line breaks, invisible characters and combining marks dropped,
fullwidth and other compatibility letters folded by NFKC, JSON and Python escapes, HTML
character references and %-encoding decoded). The
span replaced is the whole stretch of the text the run came from (its separators, escapes and
%-encoded bytes too). It works on decoded text, on raw bytes (read as UTF-8; a byte that is not
UTF-8 is kept as it is), and on streams cut anywhere (:meth:`stream` holds back only what more
text could still make part of a run).

Why runs and not only the key: a server that splits the key over two JSON fields of an
error body, or echoes half of it, must not leak the half either. What no scrubber can catch
is a key told in other words (spelled out, translated, split by words between its pieces):
that is the provider's to keep, not something a text filter can undo.

A key shorter than :data:`MIN_SECRET` (local servers take any key: ``1``, ``x``, ``ollama``)
is not a secret worth scrubbing: rewriting every ``1`` broke ``result.json`` (``***00``) and
every ``x`` broke words ("e***ecute"). Such a scrubber is inactive (:attr:`short_key` says
so, and the CLI and the controller warn once); the key is still only ever sent in the
request header and never written to a file.

Values are scrubbed before they are serialised (:meth:`value`), never the serialised text:
numbers, JSON syntax and escapes cannot be broken by a replacement. The common case, nothing
found, is the fast one: all the strings of a value are looked at joined, in views made with
bulk string operations, and the value comes back as it was; only a text that holds a run is
looked at again character by character, to know what to replace.
"""

from __future__ import annotations

import bisect
import logging
import re
import unicodedata
from collections.abc import Iterable
from typing import Any

from sam_plugin.runtime.store.key_forms import MIN_RUN, forms_of, merged
from sam_plugin.runtime.store.text_views import (
    DECODE_LEVELS,
    LONGEST_ESCAPE,
    SEPARATOR,
    fold_char,
    mapped_views,
    pending_from,
    utf8_size,
    views,
    window_start,
)

REDACTED = "***"
_Bytes = bytes  # inside Scrubber, ``bytes`` names its method
MIN_SECRET = MIN_RUN  # a shorter key is not scrubbed (see the module docstring)
SHORT_KEY_WARNING = (
    "the API key is under 8 characters, too short to tell from other text: it is sent only "
    "to the provider and written to no file, but no output is rewritten to hide it")

_ESCAPED_CHAR = re.compile(r"\\+u([0-9a-fA-F]{4})")
_NUMBERS = frozenset({int, float, bool, type(None)})
_SEQUENCES = (list, tuple)
# a stream looks at all it holds, up to this size, in its fast views; where it must map them
# back to the text it looks at this much of the end (more when what it holds back reaches
# further)
_WHOLE_UP_TO = 64 * 1024
_WINDOW = 512
# how far into a look's folded view a character must lie for its decoding at each level to be
# the one the whole text gives (an escape that began before the look reaches no further). A
# cut is sure when, in every view, a run of the longest form back from it stays past that:
# no run from before the look can then reach it.
_MARGINS = tuple(LONGEST_ESCAPE ** level if level else 0 for level in range(DECODE_LEVELS + 1))


class Scrubber:
    """Scrubs one secret. An empty secret hides nothing (and costs nothing)."""

    def __init__(self, secret: str) -> None:
        self._secret = secret
        self.short_key = 0 < len(secret) < MIN_SECRET
        worth = bool(secret) and not self.short_key
        self._forms = forms_of(secret) if worth else None

    @property
    def active(self) -> bool:
        return self._forms is not None

    def __repr__(self) -> str:
        return f"Scrubber(active={self.active})"

    # -- whole values ------------------------------------------------------------------

    def contains(self, text: str) -> bool:
        """Whether ``text`` holds a run of the key (in any of its forms and views)."""
        forms = self._forms
        return forms is not None and any(forms.found(view) for view in views(text))

    def holds(self, value: object) -> bool:
        """Whether a JSON-like value holds a run of the key in any string at any depth (dict
        keys too): the decoded form of text that may have hidden it behind escapes."""
        return self._forms is not None and self.contains(SEPARATOR.join(_strings(value)))

    def text(self, text: str) -> str:
        if not self.contains(text):
            return text
        assert self._forms is not None
        spans = merged([_with_marks(text, *view.span(a, b)) for view in mapped_views(text)
                        for a, b in self._forms.runs(view.text)])
        return _replace(text, spans or [(0, len(text))], REDACTED)  # never less than found

    def bytes(self, data: _Bytes) -> _Bytes:
        """Raw bytes (a ``.sse`` body, a file), read as UTF-8; bytes that are not UTF-8 stay
        as they are."""
        if self._forms is None:
            return data
        text = data.decode("utf-8", "surrogateescape")
        scrubbed = self.text(text)
        return data if scrubbed is text else scrubbed.encode("utf-8", "surrogateescape")

    def value(self, value: object) -> object:
        """A JSON-like value with every string scrubbed (dict keys too); the value itself
        when nothing in it holds a run."""
        if not self.holds(value):
            return value
        return self._rebuilt(value)

    def _rebuilt(self, value: object) -> object:
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, dict):
            return {self._rebuilt(k): self._rebuilt(v) for k, v in value.items()}
        if isinstance(value, _SEQUENCES):
            return [v if type(v) in _NUMBERS else self._rebuilt(v) for v in value]
        return value

    def stream(self, *, binary: bool = False) -> StreamScrub:
        return StreamScrub(self, binary=binary)

    def _cut(self, text: str) -> tuple[int, bool]:
        """Where a stream may be cut now: before what more text could still make part of a
        run (an end that is a piece of a form in some view, or an unfinished escape); and
        whether the text before the cut is known to hold no run (a text looked at whole that
        holds none: what it lets pass is the start of it)."""
        forms = self._forms
        if forms is None:
            return len(text), True
        clean = False
        if len(text) <= _WHOLE_UP_TO:
            found = list(views(text))
            clean = not any(forms.found(view) for view in found)
            if clean and len(found) == 1:
                return self._plain_cut(text, found[0]), True
        size = _WINDOW
        while True:
            start = window_start(text, size)
            cut, sure = self._cut_in(text[start:], whole=start == 0)
            if sure:
                return start + cut, clean
            size *= 4

    def _plain_cut(self, text: str, view: str) -> int:
        """The cut of the common case, without mapped views: nothing to decode and no run, so
        what is held back is the end that is a piece of a form (or an unfinished escape),
        found by folding the text's characters from its end."""
        forms = self._forms
        assert forms is not None
        pending = pending_from(view)
        begins = pending - forms.viable_suffix(view[:pending])  # in the view
        cut, seen = len(text), len(view)
        while seen > begins:
            cut -= 1
            seen -= len(fold_char(text[cut]))
        return cut

    def _cut_in(self, window: str, *, whole: bool) -> tuple[int, bool]:
        """The cut in ``window`` (the end of a text), and whether the text before the window
        cannot move it (else a longer look is needed)."""
        forms = self._forms
        assert forms is not None
        found = mapped_views(window)
        cut = limit = len(window)  # limit: where what an earlier view left unfinished begins
        for view in found:
            settled = bisect.bisect_left(view.starts, limit)  # decoded as it will stay
            pending = pending_from(view.text[:settled])
            held = pending - forms.viable_suffix(view.text[:pending])
            if held < len(view.text):
                cut = min(cut, view.starts[held])
            if pending < len(view.text):
                limit = min(limit, view.starts[pending])
        # nor is a run that is already whole, nor one that ends where the cut falls in its
        # view (a run after it would touch it there: the whole text replaces the two as one)
        runs = [(view, a, b) for view in found for a, b in forms.runs(view.text)]
        moved = True
        while moved:
            moved = False
            for view, a, b in runs:
                if a < bisect.bisect_left(view.starts, cut) <= b:
                    cut, moved = view.starts[a], True
        return cut, whole or all(
            bisect.bisect_left(view.starts, cut) - bisect.bisect_left(view.base, _MARGINS[-1])
            >= forms.longest for view in found)


class StreamScrub:
    """Scrubs text (or, with ``binary``, bytes) that arrives in pieces: :meth:`feed` returns
    what is safe to pass on now, :meth:`flush` the rest at the end. Joined, the output is the
    scrub of the joined input: a run is never cut in two."""

    def __init__(self, scrubber: Scrubber, *, binary: bool = False) -> None:
        self._scrubber = scrubber
        self._binary = binary
        self._held_text = ""
        self._held_bytes = b""  # with ``binary``: bytes held back, a cut UTF-8 sequence too

    def feed(self, piece: Any) -> Any:  # str, or bytes with ``binary``: what it is fed
        if not self._scrubber.active:
            return piece
        if self._binary:
            return self._feed_bytes(piece)
        text = self._held_text + piece
        cut, clean = self._scrubber._cut(text)
        self._held_text = text[cut:]
        return text[:cut] if clean else self._scrubber.text(text[:cut])

    def _feed_bytes(self, piece: _Bytes) -> _Bytes:
        data = self._held_bytes + piece
        text = data[:_complete_utf8(data)].decode("utf-8", "surrogateescape")
        cut, clean = self._scrubber._cut(text)
        passed = text[:cut].encode("utf-8", "surrogateescape")
        self._held_bytes = data[len(passed):]
        return passed if clean else self._scrubber.bytes(passed)

    def flush(self) -> Any:
        if self._binary:
            held, self._held_bytes = self._held_bytes, b""
            return self._scrubber.bytes(held)
        text, self._held_text = self._held_text, ""
        return self._scrubber.text(text)


def _complete_utf8(data: _Bytes) -> int:
    """Where a UTF-8 sequence that the next bytes could still complete begins, else the end."""
    for back in range(1, min(4, len(data)) + 1):
        byte = data[-back]
        if byte & 0xC0 != 0x80:  # not a continuation byte: the sequence begins here
            return len(data) - back if utf8_size(byte) > back else len(data)
    return len(data)


def _strings(value: object) -> list[str]:
    """Every string of a JSON-like value, dict keys too (numbers pass without a look)."""
    found: list[str] = []
    pending = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, str):
            found.append(item)
            continue
        inner: Iterable[object]
        if isinstance(item, dict):
            found += [key for key in item if isinstance(key, str)]
            inner = item.values()
        elif isinstance(item, _SEQUENCES):
            inner = item
        else:
            continue
        for each in inner:
            kind = type(each)
            if kind is str:
                found.append(each)
            elif kind not in _NUMBERS:
                pending.append(each)
    return found


def _with_marks(text: str, start: int, end: int) -> tuple[int, int]:
    """A span with the combining marks right after it (an accent on its last character), as
    they are or behind ``\\u`` escapes."""
    while end < len(text):
        if unicodedata.category(text[end]) == "Mn":
            end += 1
            continue
        escaped = _ESCAPED_CHAR.match(text, end)
        if escaped is None or unicodedata.category(chr(int(escaped.group(1), 16))) != "Mn":
            break
        end = escaped.end()
    return start, end


def _replace(text: str, spans: list[tuple[int, int]], mark: str) -> str:
    pieces: list[str] = []
    last = 0
    for a, b in spans:
        pieces += [text[last:a], mark]
        last = b
    pieces.append(text[last:])
    return "".join(pieces)


class ScrubberCache:
    """One scrubber per API key: made on first use, made again when the key changes (the
    short-key warning is logged once per key)."""

    def __init__(self) -> None:
        self._key: str | None = None
        self._scrubber: Scrubber | None = None

    def for_key(self, key: str) -> Scrubber:
        if self._scrubber is None or self._key != key:
            self._scrubber, self._key = Scrubber(key), key
            if self._scrubber.short_key:
                logging.getLogger(__name__).warning(SHORT_KEY_WARNING)
        return self._scrubber
