"""The numbers a person's words state (docs/architecture.md §4 "The spec"), read as words.

A request is folded first (:func:`fold`: NFKC, so full-width digits and ligatures read as
plain ones, and typographic quotes as straight ones: "Don’t" is "Don't"), then read by
whole words: "extend" does not state ten nor "height" eight, "S1" is a name and states no 1,
and a Chinese numeral states a number only where it stands as one, before a measure word
("两次", "九十度") or after "第": "四边形" states no 4.

- A range ("1-4", "2 to 9", "1至4") states its two ends; the whole numbers between them
  only when it names labels ("elements 1-4", "1-4号单元"), and then only for a scope:
  "ticket 100-2000" states 100 and 2000, not 1,500.
- A sign is stated as written: "-5" states −5, and "by 50" states 50; −50 is stated only
  where the words name a negative direction ("down", "left", "向下").
- Some words state a number of their own: "twice" 2, "half" 0.5, "a quarter turn" 90
  (degrees), "a half turn" 180, "直角" 90.
"""

from __future__ import annotations

import math
import re
import unicodedata
from dataclasses import dataclass

# typographic quotes and primes, as a person's keyboard types them, folded to straight ones
_QUOTES = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201a": "'", "\u201b": "'",
                         "\u02bc": "'", "\u2032": "'", "\u00b4": "'", "`": "'",
                         "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u201f": '"',
                         "\u2033": '"', "\u00ab": '"', "\u00bb": '"'})


# words after which a request gives a name, not a thing ("a step called Lift", "set TRIS",
# "叫 PIN"): matched on the text that ends where the word begins
NAMING = re.compile(r"(?:\b(?:called|named|name|label(?:led)?|sets?)\s+|叫(?:做)?\s*|名为\s*)$",
                    re.IGNORECASE)


def fold(text: str) -> str:
    """``text`` as the readers here read it: NFKC, typographic quotes made straight."""
    return unicodedata.normalize("NFKC", text).translate(_QUOTES)


_DASH = r"(?:-|–|—|~|\.\.|to|through|thru|至|到)"
_INT = r"(?<![\w.])(\d+)"
_RANGE = re.compile(rf"{_INT}\s*{_DASH}\s*(\d+)(?!\d|\.\d)", re.IGNORECASE)
_LABEL_NOUN = r"(?:elements?|nodes?|labels?|ids?|单元|节点|编号)"
_LABEL_RANGE = re.compile(
    rf"{_LABEL_NOUN}\s*(?:#|no\.?|nos\.?|labels?|ids?)?\s*(\d+)\s*{_DASH}\s*(\d+)(?!\d|\.\d)"
    rf"|(?<![\w.])(\d+)\s*{_DASH}\s*(\d+)\s*号?\s*(?:单元|节点)", re.IGNORECASE)
RANGE_MAX_SPAN = 10_000  # a label range a request states; longer ones state their ends only
_LABEL_DIGITS = 12
# a number in digits: not inside a name ("S1", "Plate-2"); its sign as written
_NUMBER = re.compile(r"(?<![A-Za-z0-9_.])(-|\+|−)?((?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?)")
_TIMES = re.compile(r"(\d)\s*[x×X*]\s*(\d)")  # "2x2": two numbers
_GLUED = re.compile(r"\b(nodes?|elements?|elems?|labels?|ids?)(\d)", re.IGNORECASE)  # "node4"
# words that state a number (whole words only)
NUMBER_WORDS = {"once": 1, "twice": 2, "thrice": 3, "double": 2, "triple": 3, "half": 0.5,
          "quarter": 0.25, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
          "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
          "twenty": 20, "hundred": 100, "thousand": 1000, "single": 1, "pair": 2}
_WORD = re.compile(r"\b(" + "|".join(NUMBER_WORDS) + r")\b", re.IGNORECASE)
# words that state an angle, in degrees
_ANGLES = re.compile(
    r"\b(?:a\s+|one\s+)?(quarter|half|full|whole|three[- ]quarters?(?: of a)?)[- ]?"
    r"(?:turn|rotation|revolution|circle)\b|\b(right)[- ]angle\b"
    r"|(四分之一|半|一|整|四分之三)(?:圈|周|转)|(直)角", re.IGNORECASE)
_ANGLE_OF = {"quarter": 90.0, "half": 180.0, "full": 360.0, "whole": 360.0, "right": 90.0,
             "四分之一": 90.0, "半": 180.0, "一": 360.0, "整": 360.0, "四分之三": 270.0,
             "直": 90.0}
# a Chinese numeral standing as a number: after 第, or before a measure word or a unit
_ZH_DIGITS = "零〇一二两三四五六七八九"
_ZH_NUMERAL = re.compile(
    rf"(第)?([{_ZH_DIGITS}十百千万]+)\s*"
    r"(个|次|遍|倍|份|层|级|度|°|毫米|厘米|米|列|行|段|条|圈|块|组|号|根|等分|排|格|层级|mm|cm|m\b)?")
_ZH_VALUE = {c: i for i, c in enumerate("零一二三四五六七八九")} | {"〇": 0, "两": 2}
_ZH_UNIT = {"十": 10, "百": 100, "千": 1000, "万": 10_000}
_NEGATIVE = re.compile(
    r"\b(?:down(?:wards?)?|left(?:wards?)?|back(?:wards?)?|negative|minus|opposite|reversed?)\b"
    r"|(?<![\w.])[-−][xyz]\b|向下|向左|向后|下移|左移|后移|负|反向",
    re.IGNORECASE)


@dataclass(frozen=True)
class StatedNumbers:
    """What a text states: ``numbers`` (signed as written, and the angle words), ``labels``
    (the whole numbers of ranges that name labels) and whether it names a negative
    direction (``negative``)."""

    numbers: frozenset[float] = frozenset()
    labels: frozenset[float] = frozenset()
    negative: bool = False

    def __or__(self, other: StatedNumbers) -> StatedNumbers:
        return StatedNumbers(self.numbers | other.numbers, self.labels | other.labels,
                             self.negative or other.negative)


def stated_numbers(text: str) -> StatedNumbers:
    """The numbers ``text`` states, read as words (see the module doc)."""
    folded = _GLUED.sub(r"\1 \2", fold(text))
    labels = _label_ranges(folded)
    numbers: set[float] = set()
    for match in _RANGE.finditer(folded):
        numbers |= {float(n) for n in match.groups() if math.isfinite(float(n))}
    rest = _TIMES.sub(r"\1 x \2", _RANGE.sub(" ", folded))
    for sign, digits in _NUMBER.findall(rest):
        value = float(digits)
        if math.isfinite(value):
            numbers.add(-value if sign in ("-", "−") else value)
    numbers |= {float(NUMBER_WORDS[w.lower()]) for w in _WORD.findall(folded)}
    numbers |= set(angle_words(folded))
    numbers |= set(chinese_numbers(folded))
    return StatedNumbers(frozenset(numbers), frozenset(labels),
                         _NEGATIVE.search(folded) is not None)


def _label_ranges(folded: str) -> set[float]:
    found: set[float] = set()
    for match in _LABEL_RANGE.finditer(folded):
        first, last = (match.group(1), match.group(2)) if match.group(1) else \
            (match.group(3), match.group(4))
        if max(len(first), len(last)) > _LABEL_DIGITS:
            continue  # no label has that many digits (and no int is read from them)
        low, high = int(first), int(last)
        if 0 < high - low <= RANGE_MAX_SPAN:
            found |= {float(n) for n in range(low, high + 1)}
    return found


def angle_words(folded: str) -> list[float]:
    """The angles, in degrees, that words state: "a quarter turn" 90, "半圈" 180."""
    found = []
    for match in _ANGLES.finditer(folded):
        word = next(g for g in match.groups() if g is not None).lower()
        found.append(270.0 if word.startswith("three") else _ANGLE_OF[word])
    return found


def chinese_numbers(folded: str) -> list[float]:
    """The Chinese numerals that stand as numbers: "两次" 2, "第四" 4, "九十度" 90; "四边形",
    "一起" and "统一" state none."""
    found = []
    for match in _ZH_NUMERAL.finditer(folded):
        ordinal, numeral, measure = match.groups()
        if ordinal or measure:
            value = chinese_value(numeral)
            if value is not None:
                found.append(float(value))
    if "一半" in folded:
        found.append(0.5)
    return found


def chinese_value(numeral: str) -> int | None:
    """``九十`` 90, ``一百二十`` 120, ``两千`` 2000, ``十二`` 12; ``None`` when it is no
    numeral a person writes."""
    total, digit, seen = 0, None, False
    for char in numeral:
        if char in _ZH_VALUE:
            if digit is not None:
                return None  # "一二": not one number
            digit = _ZH_VALUE[char]
        else:
            unit = _ZH_UNIT[char]
            total += (1 if digit is None else digit) * unit
            digit, seen = None, True
    if digit is not None:
        total += digit
    return total if (seen or len(numeral) == 1) else None
