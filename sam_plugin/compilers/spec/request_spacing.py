"""The element size a request states, as the divisions it makes of the lengths the request
names (docs/architecture.md §4 "The design, asked in parts"): "one element every 500" from
the origin to (0, 0, 3000) is a line of 6; "square quads of 100 mm" on a floor "1.2 m long
and 80 cm wide" is divided 12 by 8; "每 250 一个单元", "单元尺寸 50 mm" alike. A small model
built one beam from end to end, or 10 × 10 quads: it does not divide. The product does, the
way it converts units (``request_quantities.py``), and only where every number agrees: a
length the size does not divide into a whole number of elements (2 or more) is not read.

The lengths, in this order: the line between the two points the request names (its
coordinates, or "the origin"), where they differ along one axis, or anyhow where the words
name a line or a beam; else the lengths it states with a unit, and its bare sizes ("1200 x
800"). Pure: it reads text."""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

from sam_plugin.compilers.spec.request_counts import CountReading
from sam_plugin.compilers.spec.request_quantities import StatedQuantity, convert, quantities_in
from sam_plugin.compilers.spec.request_words import fold
from sam_plugin.compilers.spec.values import number_words
from sam_plugin.compilers.units import UnitSystem

_NUMBER = r"(\d+(?:\.\d+)?)"
_UNIT = r"(?:\s*(?:mm|cm|m|in|millimet(?:er|re)s?|centimet(?:er|re)s?|met(?:er|re)s?|毫米|厘米|米)"\
        r"(?![A-Za-z]))?"
_ELEMENT = (r"(?:(?:square|equal|even|uniform|quad|tri|triangle|beam|shell|line|truss)\s+)?"
            r"(?:elements?|elems?|quads?|tris?|triangles?|beams?|segments?|cells?)")
_SIZE = (
    # "one element every 500", "a beam every 0.5 m"
    rf"\b(?:one|an?|1)\s+{_ELEMENT}\s+every\s+(?P<a>{_NUMBER}{_UNIT})",
    # "element size 100", "mesh size of 20 mm", "element length: 50"
    rf"\b(?:element|elem|mesh|seed|cell|quad|beam)\s+(?:size|length|edge)\s*(?:of|=|:|is)?\s*"
    rf"(?P<b>{_NUMBER}{_UNIT})",
    # "quads of 100 mm", "elements 500 long", "elements of 25 mm each"
    rf"\b{_ELEMENT}\s+(?:of\s+)?(?P<c>{_NUMBER}(?:{_UNIT}\s+(?:long|each|on\s+a\s+side|square)"
    rf"|\s*(?:mm|cm|m|毫米|厘米|米)(?![A-Za-z])))",
    # "100 mm quads", "500 mm long elements"
    rf"(?<![\w.])(?P<d>{_NUMBER}\s*(?:mm|cm|m|毫米|厘米|米))\s+(?:long\s+|square\s+)?{_ELEMENT}\b",
    # "每 500 一个单元", "每隔 250 mm 一个梁单元"
    rf"每(?:隔)?\s*(?P<e>{_NUMBER}{_UNIT})\s*(?:一|1)\s*个?\s*(?:梁|四边形|三角形|壳)?单元",
    # "单元尺寸 100", "网格大小为 20 mm", "单元长度取 50"
    rf"(?:单元|网格)(?:尺寸|长度|大小|边长)\s*(?:为|是|取|=|:|：)?\s*(?P<f>{_NUMBER}{_UNIT})",
)
_SIZES = re.compile("|".join(f"(?:{pattern})" for pattern in _SIZE), re.IGNORECASE)
_TRIPLE = re.compile(r"[(\[]\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*,\s*"
                     r"(-?\d+(?:\.\d+)?)\s*[)\]]")
_ORIGIN = re.compile(r"\b(?:the\s+)?origin\b|原点", re.IGNORECASE)
_LINE_WORDS = re.compile(r"\b(?:line|beams?|column|post|rail|girder|rod|bar|truss)\b|梁|杆|柱",
                         re.IGNORECASE)
_BARE_SIZE = re.compile(r"(?<![\w.,(\[])(\d+(?:\.\d+)?)\s*(?:x|×|by|\*)\s*(\d+(?:\.\d+)?)"
                        r"(?![\w.])(?!\s*(?:mm|cm|m|毫米|厘米|米|elements?|elems?|quads?|tris?|"
                        r"cells?|grid|mesh|个|格))", re.IGNORECASE)


@dataclass(frozen=True)
class Length:
    """A length the request names (``said``: its words), in the one unit all are read in."""

    said: str
    value: float
    divisions: int


@dataclass(frozen=True)
class StatedSpacing:
    """The element size the request states (``said``), in that unit, and the lengths it
    divides into a whole number of elements."""

    said: str
    size: float
    lengths: tuple[Length, ...]

    @property
    def elements(self) -> int | None:
        """The elements it makes: a line's divisions, or a rectangle's two multiplied."""
        if len(self.lengths) not in (1, 2):
            return None
        return math.prod(length.divisions for length in self.lengths)


def spacing_in(request: str, system: UnitSystem | None = None) -> StatedSpacing | None:
    """The one element size the request states and the lengths it divides; None where it
    states none, several, or one that divides no length it names. Without ``system``, a
    request that mixes bare numbers and numbers with a unit is not read (the bare ones are
    in the model's unit, which only the system says)."""
    folded = fold(request)
    sizes = list(_SIZES.finditer(folded))
    if len(sizes) != 1:
        return None
    match = sizes[0]
    said_size = next(g for name, g in match.groupdict().items() if g is not None)
    size = _length(said_size, system)
    unit_lengths = [q for q in quantities_in(folded) if q.kind == "length"
                    and not (match.start() <= _find(folded, q) < match.end())]
    if size is None or size <= 0:
        return None
    lengths = _line(folded) or [(q.said, v) for q in unit_lengths
                                if (v := _quantity(q, system)) is not None] or \
        [(m.group(0), float(x)) for m in _BARE_SIZE.finditer(folded) for x in m.groups()]
    if not lengths or _mixed(said_size, lengths, unit_lengths, system):
        return None
    divided = tuple(Length(said, value, round(value / size)) for said, value in lengths
                    if _whole(value / size))
    if not divided:
        return None
    return StatedSpacing(match.group(0).strip(), size, divided)


def spacing_readings(request: str) -> tuple[CountReading, ...]:
    """The divisions the stated element size makes, one reading per length, for the
    design request's readings line: “one element every 500” = divisions 6 for the line from
    (0, 0, 0) to (0, 0, 3000). Each applies to its length, so that no step's own value is
    compared with it (``count_contradiction.miscounted``); the words say no number in a
    unit, so they hold in any unit system."""
    found = spacing_in(request)
    if found is None:
        return ()
    return tuple(CountReading(found.said, "divisions", length.divisions, applies=length.said)
                 for length in found.lengths)


def _line(folded: str) -> list[tuple[str, float]]:
    """The line between the two points the request names, as one length, where they differ
    along one axis or the words name a line; [] otherwise."""
    points = [tuple(float(x) for x in m.groups()) for m in _TRIPLE.finditer(folded)]
    if _ORIGIN.search(folded):
        points.insert(0, (0.0, 0.0, 0.0))
    distinct = list(dict.fromkeys(points))
    if len(distinct) != 2:
        return []
    start, end = distinct
    differing = sum(1 for a, b in zip(start, end, strict=True) if a != b)
    if differing != 1 and not _LINE_WORDS.search(folded):
        return []
    return [(f"the line from {_point(start)} to {_point(end)}", math.dist(start, end))]


def _length(said: str, system: UnitSystem | None) -> float | None:
    stated = [q for q in quantities_in(said) if q.kind == "length"]
    if stated:
        return _quantity(stated[0], system)
    number = re.match(_NUMBER, said.strip())
    return float(number.group(1)) if number else None


def _quantity(quantity: StatedQuantity, system: UnitSystem | None) -> float | None:
    """A length with a unit, in the system's unit (without one: in mm, which only compares
    with other lengths that state a unit)."""
    if system is not None:
        return quantity.value_in(system)
    return convert(quantity.value, quantity.unit, "mm")


def _mixed(said_size: str, lengths: Sequence[tuple[str, float]],
           unit_lengths: Sequence[StatedQuantity], system: UnitSystem | None) -> bool:
    """Bare numbers and numbers with a unit together, with no system to relate them."""
    if system is not None:
        return False
    size_has_unit = bool(quantities_in(said_size))
    lengths_have_units = bool(unit_lengths) and all(
        any(q.said == said for q in unit_lengths) for said, _ in lengths)
    return size_has_unit != lengths_have_units


def _find(folded: str, quantity: StatedQuantity) -> int:
    return folded.find(quantity.said)


def _whole(ratio: float) -> bool:
    return ratio >= 1.5 and math.isclose(ratio, round(ratio), rel_tol=0, abs_tol=1e-6)


def _point(point: Sequence[float]) -> str:
    return "(" + ", ".join(number_words(x + 0.0) for x in point) + ")"
