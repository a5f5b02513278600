"""Read-only findings over a live part: free nodes, duplicates, coincident groups, degenerate
elements and element quality. Shared by the audit (reports) and the repair (acts)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from sam_plugin.samops.geometry import PointIndex, distance, polygon_area
from sam_plugin.samops.records import NODES_PER_SHAPE, Point


def free_node_labels(part: Any) -> list[int]:
    used: set[int] = set()
    for element in part.elements:
        used.update(element.connectivity)
    return sorted(n.label for n in part.nodes if n.label not in used)


def duplicate_groups(part: Any) -> list[list[int]]:
    """Elements with the same shape and node set (any order or rotation), lowest label first."""
    groups: dict[tuple[Any, frozenset[int]], list[int]] = {}
    for element in part.elements:
        key = (element.type, frozenset(element.connectivity))
        group = groups.get(key)
        if group is None:
            groups[key] = [element.label]
        else:
            group.append(element.label)
    return sorted(sorted(g) for g in groups.values() if len(g) > 1)


def coincident_groups(part: Any, tolerance: float) -> list[list[int]]:
    """Nodes within ``tolerance`` of a lower-labelled representative, grouped (spatial hash)."""
    index = PointIndex(tolerance)
    representative: list[int] = []
    groups: dict[int, list[int]] = {}
    for node in sorted(part.nodes, key=lambda n: n.label):
        found = index.find(node.coordinates)
        if found is None:
            index.add(node.coordinates)
            representative.append(node.label)
        else:
            groups.setdefault(representative[found], [representative[found]]).append(node.label)
    return [groups[k] for k in sorted(groups)]


def _points(part: Any, element: Any, coords: dict[int, Point]) -> list[Point]:
    return [coords[label] for label in element.connectivity]


def node_coordinates(part: Any) -> dict[int, tuple[float, float, float]]:
    return {n.label: tuple(n.coordinates) for n in part.nodes}


def degenerate_labels(part: Any, tolerance: float,
                      coords: dict[int, tuple[float, float, float]] | None = None) -> list[int]:
    coords = node_coordinates(part) if coords is None else coords
    found = []
    for element in part.elements:
        conn = element.connectivity
        shape = str(element.type)
        if len(set(conn)) != NODES_PER_SHAPE.get(shape, len(conn)):
            found.append(element.label)
            continue
        points = [coords[label] for label in conn]
        longest = max(distance(points[k], points[(k + 1) % len(points)])
                      for k in range(len(points)))
        if shape == "BEAM":
            if longest <= tolerance:
                found.append(element.label)
        elif polygon_area(points) <= 0.5 * tolerance * max(longest, tolerance):
            found.append(element.label)
    return sorted(found)


def _angle(a: Point, b: Point, c: Point) -> float:
    """Angle at b in degrees."""
    u = (a[0] - b[0], a[1] - b[1], a[2] - b[2])
    v = (c[0] - b[0], c[1] - b[1], c[2] - b[2])
    nu = math.sqrt(u[0] ** 2 + u[1] ** 2 + u[2] ** 2)
    nv = math.sqrt(v[0] ** 2 + v[1] ** 2 + v[2] ** 2)
    if nu == 0 or nv == 0:
        return 0.0
    cos = (u[0] * v[0] + u[1] * v[1] + u[2] * v[2]) / (nu * nv)
    return math.degrees(math.acos(max(-1.0, min(1.0, cos))))


def _normal(a: Point, b: Point, c: Point) -> Point:
    u = (b[0] - a[0], b[1] - a[1], b[2] - a[2])
    v = (c[0] - a[0], c[1] - a[1], c[2] - a[2])
    return (u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0])


def warping_deg(points: Sequence[Point]) -> float:
    """QUAD warping: angle between the normals of triangles (0,1,2) and (0,2,3)."""
    n1 = _normal(points[0], points[1], points[2])
    n2 = _normal(points[0], points[2], points[3])
    return _angle(n1, (0.0, 0.0, 0.0), n2)


def element_quality(points: Sequence[Point], shape: str) -> dict[str, float]:
    count = len(points)
    edges = [distance(points[k], points[(k + 1) % count]) for k in range(count)]
    shortest = min(edges)
    quality = {"aspect_ratio": math.inf if shortest == 0 else max(edges) / shortest}
    if shape in ("QUAD", "TRI"):
        angles = [_angle(points[k - 1], points[k], points[(k + 1) % count])
                  for k in range(count)]
        quality["min_angle_deg"] = min(angles)
        quality["max_angle_deg"] = max(angles)
    if shape == "QUAD":
        quality["warping_deg"] = warping_deg(points)
    return quality
