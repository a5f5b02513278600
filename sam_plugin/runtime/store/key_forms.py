"""The forms an API key can be echoed in, and how a run of one is found fast
(docs/architecture.md §7 "The key").

The forms: the key, the key reversed, in upper and in lower case, in rot13; its characters
one by one between separators (``s.k.-.c``) and as decimal character codes (``115 107 45``);
its UTF-8 in hex (lower and upper case), in base64 (standard and URL-safe), base32 (upper and
lower case), base85 and Ascii85, each from every byte offset of its groups, so that the key
encoded after other bytes, as in an echoed ``Basic`` header, is one of them; with and without
the last group, which depends on the bytes after the key. A run is
:data:`MIN_RUN` or more characters of a form, 16 of hex (a hex digit is half a character of
the key: 8 hex digits of the key turn up among the decimal digits of any long list of
coordinates). What the escapes, HTML character references, %-encoding, invisible characters,
combining accents, spacing and fullwidth letters hide is undone by the views the forms are
looked for in (``text_views.py``).

Finding a run: every run of 8 characters holds one of the view's 4-character windows that
start at every 5th position, so those windows are looked up among every 4 characters of every
form, and each one found is grown both ways along its form (a view longer than a few lines
has its windows looked up all at once, with numpy; in it a window of only the long forms,
hex and the spelled-out ones, counts only beside another hit).
"""

from __future__ import annotations

import base64
import codecs
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

MIN_RUN = 8
_GRAM = 4  # a view's windows: 4 characters at every 5th position (4 + 5 - 1 = MIN_RUN)
_STRIDE = MIN_RUN - _GRAM + 1
_PAIRED_FROM = _GRAM + _STRIDE + _GRAM  # a run this long holds two sampled windows
_NUMPY_FROM = 512  # characters of a view: from here numpy looks at its windows, all at once
_TABLE_BITS = 20  # the table of windows a look at a long view starts from (1 MB)
_HASH = 0x9E3779B1  # Knuth's multiplicative hash (32 bits)


@dataclass(frozen=True)
class Form:
    text: str
    min_run: int


# characters one character of the key may be spelled out between (dot-separated and the like)
_SEPARATORS = ".-_,;:|/"
# the byte groups of each binary-to-text encoding, and its encoders
_ENCODINGS: tuple[tuple[int, tuple[Callable[[bytes], bytes], ...]], ...] = (
    (3, (base64.b64encode, base64.urlsafe_b64encode)),
    (5, (base64.b32encode, lambda data: base64.b32encode(data).lower())),
    (4, (base64.b85encode, base64.a85encode)),
)


def key_forms(key: str) -> tuple[Form, ...]:
    raw = key.encode("utf-8")
    forms = [Form(key, MIN_RUN), Form(key[::-1], MIN_RUN),
             Form(key.upper(), MIN_RUN), Form(key.lower(), MIN_RUN),
             Form(codecs.encode(key, "rot13"), MIN_RUN),
             Form(raw.hex(), 2 * MIN_RUN), Form(raw.hex().upper(), 2 * MIN_RUN)]
    # spelled out one character at a time: between separators (8 characters and the 7
    # between them), or as decimal character codes (the spaces between them are not in the
    # views; 16 digits, as hex)
    forms += [Form(between.join(key), 2 * MIN_RUN - 1) for between in _SEPARATORS]
    codes = [str(byte) for byte in raw]
    forms += [Form(between.join(codes), 2 * MIN_RUN) for between in ("", ",", ";")]
    for group, encoders in _ENCODINGS:
        for skip in range(group):
            # the key's bytes from ``skip`` on when more bytes follow them (full groups
            # only: the last group depends on what follows) and when none do
            for tail in (raw[skip:skip + (len(raw) - skip) // group * group], raw[skip:]):
                forms += [Form(encode(tail).decode("ascii"), MIN_RUN) for encode in encoders]
    unique: dict[str, Form] = {}
    for form in forms:
        if len(form.text) >= form.min_run:
            unique.setdefault(form.text, form)
    return tuple(unique.values())


@lru_cache(maxsize=4)
def forms_of(key: str) -> KeyForms:
    """The one :class:`KeyForms` of ``key`` in this process: a run makes a scrubber for each
    of its writers, and the forms and their windows take milliseconds to build (what a
    ``KeyForms`` learns later is the same for every scrubber of the key)."""
    return KeyForms(key)


class KeyForms:
    """The forms of one key, how runs of them are found, and what may still grow into one
    (for streams)."""

    def __init__(self, key: str) -> None:
        self.forms = key_forms(key)
        self.longest = max(len(f.text) for f in self.forms)
        # every 4 characters of every form, with the forms and offsets they are at
        self._places: dict[str, list[tuple[Form, int]]] = {}
        for form in self.forms:
            for offset in range(len(form.text) - _GRAM + 1):
                self._places.setdefault(form.text[offset:offset + _GRAM], []).append(
                    (form, offset))
        # windows only of forms whose runs are long enough to hold two sampled windows: in a
        # long view such a window counts only beside another hit (random digits hit often)
        self._paired = frozenset(gram for gram, places in self._places.items()
                                 if all(form.min_run >= _PAIRED_FROM for form, _ in places))
        self._codes: Any = None  # numpy: the sorted codes of the windows, and a table of
        # their hashes (``_slot``)
        # the forms one after another, apart: a line break is in no form and in no view
        self._joined = "\n".join(form.text for form in self.forms)

    def found(self, view: str) -> bool:
        """Whether ``view`` holds a run of a form."""
        return any(b - a >= form.min_run for form, a, b in self._matches(view))

    def runs(self, view: str) -> list[tuple[int, int]]:
        """The ``[start, end)`` spans of ``view`` that are runs of a form, merged."""
        return merged([(a, b) for form, a, b in self._matches(view) if b - a >= form.min_run])

    def _matches(self, view: str) -> Iterator[tuple[Form, int, int]]:
        """Each sampled window of ``view`` that is 4 characters of a form, grown along the
        form both ways."""
        places = self._places
        if len(view) >= _NUMPY_FROM:
            hits = self._paired_hits(view, self._numpy_hits(view))
        else:
            hits = [at for at in range(0, len(view) - _GRAM + 1, _STRIDE)
                    if view[at:at + _GRAM] in places]
        for at in hits:
            for form, offset in places[view[at:at + _GRAM]]:
                yield form, *_grown(view, at, form.text, offset, _GRAM)

    def _paired_hits(self, view: str, hits: list[int]) -> list[int]:
        """``hits`` without the windows of long forms only that no other hit stands beside
        (a run of such a form holds two sampled windows, one beside the other)."""
        found = set(hits)
        return [at for at in hits if view[at:at + _GRAM] not in self._paired
                or at - _STRIDE in found or at + _STRIDE in found]

    def _numpy_hits(self, view: str) -> list[int]:
        import numpy as np

        if self._codes is None:
            codes = np.array(sorted(_code(g) for g in self._places if g.isascii()),
                             dtype=np.uint32)
            table = np.zeros(1 << _TABLE_BITS, dtype=bool)
            table[_slot(codes)] = True
            self._codes = (codes, table)
        codes, table = self._codes
        if view.isascii():
            data = np.frombuffer(view.encode("ascii"), dtype=np.uint8)
        else:  # a character past ASCII is in no form: as DEL, which is in no view either
            wide = np.frombuffer(view.encode("utf-32-le", "surrogatepass"), dtype="<u4")
            data = np.minimum(wide, 0x7F).astype(np.uint8)
        count = (len(data) - _GRAM) // _STRIDE + 1
        padded = np.zeros(count * _STRIDE, dtype=np.uint8)
        padded[:min(len(data), count * _STRIDE)] = data[:count * _STRIDE]
        windows = np.ascontiguousarray(padded.reshape(count, _STRIDE)[:, :_GRAM]).view(
            "<u4").ravel()
        candidates = np.flatnonzero(table[_slot(windows)])
        found = windows[candidates]
        index = np.minimum(np.searchsorted(codes, found), len(codes) - 1)
        return [int(i) * _STRIDE for i in candidates[codes[index] == found]]

    def viable_suffix(self, view: str) -> int:
        """How many characters at the end of ``view`` more text could make part of a run: the
        longest end that is a piece of some form."""
        size = 0
        while size < min(len(view), self.longest) and view[-size - 1:] in self._joined:
            size += 1
        return size


def _slot(codes: Any) -> Any:
    """Each window's place in the table: a multiplicative hash of all 4 characters (the
    forms' windows share few first characters with text, not only digits and letters)."""
    import numpy as np

    return (codes * np.uint32(_HASH)) >> np.uint32(32 - _TABLE_BITS)


def _code(gram: str) -> int:
    return int.from_bytes(gram.encode("ascii"), "little")


def _grown(view: str, at: int, form: str, offset: int, size: int) -> tuple[int, int]:
    """The span around ``view[at:at + size]`` (``form[offset:offset + size]``) that goes on
    matching ``form`` both ways."""
    a, k = at, offset
    while a > 0 and k > 0 and view[a - 1] == form[k - 1]:
        a -= 1
        k -= 1
    b, m = at + size, offset + size
    while b < len(view) and m < len(form) and view[b] == form[m]:
        b += 1
        m += 1
    return a, b


def merged(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Overlapping or touching spans as one, in order."""
    out: list[tuple[int, int]] = []
    for a, b in sorted(spans):
        if out and a <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], b))
        else:
            out.append((a, b))
    return out
