"""The directions, axes and planes a request names in words, stated as vectors for the model
that writes the spec (docs/architecture.md §4 "The design, asked in parts"): "about Z" is the
axis [0, 0, 1], "-Y" and "往 X 负方向" are [0, -1, 0] and [-1, 0, 0], "n1 along global Z" is
[0, 0, 1], "the YZ plane" is x = 0 with the normal [1, 0, 0], "mirror about y=0" the plane
y = 0. A small model wrote [0, 1, 0] for "about Z" and (30, 0, 0) for "往 X 负方向挪 30".

Up is +Z, as everywhere in the product ("25 above the middle"): "raise", "lift", "向上" are
read only where the request names no axis and writes no vector of its own ("push down ... a
force of (0, -50, 0)" is that vector's)."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from sam_plugin.compilers.spec.request_quantities import quantities_in
from sam_plugin.compilers.spec.request_words import NAMING, fold
from sam_plugin.compilers.spec.values import number_words
from sam_plugin.compilers.units import DEFAULT, UnitSystem

Vec3 = tuple[float, float, float]
DirectionKind = Literal["axis", "direction", "plane"]

_AXES = "xyz"
_MIRRORING = re.compile(r"\b(?:mirror\w*|reflect\w*|symmetr\w*|flip\w*)\b|镜像|对称|翻转", re.I)
_TRIPLE = re.compile(r"[(\[]\s*-?\d[^()\[\]]*,[^()\[\]]*,[^()\[\]]*[)\]]")
_NEGATIVE = ("negative", "minus", "-", "−", "负")


@dataclass(frozen=True)
class NamedDirection:
    """Words of the request (``said``) naming an axis, a direction or a plane: its unit
    ``vector`` (a plane's normal) and, for a plane, its coordinate along the normal."""

    said: str
    kind: DirectionKind
    vector: Vec3
    at: float | None = None
    name: str = ""  # a coordinate plane's: "XZ"
    signed: bool = False  # its words give its sign ("-Y", "X 负方向"), not only its axis


def _unit(axis: int, sign: float = 1.0) -> Vec3:
    vector = [0.0, 0.0, 0.0]
    vector[axis] = sign
    return (vector[0], vector[1], vector[2])


def _axis(letter: str) -> int:
    return _AXES.index(letter.lower())


def _signed(sign: str, letter: str, said: str) -> NamedDirection:
    negative = sign.lower() in _NEGATIVE
    return NamedDirection(said, "direction", _unit(_axis(letter), -1.0 if negative else 1.0),
                          signed=True)


def _coordinate_plane(first: str, second: str, said: str) -> NamedDirection | None:
    if first.lower() == second.lower():
        return None
    normal = ({0, 1, 2} - {_axis(first), _axis(second)}).pop()
    name = "".join(sorted((first.upper(), second.upper())))
    return NamedDirection(said, "plane", _unit(normal), 0.0, name)


# a coordinate plane by its name: "the XZ plane", "X-Z plane", "YZ 平面" (two groups each way)
COORDINATE_PLANE = r"\b([xyz])\s*-?\s*([xyz])[\s-]*plane\b|([xyz])\s*([xyz])\s*平面"

Reader = tuple[re.Pattern[str], Callable[[re.Match[str]], NamedDirection | None]]

_READERS: tuple[Reader, ...] = (
    # a plane by its coordinate, where the request mirrors: "about y=0", "关于 x = 10"
    (re.compile(r"(?:\b(?:about|across|in|through|over)\s+(?:the\s+)?(?:plane\s+)?|关于\s*"
                r"(?:平面\s*)?)([xyz])\s*=\s*(-?\d+(?:\.\d+)?)(?![\d.])", re.I),
     lambda m: NamedDirection(m.group(0).strip(), "plane", _unit(_axis(m.group(1))),
                              float(m.group(2)))),
    # a coordinate plane: "the XZ plane", "YZ 平面"
    (re.compile(COORDINATE_PLANE, re.I),
     lambda m: _coordinate_plane(m.group(1) or m.group(3), m.group(2) or m.group(4),
                                 m.group(0).strip())),
    # a signed direction: "X 负方向", "沿 Y 轴正方向", "负 Z 方向", "negative x", "-Y"
    (re.compile(r"([xyz])\s*轴?\s*的?\s*([正负])\s*(?:方向|向)", re.I),
     lambda m: _signed(m.group(2), m.group(1), m.group(0).strip())),
    (re.compile(r"([正负])\s*([xyz])\s*轴?\s*方向", re.I),
     lambda m: _signed(m.group(1), m.group(2), m.group(0).strip())),
    (re.compile(r"\b(negative|positive|minus|plus)\s+([xyz])\b(?:[- ]?(?:axis|direction))?",
                re.I),
     lambda m: _signed(m.group(1), m.group(2), m.group(0).strip())),
    (re.compile(r"(?<![\w.)\]])([+\-−])\s?([xyz])\b(?!\s*[=<>≤≥])", re.I),
     lambda m: _signed(m.group(1), m.group(2), m.group(0).strip())),
    # an axis of rotation: "about Z", "around the Y axis", "绕 Z 轴"
    (re.compile(r"\b(?:about|around|round)\s+(?:the\s+)?(?:global\s+)?([xyz])"
                r"(?:[- ]?axis)?\b(?!\s*[=<>≤≥])|(?:绕|围绕)\s*(?:过原点的\s*)?([xyz])\s*轴", re.I),
     lambda m: NamedDirection(m.group(0).strip(), "axis",
                              _unit(_axis(m.group(1) or m.group(2))))),
    # an axis to go along: "along global Z", "in the u2 direction", "in Y"
    (re.compile(r"\b(?:along|in)\s+(?:the\s+)?(?:global\s+)?([xyz])(?!\s*-\s*[xyz]\b)"
                r"(?:[- ]?(?:axis|direction))?\b(?!\s*[=<>≤≥])", re.I),
     lambda m: NamedDirection(m.group(0).strip(), "direction", _unit(_axis(m.group(1))))),
    (re.compile(r"\b(?:global\s+)?([xyz])[- ]?(?:axis|direction)\b|\bglobal\s+([xyz])\b",
                re.I),
     lambda m: NamedDirection(m.group(0).strip(), "direction",
                              _unit(_axis(m.group(1) or m.group(2))))),
    (re.compile(r"\bu([123])[- ]?direction\b", re.I),
     lambda m: NamedDirection(m.group(0).strip(), "direction", _unit(int(m.group(1)) - 1))),
    (re.compile(r"(?:沿着?|顺着)?\s*([xyz])\s*轴(?:方向)?|([xyz])\s*(?:方向|向)", re.I),
     lambda m: NamedDirection(m.group(0).strip(), "direction",
                              _unit(_axis(m.group(1) or m.group(2))))),
)

_LOWERING_VERB = (r"\b(?:lower(?:s|ed|ing)?|drop(?:s|ped|ping)?|sink(?:s|ing)?|sank|"
                  r"descend(?:s|ed|ing)?)(?=\s+(?:the|it|them|this|that|all|every|whole|by|\d))")
# the words that move something down
_DOWN = rf"\b(?:downwards?|straight\s+down)\b|{_LOWERING_VERB}|向下|往下|下移|降低|下降"

# up and down, read only where nothing above is and the request writes no vector
_VERTICAL: tuple[Reader, ...] = (
    (re.compile(r"\b(?:upwards?|straight\s+up|vertically|raise[sd]?|raising|lift(?:s|ed|ing)?)"
                r"\b|向上|往上|抬高|抬起|升高|上移|上抬", re.I),
     lambda m: NamedDirection(m.group(0).strip(), "direction", (0.0, 0.0, 1.0))),
    (re.compile(_DOWN, re.I),
     lambda m: NamedDirection(m.group(0).strip(), "direction", (0.0, 0.0, -1.0))),
)
# a verb that lowers what it moves ("lower the plate", "drop it by 5", "降低"), never an
# adjective ("the lower edge"): a direction it goes along with no sign of its own
# ("lower the plate by 15 in z") is the negative one
_LOWERING = re.compile(_DOWN, re.I)


def directions_in(request: str) -> list[NamedDirection]:
    """Every direction, axis and plane the request names, once each, in reader order."""
    folded = fold(request)
    found = _read(folded, _READERS)
    if found and _LOWERING.search(folded):
        found = [_negated(d) if d.kind == "direction" and not d.signed else d for d in found]
    if not found and not _TRIPLE.search(folded):
        found = _read(folded, _VERTICAL)
    return found


def _negated(named: NamedDirection) -> NamedDirection:
    x, y, z = named.vector
    return dataclasses.replace(named, vector=(-x + 0.0, -y + 0.0, -z + 0.0), signed=True)


def _read(folded: str, readers: Sequence[Reader]) -> list[NamedDirection]:
    found: list[NamedDirection] = []
    taken: list[tuple[int, int]] = []
    for index, (pattern, make) in enumerate(readers):
        for match in pattern.finditer(folded):
            if any(a < match.end() and match.start() < b for a, b in taken):
                continue  # "沿 Y 轴正方向" names no unsigned axis as well
            if NAMING.search(folded, 0, match.start()):
                continue  # "a static step called Lift" names a step
            if index < 2 and readers is _READERS and not _MIRRORING.search(folded):
                continue  # "the top edge y = 40" is a place, "in the XZ plane" a build's
            named = make(match)
            if named is None:
                continue
            taken.append(match.span())
            if all((f.kind, f.vector, f.at) != (named.kind, named.vector, named.at)
                   for f in found):
                found.append(named)
    return found


# a plain distance: not a coordinate ("y = 40"), a label ("node 5", "n3"), a count or an
# angle ("3 total", "90 deg", "四倍"), nor a number of a written vector
_COORDINATE = re.compile(r"\b[xyz]\s*[=<>≤≥]\s*-?\d+(?:\.\d+)?", re.I)
_LABELLED = re.compile(r"\b(?:nodes?|elements?|elems?|labels?|sets?)\s*#?\d+"
                       r"(?:\s*(?:,|and|-|to)\s*\d+)*|(?:节点|单元)\s*\d+", re.I)
_PLAIN = re.compile(
    r"(?<![\w.])[+]?(\d+(?:\.\d+)?)(?!\d|\.\d)(?!\s*(?:度|°|deg\b|degrees?|times|倍|次|级|levels?"
    r"|cop(?:y|ies)|instances?|个|块|份|段|格|total|in\s+all|more|additional|[x×*]\s*\d|号|n\b|"
    r"kn|mpa|gpa|pa\b|kg|t/))", re.I)


def directions_words(request: str, system: UnitSystem = DEFAULT) -> str:
    """The design request's line that states them, ``""`` when the request names none: a
    direction with the request's one distance as its vector ("往 X 负方向挪 30": [-30, 0, 0],
    in the model's units), else as a unit vector with the way to scale it."""
    found = directions_in(request)
    if not found:
        return ""
    distance = _distance(request, system) \
        if sum(d.kind == "direction" for d in found) == 1 else None
    said = [f"“{d.said}” = {_words(d, distance)}" for d in found]
    return ("The request's directions as vectors (write these numbers): " + "; ".join(said)
            + ".")


def direction_numbers(request: str, system: UnitSystem = DEFAULT) -> frozenset[float]:
    """Every number the directions line states."""
    found: set[float] = set()
    named = directions_in(request)
    distance = _distance(request, system) \
        if sum(d.kind == "direction" for d in named) == 1 else None
    for direction in named:
        found |= set(direction.vector)
        if direction.kind == "direction" and distance is not None:
            found |= set(_scaled(direction.vector, distance))
        if direction.at is not None:
            found |= set(_through(direction))
    return frozenset(found)


def _distance(request: str, system: UnitSystem) -> float | None:
    """The one distance the request states (its length in the model's units), else None."""
    folded = fold(request)
    lengths = [q for q in quantities_in(folded) if q.kind == "length"]
    bare = _LABELLED.sub(" ", _COORDINATE.sub(" ", _TRIPLE.sub(" ", folded)))
    plain = {float(m.group(1)) for m in _PLAIN.finditer(bare)}
    if len(lengths) == 1 and len(plain) <= 1:
        value = lengths[0].value_in(system)
        return value if value is not None else lengths[0].value
    if not lengths and len(plain) == 1:
        return plain.pop()
    return None


def _words(named: NamedDirection, distance: float | None) -> str:
    if named.kind == "axis":
        return f"the axis {_vector(named.vector)}"
    if named.kind == "direction":
        if distance is not None:
            return f"with {number_words(distance)}, the vector " \
                   f"{_vector(_scaled(named.vector, distance))}"
        scaled = "[" + ", ".join("0" if not x else ("d" if x > 0 else "-d")
                                 for x in named.vector) + "]"
        return f"the direction {_vector(named.vector)} (a distance d that way: {scaled})"
    axis = next(i for i, x in enumerate(named.vector) if x)
    name = f"{named.name} ({_AXES[axis]} = {number_words(named.at or 0.0)})" if named.name \
        else f"{_AXES[axis]} = {number_words(named.at or 0.0)}"
    return (f"the plane {name}: normal {_vector(named.vector)}, through "
            f"{_vector(_through(named))}")


def _scaled(vector: Vec3, distance: float) -> Vec3:
    return (vector[0] * distance, vector[1] * distance, vector[2] * distance)


def _through(named: NamedDirection) -> Vec3:
    axis = next(i for i, x in enumerate(named.vector) if x)
    return _unit(axis, named.at or 0.0) if named.at else (0.0, 0.0, 0.0)


def _vector(values: Sequence[float]) -> str:
    return "[" + ", ".join(number_words(x + 0.0) for x in values) + "]"
