"""The views of a text in which the scrubber looks for the key (docs/architecture.md §7).

A provider can echo a key spread out or dressed up: split by spaces, line breaks or
zero-width characters, in fullwidth or other compatibility letters, behind JSON or Python
escapes, %-encoded. A view undoes that:

- the *folded* view drops whitespace, control characters (but NUL, :data:`SEPARATOR`),
  invisible characters (format characters such as U+200B, variation selectors, fillers) and
  combining marks (an accent put on each letter of the key), and folds every other non-ASCII
  character by NFKC (fullwidth ``ｓ`` is ``s``);
- a *decoded* view (made only where the one before holds a backslash, a percent sign or
  ``&#``) decodes ``\\uXXXX`` (surrogate pairs too), ``\\xXX``, ``\\c``, ``%XX`` (UTF-8
  sequences too) and HTML character references (``&#115;``, ``&#x73;``) of the view before
  it, then folds again: up to :data:`DECODE_LEVELS` deep, for a key
  escaped inside JSON that is escaped again.

A view is made in two ways that give the same string: fast (:func:`views`: bulk string
operations, for the common case that nothing is found) and mapped (:func:`mapped_views`:
with the span of the text each view character comes from) when something is.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass

SEPARATOR = "\x00"  # joins strings looked at together: never dropped, never decoded into
DECODE_LEVELS = 2
# the longest escape (a surrogate pair, ``\\uD83D\\uDC2C``; 4 %-encoded bytes)
LONGEST_ESCAPE = 12

# invisible characters that are not format characters (Cf, all dropped): combining grapheme
# joiner, Hangul fillers, Khmer vowel inherents, Mongolian variation selectors, braille blank
_INVISIBLE = frozenset(map(chr, (0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x180B, 0x180C,
                                 0x180D, 0x180F, 0x2800, 0x3164, 0xFFA0)))
_ESCAPE = re.compile(r"\\u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}"
                     r"|\\u[0-9a-fA-F]{4}|\\x[0-9a-fA-F]{2}|\\[^\x00]|(?:%[0-9a-fA-F]{2})+"
                     r"|&#[0-9]{1,7};|&#[xX][0-9a-fA-F]{1,6};")
# the end of a text that more text could make an escape of (or longer): a backslash, ``\u``
# with fewer than 4 hex digits, ``\x`` with fewer than 2, a high surrogate and what may
# begin its low one
_UNFINISHED_ESCAPE = re.compile(
    r"(?:\\u[dD][89abAB][0-9a-fA-F]{2})?"
    r"\\(?:u[0-9a-fA-F]{0,3}|x[0-9a-fA-F]?|u[dD](?:[c-fC-F][0-9a-fA-F]?)?)?\Z"
    r"|\\u[dD][89abAB][0-9a-fA-F]{2}\Z"
    r"|&(?:#(?:[xX][0-9a-fA-F]{0,6}|[0-9]{0,7}))?\Z")
_SIMPLE_ESCAPES = {"b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}
_HEX = frozenset("0123456789abcdefABCDEF")


def _dropped(char: str) -> bool:
    if char == SEPARATOR:
        return False
    if char.isspace():
        return True
    code = ord(char)
    return (unicodedata.category(char) in ("Cc", "Cf", "Mn") or char in _INVISIBLE
            or 0xFE00 <= code <= 0xFE0F or 0xE0100 <= code <= 0xE01EF)


class _Folded(dict[str, str]):
    """Each character as the folded view has it: "" when dropped, else its NFKC form."""

    def __missing__(self, char: str) -> str:
        if _dropped(char):
            folded = ""
        elif char.isascii() or 0xD800 <= ord(char) <= 0xDFFF:  # a lone surrogate stays
            folded = char
        else:
            folded = "".join(c for c in unicodedata.normalize("NFKC", char) if not _dropped(c))
        self[char] = folded
        return folded


_FOLDED = _Folded()
_ASCII_DROPPED = {code: None for code in range(128) if _FOLDED[chr(code)] == ""}
_ASCII_DROPPED_CHARS = frozenset(map(chr, _ASCII_DROPPED))
_ASCII_SPACES = tuple(chr(code) for code in range(128) if chr(code).isspace())
# characters that fold to themselves, in the blocks most non-ASCII text is written in (Latin,
# Greek, Cyrillic, CJK punctuation, kana, ideographs, Hangul; a test holds it): a text of
# them, ASCII and spacing is folded without a look at each character
_STABLE_RANGES = ((0x00C0, 0x0131), (0x0134, 0x013E), (0x0141, 0x0148), (0x014A, 0x017E),
                  (0x0180, 0x01C3), (0x01CD, 0x01F0), (0x01F4, 0x024F), (0x0388, 0x03CF),
                  (0x03D7, 0x03EF), (0x03FA, 0x0482), (0x0488, 0x052F), (0x3001, 0x3029),
                  (0x302E, 0x3035), (0x303B, 0x3098),
                  (0x30A0, 0x30FE), (0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xAC00, 0xD7A3))
_MAYBE_CHANGING = re.compile("[^\x00\x09-\x0d\x1c-\x7e" + "".join(
    f"{chr(low)}-{chr(high)}" for low, high in _STABLE_RANGES) + "]")


def fold_char(char: str) -> str:
    """One character as the folded view has it ("" when it is dropped)."""
    return _FOLDED[char]


def fold(text: str) -> str:
    """The folded view of ``text``, by bulk string operations: each character it holds that
    folds to something else is replaced throughout at once."""
    if text.isascii():
        return text.translate(_ASCII_DROPPED)
    for char in set(_MAYBE_CHANGING.findall(text)):
        folded = _FOLDED[char]
        if folded != char:
            text = text.replace(char, folded)
    for char in _ASCII_SPACES:
        if char in text:
            text = text.replace(char, "")
    return text


def decode(text: str) -> str:
    return _ESCAPE.sub(_decoded_text, text)


def _decoded_text(match: re.Match[str]) -> str:
    return "".join(char for char, _, _ in _decoded(match.group()))


def _decoded(escape: str) -> list[tuple[str, int, int]]:
    """The characters one escape (a match of ``_ESCAPE``) stands for, each with its span in
    it; an escaped NUL stands for nothing (it must not become a separator)."""
    if escape[0] == "%":
        return _percent_decoded(escape)
    if escape[0] == "&":  # an HTML character reference, &#115; or &#x73;
        hexadecimal = escape[2] in "xX"
        code = int(escape[3 if hexadecimal else 2:-1], 16 if hexadecimal else 10)
        if code > 0x10FFFF:  # no character: it stays as it is written
            return [(c, k, k + 1) for k, c in enumerate(escape)]
        return [] if code == 0 else [(chr(code), 0, len(escape))]
    kind = escape[1]
    if kind == "u" and len(escape) == 12:
        high, low = int(escape[2:6], 16), int(escape[8:12], 16)
        char = chr(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
    elif kind == "u" and len(escape) == 6:
        char = chr(int(escape[2:6], 16))
    elif kind == "x" and len(escape) == 4:
        char = chr(int(escape[2:4], 16))
    else:
        char = _SIMPLE_ESCAPES.get(kind, kind)
    return [] if char == SEPARATOR else [(char, 0, len(escape))]


def _percent_decoded(run: str) -> list[tuple[str, int, int]]:
    """``%XX%YY…``: each UTF-8 sequence one character; a byte that is not part of one stays
    as its three characters."""
    data = bytes.fromhex(run.replace("%", ""))
    out: list[tuple[str, int, int]] = []
    i = 0
    while i < len(data):
        size = utf8_size(data[i])
        try:
            char = data[i:i + size].decode("utf-8") if i + size <= len(data) else None
        except UnicodeDecodeError:
            char = None
        if char is None:
            out += [(c, 3 * i + k, 3 * i + k + 1) for k, c in enumerate(run[3 * i:3 * i + 3])]
            i += 1
            continue
        if char != SEPARATOR:
            out.append((char, 3 * i, 3 * (i + size)))
        i += size
    return out


def utf8_size(lead: int) -> int:
    """The length of the UTF-8 sequence that ``lead`` begins (1 for ASCII or a bad lead)."""
    if 0xC2 <= lead <= 0xDF:
        return 2
    if 0xE0 <= lead <= 0xEF:
        return 3
    return 4 if 0xF0 <= lead <= 0xF4 else 1


def _may_decode(view: str) -> bool:
    return "\\" in view or "%" in view or "&#" in view


def views(text: str) -> Iterator[str]:
    """The folded view, then each decoded one (made only when the one before can change)."""
    current = fold(text)
    yield current
    for _ in range(DECODE_LEVELS):
        if not _may_decode(current):
            return
        decoded = fold(decode(current))
        if decoded == current:
            return
        yield decoded
        current = decoded


@dataclass(frozen=True)
class View:
    """A view with, for each of its characters, where in the text it begins and ends, and
    where in the folded view (level 0) it begins."""

    text: str
    starts: list[int]
    ends: list[int]
    base: list[int]
    level: int

    def span(self, a: int, b: int) -> tuple[int, int]:
        """The span of the text that view characters ``[a, b)`` come from."""
        return self.starts[a], self.ends[b - 1]


def mapped_views(text: str) -> list[View]:
    """The views of :func:`views`, each with its characters' places in ``text``."""
    folded, starts = _fold_mapped(text)
    current = View(folded, starts, [s + 1 for s in starts], list(range(len(folded))), 0)
    found = [current]
    for level in range(1, DECODE_LEVELS + 1):
        if not _may_decode(current.text):
            break
        decoded, d_starts, d_ends = _decode_mapped(current.text)
        refolded, f_starts = _fold_mapped(decoded)
        if refolded == current.text:
            break
        inner = [d_starts[i] for i in f_starts]  # in current.text
        current = View(refolded, [current.starts[i] for i in inner],
                       [current.ends[d_ends[i] - 1] for i in f_starts],
                       [current.base[i] for i in inner], level)
        found.append(current)
    return found


def _fold_mapped(text: str) -> tuple[str, list[int]]:
    if text.isascii():
        return text.translate(_ASCII_DROPPED), [
            i for i, char in enumerate(text) if char not in _ASCII_DROPPED_CHARS]
    folded = [_FOLDED[char] for char in text]
    return "".join(folded), [i for i, each in enumerate(folded) for _ in each]


def _decode_mapped(text: str) -> tuple[str, list[int], list[int]]:
    out: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    last = 0
    for match in _ESCAPE.finditer(text):
        out.append(text[last:match.start()])
        starts += range(last, match.start())
        ends += range(last + 1, match.start() + 1)
        for char, a, b in _decoded(match.group()):
            out.append(char)
            starts.append(match.start() + a)
            ends.append(match.start() + b)
        last = match.end()
    out.append(text[last:])
    starts += range(last, len(text))
    ends += range(last + 1, len(text) + 1)
    return "".join(out), starts, ends


def pending_from(view: str) -> int:
    """Where an escape or a %-encoded sequence at the end of ``view`` begins that more text
    could still make longer (it decodes otherwise then), or ``len(view)``."""
    cut = len(view)
    unfinished = _UNFINISHED_ESCAPE.search(view, max(0, cut - LONGEST_ESCAPE))
    if unfinished is not None and (view[unfinished.start()] == "&"
                                   or _opens_escape(view, unfinished.start())):
        cut = unfinished.start()
    return min(cut, _partial_percent(view))


def _opens_escape(view: str, at: int) -> bool:
    """Whether the backslash at ``at`` begins an escape (an odd run of backslashes ends
    there), as the left-to-right decoding reads it."""
    run = 0
    while at - run >= 0 and view[at - run] == "\\":
        run += 1
    return run % 2 == 1


def _partial_percent(view: str) -> int:
    """Where an unfinished ``%X`` or an unfinished UTF-8 sequence of %-encoded bytes at the
    end of ``view`` begins, or ``len(view)``."""
    end = len(view)
    if view.endswith("%"):
        end -= 1
    elif len(view) >= 2 and view[-2] == "%" and view[-1] in _HEX:
        end -= 2
    for count in range(1, 4):
        start = end - 3 * count
        if start < 0 or view[start] != "%" or not (view[start + 1] in _HEX
                                                   and view[start + 2] in _HEX):
            break
        byte = int(view[start + 1:start + 3], 16)
        if byte & 0xC0 != 0x80:  # a lead: the sequence it begins is unfinished or not
            return start if utf8_size(byte) > count else end
    return end


def window_start(text: str, size: int) -> int:
    """Where a look at the last ``size`` characters of ``text`` may begin: never right after a
    character that folds to a backslash or to nothing (the decoding would read it otherwise)."""
    start = max(0, len(text) - size)
    while start > 0 and _FOLDED[text[start - 1]] in ("", "\\"):
        start -= 1
    return start
