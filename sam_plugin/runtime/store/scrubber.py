"""The one place the API key is taken out of anything the plugin writes or shows.

A :class:`Scrubber` replaces every run of at least :data:`MIN_RUN` characters of the key (the
whole key when it is shorter) with ``***``, in each of the forms the key can take in text:
as is, JSON-escaped and ``repr``-escaped. It works on decoded text, on raw bytes (where it
also sees through JSON ``\\uXXXX`` escapes), and on streams cut anywhere (:meth:`stream`
holds back the unfinished tail that could still grow into a run).

Why runs and not only the key: a server that splits the key over two JSON fields of an
error body, or echoes half of it, must not leak the half either.

The key is printable ASCII without spaces (``ProviderSettings`` refuses anything else), so a
run never crosses whitespace: a stream only ever holds back the last word.

A key shorter than :data:`MIN_SECRET` (local servers take any key: ``1``, ``x``, ``ollama``)
is not a secret worth scrubbing: rewriting every ``1`` broke ``result.json`` (``***00``) and
every ``x`` broke words ("e***ecute"). Such a scrubber is inactive (:attr:`short_key` says
so, and the CLI and the controller warn once); the key is still only ever sent in the
request header and never written to a file.

Values are scrubbed before they are serialised (:meth:`value`), never the serialised text:
numbers, JSON syntax and escapes cannot be broken by a replacement.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

REDACTED = "***"
_Bytes = bytes  # inside Scrubber, ``bytes`` names its method
MIN_RUN = 8
MIN_SECRET = MIN_RUN  # a shorter key is not scrubbed (see the module docstring)
SHORT_KEY_WARNING = (
    "the API key is under 8 characters, too short to tell from other text: it is sent only "
    "to the provider and written to no file, but no output is rewritten to hide it")

# A token of JSON string text that may hide key characters behind escapes: printable ASCII
# except the quote and the backslash, or any escape. Key characters are 0x21-0x7e, so only an
# escape of one of those (\u0021-\u007e) or a one-character escape can hide one.
_JSON_TOKEN = re.compile(rb'(?:\\u[0-9a-fA-F]{4}|\\[^u]|[\x21\x23-\x5b\x5d-\x7e])+')
_HIDDEN_KEY_CHAR = re.compile(rb"\\u00[2-7][0-9a-fA-F]|\\[\\/\"]")
# raw bytes: a whole unbroken word (an SSE line, JSON escapes and all) is held back up to here
_WORD_HOLD = 64 * 1024
_SIMPLE_ESCAPES = {"b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}


_NUMBERS = frozenset({int, float, bool, type(None)})

class Scrubber:
    """Scrubs one secret. An empty secret hides nothing (and costs nothing)."""

    def __init__(self, secret: str) -> None:
        self._secret = secret
        self.short_key = 0 < len(secret) < MIN_SECRET
        worth = bool(secret) and not self.short_key
        forms = {secret, json.dumps(secret)[1:-1], repr(secret)[1:-1]} if worth else set()
        self._forms = sorted(forms, key=len, reverse=True)
        self._grams = _grams(self._forms)
        self._byte_grams = {gram.encode("utf-8"): offsets for gram, offsets in
                            self._grams.items()}
        self._longest = max((len(f) for f in self._forms), default=0)

    @property
    def active(self) -> bool:
        return bool(self._forms)

    def __repr__(self) -> str:
        return f"Scrubber(active={self.active})"

    # -- whole values ------------------------------------------------------------------

    def contains(self, text: str) -> bool:
        """Whether ``text`` holds a run of the key (in any of its forms)."""
        return bool(self._forms) and bool(_runs(text, self._grams, self._forms))

    def holds(self, value: object) -> bool:
        """Whether a JSON-like value holds a run of the key in any string at any depth (dict
        keys too): the decoded form of text that may have hidden it behind escapes."""
        if not self._forms:
            return False
        pending = [value]
        while pending:
            item = pending.pop()
            if isinstance(item, str):
                if self.contains(item):
                    return True
            elif isinstance(item, dict):
                pending.extend(item.keys())
                pending.extend(item.values())
            elif isinstance(item, list | tuple):
                pending.extend(item)
        return False

    def text(self, text: str) -> str:
        if not self._forms:
            return text
        scrubbed: str = _replace(text, _runs(text, self._grams, self._forms), REDACTED)
        return scrubbed

    def bytes(self, data: bytes) -> bytes:
        """Raw bytes (a ``.sse`` body, a file): runs, and runs hidden behind JSON escapes."""
        if not self._forms:
            return data
        if _HIDDEN_KEY_CHAR.search(data) is not None:  # first, or a literal part hides the rest
            data = self._escaped(data)
        forms = [f.encode("utf-8") for f in self._forms]
        scrubbed: _Bytes = _replace(data, _runs(data, self._byte_grams, forms), REDACTED.encode())
        return scrubbed

    def value(self, value: object) -> object:
        """A JSON-like value with every string scrubbed (dict keys too)."""
        if not self._forms:
            return value
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, dict):
            return {self.value(k): self.value(v) for k, v in value.items()}
        if isinstance(value, list | tuple):
            # numbers pass as they are without a call each (a plan's preview: 20,000 points)
            return [v if type(v) in _NUMBERS else self.value(v) for v in value]
        return value

    def stream(self, *, binary: bool = False) -> StreamScrub:
        return StreamScrub(self, binary=binary)

    # -- internals ---------------------------------------------------------------------

    def _escaped(self, data: _Bytes) -> _Bytes:
        pieces: list[_Bytes] = []
        last = 0
        for match in _JSON_TOKEN.finditer(data):
            token = match.group()
            if b"\\" not in token:
                continue
            decoded, starts = _unescape(token)
            runs = _runs(decoded, self._grams, self._forms)
            if not runs:
                continue
            spans = [(starts[a], starts[b] if b < len(starts) else len(token)) for a, b in runs]
            pieces += [data[last:match.start()], _replace(token, spans, REDACTED.encode())]
            last = match.end()
        if not pieces:
            return data
        pieces.append(data[last:])
        return b"".join(pieces)


class StreamScrub:
    """Scrubs text (or, with ``binary``, bytes) that arrives in pieces: :meth:`feed` returns
    what is safe to pass on now, :meth:`flush` the rest at the end. Joined, the output is the
    scrub of the joined input: a run is never cut in two."""

    def __init__(self, scrubber: Scrubber, *, binary: bool = False) -> None:
        self._scrubber = scrubber
        self._scrub: Callable[[Any], Any] = scrubber.bytes if binary else scrubber.text
        self._held: str | bytes = b"" if binary else ""

    def feed(self, piece: Any) -> Any:  # str, or bytes with ``binary``: what it is fed
        if not self._scrubber.active:
            return piece
        text = self._held + piece
        cut = _safe_cut(text, self._scrubber)
        self._held = text[cut:]
        return self._scrub(text[:cut])

    def flush(self) -> Any:
        held, self._held = self._held, self._held[:0]
        return self._scrub(held)


def _safe_cut(text: Any, scrubber: Scrubber) -> int:  # text: str or bytes
    """Where ``text`` (str or bytes) may be cut so that no run of the key spans the cut, now
    or once more text arrives: before the last word, or, in a long unbroken word, before the
    longest tail that could still be or grow into a run."""
    end = len(text)
    start = end
    while start > 0 and not text[start - 1:start].isspace():
        start -= 1
    longest = scrubber._longest
    if end - start < max(longest, _WORD_HOLD if isinstance(text, bytes) else 0):
        return start
    cut = end - longest + 1
    grams = scrubber._byte_grams if isinstance(text, bytes) else scrubber._grams
    forms = [f.encode("utf-8") for f in scrubber._forms] if isinstance(text, bytes) \
        else scrubber._forms
    for a, b in _runs(text[start:], grams, forms):
        if start + a < cut <= start + b or start + b == end:
            cut = min(cut, start + a)
    return cut


def _grams(forms: Iterable[str]) -> dict[str, list[tuple[str, int]]]:
    """Every window of ``MIN_RUN`` characters of every form: gram -> [(form, offset)]."""
    grams: dict[str, list[tuple[str, int]]] = {}
    for form in forms:
        size = min(MIN_RUN, len(form))
        for offset in range(len(form) - size + 1):
            grams.setdefault(form[offset:offset + size], []).append((form, offset))
    return grams


def _runs(text: Any, grams: Mapping[Any, list[tuple[str, int]]],
          forms: Sequence[Any]) -> list[tuple[int, int]]:  # text and forms: str or bytes
    """Merged ``[start, end)`` spans of ``text`` that are runs of a form (str or bytes)."""
    if len(text) < min((len(g) for g in grams), default=0) or not grams:
        return []
    spans: list[tuple[int, int]] = []
    encoded = isinstance(text, bytes)
    for gram, places in grams.items():
        at = text.find(gram)
        while at != -1:
            end = at + len(gram)
            for form, offset in places:
                source = form.encode("utf-8") if encoded else form
                stop = end
                k = offset + len(gram)
                while stop < len(text) and k < len(source) and text[stop] == source[k]:
                    stop += 1
                    k += 1
                end = max(end, stop)
            spans.append((at, end))
            at = text.find(gram, at + 1)
    if not spans:
        return []
    spans.sort()
    merged = [spans[0]]
    for a, b in spans[1:]:
        if a <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], b))
        else:
            merged.append((a, b))
    return merged


def _replace(text: Any, spans: list[tuple[int, int]], mark: Any) -> Any:  # str or bytes
    if not spans:
        return text
    pieces: list[Any] = []
    last = 0
    for a, b in spans:
        pieces += [text[last:a], mark]
        last = b
    pieces.append(text[last:])
    return text[:0].join(pieces)


def _unescape(token: bytes) -> tuple[str, list[int]]:
    """JSON string text decoded, with the byte offset in ``token`` of each decoded character."""
    chars: list[str] = []
    starts: list[int] = []
    i = 0
    while i < len(token):
        starts.append(i)
        if token[i:i + 1] != b"\\":
            chars.append(chr(token[i]))
            i += 1
        elif token[i + 1:i + 2] == b"u":
            chars.append(chr(int(token[i + 2:i + 6], 16)))
            i += 6
        else:
            escaped = chr(token[i + 1])
            chars.append(_SIMPLE_ESCAPES.get(escaped, escaped))
            i += 2
    return "".join(chars), starts


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
