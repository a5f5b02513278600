"""Spatial hashing for ``mergeNodes`` and ``getClosest``: linear time, no all-pairs scans."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

Point = tuple[float, float, float]

_NEIGHBOURS = tuple((i, j, k) for i in (-1, 0, 1) for j in (-1, 0, 1) for k in (-1, 0, 1))


def _cell(point: Point, size: float) -> tuple[int, int, int]:
    x, y, z = point
    return (math.floor(x / size), math.floor(y / size), math.floor(z / size))


def _distance2(a: Point, b: Point) -> float:
    dx = a[0] - b[0]
    dy = a[1] - b[1]
    dz = a[2] - b[2]
    return dx * dx + dy * dy + dz * dz


def merge_groups(nodes: Sequence[Any], tolerance: float) -> dict[int, int]:
    """``{removed label: kept label}`` for nodes within ``tolerance`` of a kept node.

    Nodes are visited in ascending label order, so the lower label is always kept; a node
    joins the first kept node within the tolerance (no chaining through removed nodes).
    """
    ordered = sorted(nodes, key=lambda node: node.label)
    mapping: dict[int, int] = {}
    if tolerance == 0.0:
        exact: dict[Point, int] = {}
        for node in ordered:
            kept = exact.setdefault(node.coordinates, node.label)
            if kept != node.label:
                mapping[node.label] = kept
        return mapping
    limit = tolerance * tolerance
    grid: dict[tuple[int, int, int], list[tuple[int, Point]]] = {}
    for node in ordered:
        point = node.coordinates
        ci, cj, ck = _cell(point, tolerance)
        kept = None
        for di, dj, dk in _NEIGHBOURS:
            bucket = grid.get((ci + di, cj + dj, ck + dk))
            if bucket is None:
                continue
            for label, other in bucket:
                if _distance2(point, other) <= limit:
                    kept = label
                    break
            if kept is not None:
                break
        if kept is None:
            grid.setdefault((ci, cj, ck), []).append((node.label, point))
        else:
            mapping[node.label] = kept
    return mapping


def nearest_nodes(
    nodes: Sequence[Any], points: Sequence[Point], tolerance: float | None
) -> list[Any]:
    """The nearest node to each point (ties: the lower label), or ``None`` beyond tolerance."""
    if not nodes:
        return [None] * len(points)
    if tolerance is None or tolerance == 0.0 or len(points) < 8:
        return [_scan(nodes, point, tolerance) for point in points]
    grid: dict[tuple[int, int, int], list[Any]] = {}
    for node in nodes:
        grid.setdefault(_cell(node.coordinates, tolerance), []).append(node)
    limit = tolerance * tolerance
    found: list[Any] = []
    for point in points:
        ci, cj, ck = _cell(point, tolerance)
        best = None
        best_key = (math.inf, 0)
        for di, dj, dk in _NEIGHBOURS:
            for node in grid.get((ci + di, cj + dj, ck + dk), ()):
                key = (_distance2(point, node.coordinates), node.label)
                if key[0] <= limit and key < best_key:
                    best, best_key = node, key
        found.append(best)
    return found


def _scan(nodes: Sequence[Any], point: Point, tolerance: float | None) -> Any:
    best = None
    best_key = (math.inf, 0)
    for node in nodes:
        key = (_distance2(point, node.coordinates), node.label)
        if key < best_key:
            best, best_key = node, key
    if best is None:
        return None
    if tolerance is not None and best_key[0] > tolerance * tolerance:
        return None
    return best
