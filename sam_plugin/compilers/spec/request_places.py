"""The places a request names on a flat part ("the left half", "the top edge", "the four
elements in the middle", "左下角"), read as words and made into the part's own boxes and
points by the product (docs/architecture.md §4 "Places"): a small model does not do a
bounding box's arithmetic, as it does not convert units, so the design request states each
place the request names as the box or point that picks it, and the model copies numbers.

Read only where a person typed them; said only for a part that lies in one plane (two of
its three extents nonzero: its first in-plane axis runs left to right, its second bottom to
top). A box picks an element when all its nodes lie in it (DESIGN "selectors"): a half holds
the elements of that half, the middle the elements within the middle half each way, a row or
column the elements of the outermost strip, an edge the nodes on it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from sam_plugin.compilers.spec.request_spans import spans_in
from sam_plugin.compilers.spec.values import number_words

Side = Literal["left", "right", "bottom", "top"]
Kind = Literal["middle", "centre", "half", "quarter", "corner", "edge", "row", "span"]
Vec3 = tuple[float, float, float]

_SIDE: dict[str, Side] = {
    "left": "left", "leftmost": "left", "right": "right", "rightmost": "right",
    "top": "top", "topmost": "top", "upper": "top", "uppermost": "top",
    "bottom": "bottom", "bottommost": "bottom", "lower": "bottom", "lowest": "bottom",
    "左": "left", "右": "right", "上": "top", "顶": "top", "下": "bottom", "底": "bottom",
}
_HAND = r"(?:[\s-]*hand)?"
_V = r"(top|bottom|upper|lower)"
_H = r"(left|right)"
_ONE = r"(left|right|top|bottom|upper|lower|leftmost|rightmost|topmost|uppermost|bottommost|lowest)"
_EN: tuple[tuple[Kind, re.Pattern[str]], ...] = (
    ("quarter", re.compile(rf"\b{_V}[\s-]*{_H}{_HAND}\s+quarter\b", re.I)),
    ("quarter", re.compile(rf"\b{_H}[\s-]*{_V}\s+quarter\b", re.I)),
    ("corner", re.compile(rf"\b{_V}[\s-]*{_H}{_HAND}\s+corner\b", re.I)),
    ("corner", re.compile(rf"\b{_H}[\s-]*{_V}\s+corner\b", re.I)),
    ("half", re.compile(rf"\b{_ONE}{_HAND}\s+half\b", re.I)),
    ("row", re.compile(rf"\b{_ONE}{_HAND}\s+(?:row|column|strip)\b", re.I)),
    ("edge", re.compile(rf"\b{_ONE}{_HAND}\s+(?:edge|side|end|boundary)\b", re.I)),
    ("middle", re.compile(r"\b(?:middle|centre|center|central)\b", re.I)),
    ("centre", re.compile(r"\b(?:centred|centered)\b", re.I)),  # "staying centred": its centre
)
# the middle as a point: what a rotation or a scale is about, where a node goes, the node
# there ("about the middle", "25 above the middle", "the centre node", "以中心为", "中心节点")
_AT_EN = re.compile(r"\b(?:about|around|through|at|above|over|below|under|from|to)\s+(?:the\s+)?"
                    r"(?:\w+'s\s+)?(?:own\s+)?$", re.I)
_POINT_EN = re.compile(r"^\s*(?:node|point)s?\b", re.I)
_OFFSET_EN = re.compile(r"(\d+(?:\.\d+)?)\s*(?:mm\s+|units?\s+)?(above|over|below|under)\s+"
                        r"(?:the\s+)?(?:\w+'s\s+)?$", re.I)
_AT_ZH = re.compile(r"以[^，。,]{0,8}$")
_POINT_ZH = re.compile(r"^(?:的|那个|那一个)?(?:节点|点)")
# a centre that is another point ("以原点为中心", "centred on the origin", "the origin as
# centre", "centre at (0, 0, 0)"): no place of the part
_ELSEWHERE_BEFORE = re.compile(
    r"(?:以\s*(?:坐标)?(?:原点|点|节点|[(（])[^，。；]{0,20}为\s*$)"
    r"|(?:\b(?:origin|point|node\s*\d+|\))\s+as\s+(?:the\s+|its\s+)?$)", re.I)
_ELSEWHERE_AFTER = re.compile(
    r"^(?:\s*(?:point)?\s*(?:at|on|in|=|:)\s*(?:the\s+)?(?:origin|point|node|[(\[]))", re.I)
_ZH: tuple[tuple[Kind, re.Pattern[str]], ...] = (
    ("corner", re.compile(r"([左右])([上下])角")),
    ("corner", re.compile(r"([上下])([左右])角")),
    ("half", re.compile(r"([左右上下])半")),
    ("row", re.compile(r"最?([左右上下顶底])(?:边|面|侧)?(?:的|那)?一?[列行排]")),
    ("edge", re.compile(r"([左右上下顶底])(?:边缘|边|侧)(?![的那]?一?[列行排])")),
    ("middle", re.compile(r"中间|中心|正中|中部")),
)


@dataclass(frozen=True)
class NamedPlace:
    """A place a request names: its ``words`` as typed, its ``kind`` and the ``sides`` it
    lies on (none for the middle; the vertical side first for a quarter or a corner)."""

    words: str
    kind: Kind
    sides: tuple[Side, ...] = ()
    # a stretch named by a coordinate (``request_spans.py``): (axis, low, high)
    span: tuple[int, float, float] | None = None
    # a point that far from the place ("25 above the middle": (0, 0, 25))
    offset: Vec3 | None = None


@dataclass(frozen=True)
class FlatPart:
    """A part that lies in one plane: its in-plane ``axes`` (first left to right, second
    bottom to top), its bounding box, each in-plane axis's distinct node coordinates, and
    the node at each point (``nodes``: the lowest label there)."""

    axes: tuple[int, int]
    low: Vec3
    high: Vec3
    stations: tuple[tuple[float, ...], tuple[float, ...]]
    nodes: Mapping[Vec3, int] = field(default_factory=dict)

    def node_at(self, point: Vec3) -> int | None:
        return self.nodes.get(_key(point))


def places_in(request: str) -> list[NamedPlace]:
    """Every place the request names, once each, in the order of the patterns."""
    found: list[NamedPlace] = []
    taken: list[tuple[int, int]] = []
    for named, pattern in (*_EN, *_ZH):
        for match in pattern.finditer(request):
            if any(a < match.end() and match.start() < b for a, b in taken):
                continue  # "the top-left corner" names no top edge as well
            kind = named
            sides = _sides(match.groups())
            if kind in ("middle", "centre") and _elsewhere(request, match):
                taken.append(match.span())
                continue
            if kind == "middle" and _a_point(request, match):
                kind = "centre"
            offset, before = _offset(request, match) if kind == "centre" else (None, "")
            place = NamedPlace(before + match.group(0), kind, sides, offset=offset)
            if place not in found:
                found.append(place)
            taken.append(match.span())
    found += [NamedPlace(span.said, "span", span=(span.axis, span.low, span.high))
              for span in spans_in(request)]
    return found


def _offset(request: str, match: re.Match[str]) -> tuple[Vec3 | None, str]:
    """How far above or below the place a point lies ("25 above the middle"), along Z, up
    being +Z, and the words that say it; (None, "") where the words say none."""
    said = _OFFSET_EN.search(request[: match.start()])
    if said is None:
        return None, ""
    distance = float(said.group(1))
    up = said.group(2).lower() in ("above", "over")
    return (0.0, 0.0, distance if up else -distance), said.group(0)


def _elsewhere(request: str, match: re.Match[str]) -> bool:
    """Whether the centre the words name is another point than the part's."""
    return bool(_ELSEWHERE_BEFORE.search(request[: match.start()])
                or _ELSEWHERE_AFTER.match(request[match.end():]))


def _a_point(request: str, match: re.Match[str]) -> bool:
    before, after = request[: match.start()], request[match.end():]
    return bool(_AT_EN.search(before) or _POINT_EN.match(after) or _AT_ZH.search(before)
                or _POINT_ZH.match(after))


def _sides(groups: Sequence[str | None]) -> tuple[Side, ...]:
    sides = [_SIDE[g.lower()] for g in groups if g]
    return tuple(sorted(sides, key=lambda s: s in ("left", "right")))  # vertical first


def flat_part(nodes: Iterable[tuple[int, Sequence[float]]]) -> FlatPart | None:
    """The plane a part lies in, from its nodes (label, coordinates); None for a part that
    does not lie in one plane (or in none: a line, a point, no nodes)."""
    xyz = [(label, _vec(p)) for label, p in nodes]
    if not xyz:
        return None
    low = _vec([min(p[i] for _, p in xyz) for i in range(3)])
    high = _vec([max(p[i] for _, p in xyz) for i in range(3)])
    axes = [i for i in range(3) if high[i] - low[i] > 1e-9]
    if len(axes) != 2:
        return None
    first, second = axes
    stations = tuple(tuple(sorted({round(p[i], 9) for _, p in xyz})) for i in (first, second))
    at: dict[Vec3, int] = {}
    for label, point in sorted(xyz, reverse=True):
        at[_key(point)] = label
    return FlatPart((first, second), low, high, (stations[0], stations[1]), at)


def _key(point: Sequence[float]) -> Vec3:
    return _vec([round(x, 6) + 0.0 for x in point])


def places_words(places: Sequence[NamedPlace], part: FlatPart | None) -> str:
    """The design request's line that states each named place on the part, ``""`` when none
    can be said: ``The request's places on this part, computed from its nodes (scope by
    these boxes): "the left half" = {"by":"box","min":[0,0,0],"max":[20,40,0]}; ...``."""
    places = [p for p in places if part is not None and _on_part(p, part)]
    if part is None or not places:
        return ""
    said = [f"“{p.words}” = {_region_words(p, part)}" for p in places]
    return ("The request's places on this part, computed from its nodes (a box picks the "
            "elements and nodes inside it; use these numbers): " + "; ".join(said) + ".")


def place_numbers(places: Sequence[NamedPlace], part: FlatPart | None) -> frozenset[float]:
    """Every number the places line states: the request's own, converted by the product."""
    if part is None:
        return frozenset()
    found: set[float] = set()
    for place in (p for p in places if _on_part(p, part)):
        low, high, point = region(place, part)
        found |= {*low, *high, *(point or ())}
        node = part.node_at(point) if point is not None else None
        if node is not None:
            found.add(float(node))
    return frozenset(found)


def place_boxes(places: Sequence[NamedPlace], part: FlatPart | None
                ) -> tuple[tuple[str, Vec3, Vec3], ...]:
    """The places that are regions of the part (not a point), as (their words, the box's
    low and high corners)."""
    if part is None:
        return ()
    found = []
    for place in (p for p in places if _on_part(p, part)):
        low, high, point = region(place, part)
        if point is None:
            found.append((place.words, low, high))
    return tuple(found)


def _on_part(place: NamedPlace, part: FlatPart) -> bool:
    """Whether the place picks a part of the part: a stretch named by a coordinate that lies
    beyond it (where a request says the extent of new elements) or holds all of it is
    none."""
    if place.span is None:
        return True
    axis, low, high = place.span
    below, above = part.low[axis], part.high[axis]
    overlap = min(high, above) - max(low, below)
    return overlap > 1e-9 and not (low <= below and high >= above)


def region(place: NamedPlace, part: FlatPart) -> tuple[Vec3, Vec3, Vec3 | None]:
    """The box (low, high) that picks the place, and its point (the centre, a corner), if it
    is one."""
    low, high = list(part.low), list(part.high)
    h, v = part.axes
    if place.span is not None:
        axis, low[axis], high[axis] = place.span
        return _vec(low), _vec(high), None
    if place.kind in ("middle", "centre"):
        centre = [(a + b) / 2 for a, b in zip(part.low, part.high, strict=True)]
        if place.offset is not None:
            centre = [c + d for c, d in zip(centre, place.offset, strict=True)]
        if place.kind == "centre":
            return _vec(centre), _vec(centre), _vec(centre)
        for axis in (h, v):
            quarter = (part.high[axis] - part.low[axis]) / 4
            low[axis], high[axis] = part.low[axis] + quarter, part.high[axis] - quarter
        return _vec(low), _vec(high), None
    for side in place.sides:
        axis, index = (h, 0) if side in ("left", "right") else (v, 1)
        span = _span(place.kind, side, part, index)
        low[axis], high[axis] = span
    point = _vec(low) if place.kind == "corner" else None
    return _vec(low), _vec(high), point


def _span(kind: Kind, side: Side, part: FlatPart, index: int) -> tuple[float, float]:
    axis = part.axes[index]
    lo, hi = part.low[axis], part.high[axis]
    at_low = side in ("left", "bottom")
    stations = part.stations[index]
    if kind in ("half", "quarter"):
        middle = (lo + hi) / 2
        return (lo, middle) if at_low else (middle, hi)
    if kind == "row":
        inner = stations[1] if at_low else stations[-2]
        return (lo, inner) if at_low else (inner, hi)
    return (lo, lo) if at_low else (hi, hi)  # an edge, a corner


def _region_words(place: NamedPlace, part: FlatPart) -> str:
    low, high, point = region(place, part)
    if place.kind in ("corner", "centre") and point is not None:
        node = part.node_at(point)
        return f"the point {_vector(point)}" + (f", node {node}" if node is not None else "")
    box = box_words(low, high)
    if place.kind == "edge":
        return f"its nodes: {box}"
    return box


def box_words(low: Sequence[float], high: Sequence[float]) -> str:
    """A box scope as the places line writes it: ``{"by":"box","min":[0,0,0],...}``."""
    return f'{{"by":"box","min":{_vector(low)},"max":{_vector(high)}}}'


def _vec(values: Sequence[float]) -> Vec3:
    return (float(values[0]), float(values[1]), float(values[2]))


def _vector(values: Sequence[float]) -> str:
    return "[" + ",".join(number_words(round(x, 9)) for x in values) + "]"
