"""The counts a person's words state indirectly (docs/architecture.md §4 "The design, asked
in parts"): "twice as fine", "split into 16", "in half", "four more times", "3 total",
"再排两块", "一分为四". A small model turns these into a mode's values wrongly ("twice as
fine" as 2 levels, "3 total" as 3 new copies), as it would convert units; the product
reads them, and a domain states what they are in its own values (``CountReading``), the way
the request's quantities are converted (``request_quantities.py``). Pure: it reads text.

Kinds of count:
- ``finer``: how many times finer each element edge becomes ("twice as fine": 2);
- ``pieces``: how many pieces each element splits into ("into 16", "in half": 2);
- ``more``: new instances besides the original ("four more times", "再排两块": 4, 2);
- ``total``: instances in all, the original counted ("3 total", "一共三块").
``more`` and ``total`` are read only where the words copy or repeat something.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from sam_plugin.compilers.spec.request_words import NUMBER_WORDS, chinese_value, fold

CountKind = Literal["finer", "pieces", "more", "total"]

# the whole numbers words say, beyond those a request's numbers are read with
_COUNT_WORDS = {w: n for w, n in NUMBER_WORDS.items() if isinstance(n, int) and n > 1} | {
    "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17,
    "eighteen": 18, "nineteen": 19, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60}
_COUNT_WORDS |= {f"{tens}{dash}{unit}": _COUNT_WORDS[tens] + _COUNT_WORDS.get(unit, 1)
                 for tens in ("twenty", "thirty", "forty", "fifty", "sixty")
                 for unit in ("one", "two", "three", "four", "five", "six", "seven", "eight",
                              "nine") for dash in ("-", " ")}
# a whole number in words or digits, English and Chinese (one group each)
COUNT_EN = _EN = r"(\d{1,3}|" + "|".join(sorted(_COUNT_WORDS, key=len, reverse=True)) + ")"
COUNT_ZH = _ZH = r"(\d{1,3}|[一二两三四五六七八九十]{1,3})"
_SPLIT = r"(?:split|divide|subdivide|cut|break|chop|slice)"
_PIECES = (r"(?:smaller\s+|equal\s+|sub-?)?(?:pieces|parts|elements|elems|quads|tris|"
           r"triangles|beams|segments|cells|bits)")
_NOT_A_GRID = r"(?!\s*(?:by|x|×|\*)\s*\w)"  # "into 4 by 4 elements" is a grid, not 4 pieces
# "two more nodes" adds entities, it copies nothing
_NOT_ADDED = (r"(?!\s+(?:free\s+)?(?:nodes?|elements?|elems?|quads?|tris?|triangles?|beams?|"
              r"sets?|levels?)\b)")
_READERS: tuple[tuple[CountKind, re.Pattern[str]], ...] = (
    ("finer", re.compile(rf"\b(?:(twice|double)|{_EN}\s*(?:times|x|-?fold))\s+(?:as\s+)?"
                         r"(?:fine|finer|dense|denser|small|smaller|refined)\b", re.IGNORECASE)),
    ("finer", re.compile(r"(?:加密|细化|加细|密)\s*(?:到|为|成)?\s*(?:原来的)?\s*" + _ZH
                         + r"\s*倍")),
    ("pieces", re.compile(rf"\b{_SPLIT}\w*\b[^.;:!?\n]{{0,40}}?\b(?P<said>into\s+{_EN})\b"
                          rf"{_NOT_A_GRID}", re.IGNORECASE)),
    ("pieces", re.compile(rf"\binto\s+{_EN}\s+{_PIECES}\b", re.IGNORECASE)),
    ("pieces", re.compile(r"(?:一分为|分成|分为|拆成|拆分成|切成|划分为|划分成|细分为|细分成)\s*"
                          + _ZH)),
    ("more", re.compile(rf"\b{_EN}\s+(?:more|additional|extra|further)\b{_NOT_ADDED}",
                        re.IGNORECASE)),
    ("more", re.compile(rf"\banother\s+{_EN}\b", re.IGNORECASE)),
    ("more", re.compile(r"(?:再|另外|另)\s*(?:排|复制|做|加|阵列|放|拷贝|生成|添)?\s*" + _ZH
                        + r"\s*(?:个|块|份|次|排|组|根|遍)")),
    ("total", re.compile(rf"\b{_EN}\s+(?:(?:times|copies|instances|pieces)\s+)?"
                         r"(?:in\s+total|total|in\s+all|altogether)\b",
                         re.IGNORECASE)),
    ("total", re.compile(rf"\b(?:a\s+)?total\s+(?:of\s+)?{_EN}\b", re.IGNORECASE)),
    ("total", re.compile(r"(?:总共|一共|共计|共)\s*" + _ZH + r"\s*(?:个|块|份|排|组|根)")),
)
_HALF = re.compile(r"\b(?:in|into)\s+(?:half|halves)\b|\bhalve\w*\b|对半|一分为二", re.IGNORECASE)
_HALF_SIZE = re.compile(r"\bhal(?:f|ve)\s+(?:the\s+)?(?:element\s+|mesh\s+|cell\s+)?size\b"
                        r"|\b(?:element|mesh|cell)\s+size\s+halved\b|尺寸减半", re.IGNORECASE)
_COPYING = re.compile(r"repeat|cop(?:y|ies)|array|duplicat|pattern|instances?|\btimes\b|"
                      r"clone|复制|阵列|排|重复|拷贝", re.IGNORECASE)


@dataclass(frozen=True)
class StatedCount:
    """A count the request states indirectly: its ``kind``, the number (``value``) and the
    words as written (``said``)."""

    kind: CountKind
    value: int
    said: str


@dataclass(frozen=True)
class CountReading:
    """What a stated count is in a mode's values: the request's words (``said``), the value
    key a step writes (``key``) and its ``value``, for which entities (``applies``: ``""``,
    or words such as ``QUAD or TRI elements``) and a short reason (``because``)."""

    said: str
    key: str
    value: int
    applies: str = ""
    because: str = ""


def counts_in(text: str) -> list[StatedCount]:
    """Every count ``text`` states indirectly, in order of kind, then of place."""
    folded = fold(text)
    copying = _COPYING.search(folded) is not None
    found: list[tuple[int, int, StatedCount]] = []
    for kind, pattern in _READERS:
        if kind in ("more", "total") and not copying:
            continue
        for match in pattern.finditer(folded):
            number = next(g for g in match.groups() if g is not None and g != match["said"]
                          ) if "said" in pattern.groupindex else \
                next(g for g in match.groups() if g is not None)
            value = _number(number)
            said = match["said"] if "said" in pattern.groupindex else match.group(0)
            if value is not None and value > 1:
                found.append((*match.span(), StatedCount(kind, value, said.strip())))
    found += [(*m.span(), StatedCount("finer", 2, m.group(0)))
              for m in _HALF_SIZE.finditer(folded)]
    found += [(*m.span(), StatedCount("pieces", 2, m.group(0))) for m in _HALF.finditer(folded)]
    return _distinct(found)


def counts_words(readings: Iterable[CountReading]) -> str:
    """``The request's counts in this mode's values (write these numbers): “twice as fine”
    = levels 1 (each element edge halved once); “into 4” = levels 1 for QUAD or TRI
    elements, levels 2 for BEAM elements.``; ``""`` when there are none."""
    by_said: dict[str, list[CountReading]] = {}
    for reading in readings:
        by_said.setdefault(reading.said, []).append(reading)
    if not by_said:
        return ""
    said = [f"“{words}” = " + ", ".join(_value_words(r) for r in group)
            for words, group in by_said.items()]
    return ("The request's counts in this mode's values (write these numbers): "
            + "; ".join(said) + ".")


def _value_words(reading: CountReading) -> str:
    words = f"{reading.key} {reading.value}"
    if reading.applies:
        words += f" for {reading.applies}"
    return f"{words} ({reading.because})" if reading.because else words


def count_number(word: str) -> int | None:
    """The whole number ``word`` says (digits, English or Chinese words), else None."""
    return _number(word)


def _number(word: str) -> int | None:
    if word.isdigit():
        return int(word)
    lowered = word.lower()
    if lowered in ("twice", "double"):
        return 2
    if lowered in _COUNT_WORDS:
        return _COUNT_WORDS[lowered]
    if re.fullmatch(r"\w+\s+\w+", lowered):  # "sixty  four", spaced another way
        return _COUNT_WORDS.get(" ".join(lowered.split()))
    return chinese_value(word)


def _distinct(found: list[tuple[int, int, StatedCount]]) -> list[StatedCount]:
    """Each count once: of the readings whose words overlap ("into 16" and "into 16
    smaller quads", "halve" in "halve the element size") or that say the same count ("into
    two halves"), the first read."""
    kept: list[tuple[int, int, StatedCount]] = []
    for start, end, count in found:
        if not any(start < k_end and k_start < end or (kept_count.kind, kept_count.value)
                   == (count.kind, count.value) for k_start, k_end, kept_count in kept):
            kept.append((start, end, count))
    return [count for _, _, count in kept]
