"""Whether a request names a place on the part (docs/architecture.md §1 "Observing"): the
design prompt carries the region index (L2: components, grid cells, stations) only then, so
that a request that names labels, sets, coordinates or the whole part is not made to read
it (most of a small model's prompt time went to the regions it did not need).

English and Chinese words for sides, edges, ends, corners, the middle, halves, rows and
columns, nearness and areas. A request that names a place the words miss still gets the
facts of L0/L1 (counts, the bounding box, label ranges, sets and their sizes), and the
exploration phase (``--explore``) reads any region on demand.
"""

from __future__ import annotations

import re

_EN = (
    "left", "right", "top", "bottom", "upper", "lower", "front", "back", "side", "sides",
    "edge", "edges", "end", "ends", "corner", "corners", "middle", "centre", "center",
    "central", "near", "nearest", "around", "between", "half", "halves", "quarter", "row",
    "rows", "column", "columns", "region", "area", "zone", "strip", "band", "border",
    "boundary", "perimeter", "inner", "outer", "hole", "notch", "flange", "web", "tip",
    "root", "leftmost", "rightmost", "topmost", "bottommost", "closest", "farthest",
)
_ZH = ("左", "右", "上边", "下边", "顶", "底", "边", "端", "角", "中间", "中心", "中部",
       "附近", "周围", "之间", "一半", "区域", "孔", "行", "列", "内侧", "外侧", "边界")
_WORDS = re.compile(r"\b(?:" + "|".join(_EN) + r")\b", re.IGNORECASE)


def names_a_place(request: str) -> bool:
    """Whether ``request`` names a place on the part (a side, an edge, the middle, ...)."""
    return bool(_WORDS.search(request)) or any(word in request for word in _ZH)
