"""The preview of a refinement: the parents go (red) and their children come (green), drawn
from the parents' corners split as the refinement splits them (QUAD and TRI into 4 per level
at their edges' midpoints and a QUAD's centre, BEAM into 2), so that the preview's counts
are the plan's (16 parents deleted, 64 children added)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sam_plugin.compilers.plan import Preview
from sam_plugin.samops import selection

PREVIEW_LIMIT = 5_000  # outlines drawn, as the Part preview
Point = tuple[float, float, float]


def refine_preview(part: Any, parents: Sequence[int], levels: int) -> Preview | None:
    if part is None or not parents:
        return None
    try:
        elements = list(part.elements.sequenceFromLabels(sorted(parents)))
    except Exception:  # a selector the compile refused already
        return None
    points: dict[int, Point] = {}
    for node in selection.nodes_of(part, elements):
        x, y, z = (float(c) for c in node.coordinates)
        points[node.label] = (x, y, z)
    added: list[list[Point]] = []
    for element in elements:
        outline = [points[label] for label in element.connectivity if label in points]
        children = [outline]
        for _ in range(levels):
            children = [child for shape in children for child in _split(shape)]
        added.extend(children)
        if len(added) > PREVIEW_LIMIT:
            break
    return Preview(added=[list(o) for o in added[:PREVIEW_LIMIT]],
                   deleted=sorted(parents)[:4 * PREVIEW_LIMIT],
                   truncated=len(added) > PREVIEW_LIMIT)


def _split(corners: list[Point]) -> list[list[Point]]:
    if len(corners) == 2:
        a, b = corners
        m = _mid(a, b)
        return [[a, m], [m, b]]
    if len(corners) == 3:
        a, b, c = corners
        ab, bc, ca = _mid(a, b), _mid(b, c), _mid(c, a)
        return [[a, ab, ca], [ab, b, bc], [ca, bc, c], [ab, bc, ca]]
    if len(corners) == 4:
        a, b, c, d = corners
        ab, bc, cd, da = _mid(a, b), _mid(b, c), _mid(c, d), _mid(d, a)
        centre = _mid(ab, cd)
        return [[a, ab, centre, da], [ab, b, bc, centre], [centre, bc, c, cd],
                [da, centre, cd, d]]
    return [corners]


def _mid(a: Point, b: Point) -> Point:
    return ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2, (a[2] + b[2]) / 2)
