"""How many elements a request says the part it makes anew has ("9 个梁单元", "4 elems",
"2 × 2 个四边形单元", "split into 6 segments"): read as words, once, where the request states
one such number and no other (docs/architecture.md §4 "One repair before Review"). A count
"each" of several lines or patches states no total, and is not read; nor is a size said with
one element ("a 25 x 25 quad")."""

from __future__ import annotations

import re
from dataclasses import dataclass

from sam_plugin.compilers.spec.request_counts import COUNT_EN, COUNT_ZH, count_number
from sam_plugin.compilers.spec.request_words import fold

_SHAPE = r"(?:(?:quad|tri|triangle|triangular|beam|shell|line|truss|new)\s+)?"
_NOUN = r"(?P<noun>elements?|elems?|quads?|tris?|triangles?|segments?)\b"
_EN = re.compile(rf"(?<![\w.]){COUNT_EN}\s*(?:(?:x|×|by|\*)\s*{COUNT_EN}\s+)?"
                 rf"(?:(?:grid|mesh|array)\s+of\s+)?{_SHAPE}{_NOUN}"
                 r"(?!\s+(?:each|apiece|per)\b)", re.IGNORECASE)
_ZH = re.compile(rf"(?<![\w.]){COUNT_ZH}\s*(?:[x×乘*]\s*{COUNT_ZH}\s*)?个?\s*"
                 r"(?:梁|四边形|三角形|壳|杆)?单元(?![^，。；]{0,4}每)"
                 rf"|(?:分成|分为|等分为|等分成|平均分成|平均分为)\s*{COUNT_ZH}\s*(?:段|份)")
_EACH = re.compile(r"\beach\b|\bper\b|每", re.IGNORECASE)


@dataclass(frozen=True)
class StatedElements:
    """``count`` elements, as the request's words ``said`` them."""

    said: str
    count: int


def stated_elements(request: str) -> StatedElements | None:
    """The one element count the request states, else None (none, several, or "each")."""
    folded = fold(request)
    found: dict[int, str] = {}
    for pattern in (_EN, _ZH):
        for match in pattern.finditer(folded):
            noun = match.groupdict().get("noun")
            numbers = [count_number(g) for g in match.groups() if g and g != noun]
            if not numbers or any(n is None for n in numbers):
                continue
            total = 1
            for number in numbers:
                assert number is not None
                total *= number
            if noun is not None and total > 1 and not noun.lower().endswith("s"):
                continue  # "a 25 x 25 quad" is one quad of that size
            found.setdefault(total, match.group(0).strip())
    if len(found) != 1 or _EACH.search(folded):
        return None
    count, said = next(iter(found.items()))
    return StatedElements(said, count)
