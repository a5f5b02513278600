"""The stretches of a part a request names by a coordinate ("x from 0 to 10", "between x = 0
and x = 10", "0 <= y <= 5", "x 从 0 到 10"), read as words for the places line
(``request_places.py``): the box that holds the part's whole extent, but along that axis
only the stretch named. Pure: it reads text."""

from __future__ import annotations

import re
from dataclasses import dataclass

from sam_plugin.compilers.spec.request_words import fold

_NUMBER = r"(-?\d+(?:\.\d+)?)"
_AXIS = r"(?<![\w.])([xyzXYZ])(?![\w])"
_TO = r"(?:to|and|through|-|–|~|\.\.|到|至)"
_SPANS = (
    # "x from 0 to 10", "x = 0..10", "x 从 0 到 10", "x 在 0 到 10 之间", "x=0 到 x=10"
    re.compile(rf"{_AXIS}\s*(?:=|:)?\s*(?:from|between|从|在|为)?\s*{_NUMBER}\s*(?:mm\s*)?"
               rf"{_TO}\s*(?:[xyzXYZ]\s*=\s*)?{_NUMBER}", re.IGNORECASE),
    # "between x = 0 and x = 10"
    re.compile(rf"between\s+{_AXIS}\s*=\s*{_NUMBER}\s+and\s+[xyzXYZ]\s*=\s*{_NUMBER}",
               re.IGNORECASE),
)
_BOUNDED = re.compile(rf"{_NUMBER}\s*(?:<=?|≤)\s*{_AXIS}\s*(?:<=?|≤)\s*{_NUMBER}")


@dataclass(frozen=True)
class CoordinateSpan:
    """A stretch along one axis (0, 1, 2 for X, Y, Z) from ``low`` to ``high``, as the words
    said it (``said``)."""

    said: str
    axis: int
    low: float
    high: float


def spans_in(request: str) -> list[CoordinateSpan]:
    """Every stretch ``request`` names by a coordinate, in order, each once."""
    folded = fold(request)
    found: list[tuple[int, CoordinateSpan]] = []
    for pattern in _SPANS:
        for match in pattern.finditer(folded):
            axis, first, last = match.groups()
            found.append((match.start(), _span(match.group(0), axis, first, last)))
    for match in _BOUNDED.finditer(folded):
        first, axis, last = match.groups()
        found.append((match.start(), _span(match.group(0), axis, first, last)))
    spans: list[CoordinateSpan] = []
    for _, span in sorted(found, key=lambda item: item[0]):
        if not any((s.axis, s.low, s.high) == (span.axis, span.low, span.high) for s in spans):
            spans.append(span)
    return spans


def _span(said: str, axis: str, first: str, last: str) -> CoordinateSpan:
    low, high = sorted((float(first), float(last)))
    return CoordinateSpan(said.strip(), "xyz".index(axis.lower()), low, high)
