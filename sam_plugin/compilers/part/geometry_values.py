"""The geometry a Part step states (docs/architecture.md §4 "Geometry values"): new nodes by
their points, new elements by the coordinates of their nodes, patches and lines, and their
words, so that the analyst confirms the coordinates the calls will use.

``points`` (new free nodes), ``elements`` (each ``{shape, nodes: [Vec3, ...]}``; a
coordinate where a node exists reuses it), ``patches`` (each ``{shape, corners: [Vec3 x 4],
divisions: [nu, nv]}``) and ``lines`` (each ``{start, end, divisions}``). Long lists are
folded with their count in words; the raw JSON shows them whole.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sam_plugin.compilers.part.schemas import MAX_DIVISIONS, MAX_LINE_DIVISIONS
from sam_plugin.compilers.spec import values as v
from sam_plugin.compilers.spec.values import Language, is_count, number_words

SHAPES = {"QUAD": ("QUAD", "QUAD"), "TRI": ("TRI", "TRI"), "BEAM": ("BEAM", "BEAM")}
SURFACE_SHAPES = {"QUAD": ("QUAD", "QUAD"), "TRI": ("TRI", "TRI")}
NODES_PER_SHAPE = {"QUAD": 4, "TRI": 3, "BEAM": 2}
ITEMS_SHOWN = 3  # items said in words before the rest is folded into a count


def point(p: Sequence[float]) -> str:
    return "(" + ", ".join(number_words(x) for x in p) + ")"


def chain(points: Sequence[Sequence[float]]) -> str:
    """``(0, 0, 0)–(60, 0, 0)–(60, 40, 0)``."""
    return "–".join(point(p) for p in points)


def _folded(items: Sequence[str], noun: tuple[str, str], language: Language) -> str:
    """Items joined; beyond :data:`ITEMS_SHOWN`, the first ones and the count of all."""
    sep = "；" if language == "zh" else "; "
    if len(items) <= ITEMS_SHOWN:
        return sep.join(items)
    shown = sep.join(items[:ITEMS_SHOWN])
    if language == "zh":
        return f"{shown}…（共 {len(items)} 个{noun[1]}）"
    return f"{shown}; … ({len(items)} {noun[0]} in all)"


def points_words(value: Any, language: Language) -> str:
    return _folded([point(p) for p in value], ("points", "点"), language)


def _patch(patch: Mapping[str, Any], language: Language) -> str:
    nu, nv = patch.get("divisions", ("?", "?"))
    corners = chain(patch.get("corners", ()))
    if language == "zh":
        return f"{nu} × {nv} 的 {patch.get('shape')} 面片 {corners}"
    return f"a {nu} × {nv} {patch.get('shape')} patch on {corners}"


def patches_words(value: Any, language: Language) -> str:
    return _folded([_patch(p, language) for p in value], ("patches", "面片"), language)


def _line(line: Mapping[str, Any], language: Language) -> str:
    start, end = point(line.get("start", ())), point(line.get("end", ()))
    n = line.get("divisions")
    if language == "zh":
        return f"{start} 到 {end} 的直线（{n} 个 BEAM 单元）"
    return f"a line of {n} BEAM elements from {start} to {end}"


def lines_words(value: Any, language: Language) -> str:
    return _folded([_line(line, language) for line in value], ("lines", "直线"), language)


def _element(element: Mapping[str, Any], language: Language) -> str:
    nodes = chain(element.get("nodes", ()))
    if language == "zh":
        return f"{element.get('shape')} 单元 {nodes}"
    return f"a {element.get('shape')} on {nodes}"


def elements_words(value: Any, language: Language) -> str:
    return _folded([_element(e, language) for e in value], ("elements", "单元"), language)


def count_or_elements_words(value: Any, language: Language) -> str:
    """``build``'s ``elements``: ``60 elements`` (a count), or the elements themselves."""
    if is_count(value):
        return f"{value} 个单元" if language == "zh" else f"{value} elements"
    return elements_words(value, language)


SHAPE = v.choice("element shape", SHAPES)
POINTS = v.points("the new free nodes, one point [x, y, z] each", render=points_words)
PATCHES = v.records(
    "meshed quadrilaterals: corners in order around the patch, divisions [nu, nv]",
    {"shape": v.choice("QUAD or TRI (two per cell)", SURFACE_SHAPES),
     "corners": v.corners("the 4 corners, in order around the patch", count=(4, 4)),
     "divisions": v.integers("[nu, nv]", min_items=2, max_items=2, minimum=1)},
    ("shape", "corners", "divisions"), patches_words)
LINES = v.records(
    "straight BEAM lines: start, end and the number of elements",
    {"start": v.vector("[x, y, z]"), "end": v.vector("[x, y, z]"),
     "divisions": v.integer("BEAM elements along the line", minimum=1,
                            maximum=MAX_LINE_DIVISIONS)},
    ("start", "end", "divisions"), lines_words)
ELEMENTS = v.records(
    "single elements by the coordinates of their nodes, in connectivity order (QUAD 4, TRI 3, "
    "BEAM 2); a coordinate where a node exists reuses that node",
    {"shape": SHAPE, "nodes": v.corners("the node coordinates, in order", count=(2, 4))},
    ("shape", "nodes"), elements_words,
    held_by=("shape", {shape: {"nodes": v.corners("the node coordinates, in order",
                                                  count=(n, n))}
                       for shape, n in NODES_PER_SHAPE.items()}))
BUILD_ELEMENTS = v.count_or_records(
    "the elements the mesh has (a count), or single elements by their node coordinates",
    ELEMENTS, count_or_elements_words)

__all__ = ["BUILD_ELEMENTS", "ELEMENTS", "LINES", "MAX_DIVISIONS", "NODES_PER_SHAPE",
           "PATCHES", "POINTS", "SHAPE"]
