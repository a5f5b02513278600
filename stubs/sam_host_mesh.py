"""Mesh geometry of one displayed part, flattened for drawing (no Qt widgets here).

The viewport needs every node position and every unique element edge per shape. Reading
them through the host API is one pass over the arrays; afterwards a projection is plain
list arithmetic, so rotating a 190k-element part never touches the host objects again.
"""

from __future__ import annotations

import math
from array import array
from dataclasses import dataclass, field
from typing import Any

SHAPE_ORDER = ("QUAD", "TRI", "BEAM")


@dataclass
class MeshGeometry:
    """Node coordinates (parallel lists) and unique edges per shape as index pairs."""

    part_name: str = ""
    xs: list[float] = field(default_factory=list)
    ys: list[float] = field(default_factory=list)
    zs: list[float] = field(default_factory=list)
    edges: dict[str, list[tuple[int, int]]] = field(default_factory=dict)
    element_count: int = 0
    # for picking (sam_host_picking.py): node labels in node order, element labels, and per
    # element four node indices (a shorter element repeats its last), read in the same pass;
    # int64 arrays, so that numpy takes them without a copy
    node_labels: array[int] = field(default_factory=lambda: array("q"))
    element_labels: array[int] = field(default_factory=lambda: array("q"))
    element_ids: array[int] = field(default_factory=lambda: array("q"))
    _bounds: tuple[tuple[float, float, float], float] | None = field(default=None, repr=False)

    @property
    def node_count(self) -> int:
        return len(self.xs)

    @property
    def is_empty(self) -> bool:
        return not self.xs

    def center_and_radius(self) -> tuple[tuple[float, float, float], float]:
        """Bounding-box centre and half-diagonal (at least a tiny positive radius); cached."""
        if self._bounds is None:
            self._bounds = self._compute_bounds()
        return self._bounds

    def _compute_bounds(self) -> tuple[tuple[float, float, float], float]:
        if self.is_empty:
            return (0.0, 0.0, 0.0), 1.0
        lo = (min(self.xs), min(self.ys), min(self.zs))
        hi = (max(self.xs), max(self.ys), max(self.zs))
        center = tuple((a + b) / 2 for a, b in zip(lo, hi, strict=True))
        radius = math.dist(lo, hi) / 2
        return center, max(radius, 1e-9)  # type: ignore[return-value]


def read_geometry(part: Any) -> MeshGeometry:
    """One pass over ``part.nodes`` and ``part.elements``; edges shared by two elements once.

    Tight loops on purpose (measured on a 22,500-element part: 1.07 s with per-element
    helper calls and tuple keys, about a third of that now): an edge is keyed by one integer.
    """
    geometry = MeshGeometry(part_name=str(getattr(part, "name", "")))
    if part is None:
        return geometry
    index: dict[int, int] = {}
    xs, ys, zs = geometry.xs, geometry.ys, geometry.zs
    for node in part.nodes:
        index[node.label] = len(xs)
        x, y, z = node.coordinates
        xs.append(x)
        ys.append(y)
        zs.append(z)
    geometry.node_labels = array("q", index)
    element_labels, element_ids = geometry.element_labels, geometry.element_ids
    stride = len(xs) + 1
    seen: set[int] = set()
    edges: dict[str, list[tuple[int, int]]] = {shape: [] for shape in SHAPE_ORDER}
    shape_names: dict[int, str] = {}
    count = 0
    for element in part.elements:
        count += 1
        kind = element.type
        shape = shape_names.get(id(kind))
        if shape is None:
            shape = shape_names[id(kind)] = str(kind)
        bucket = edges.get(shape)
        if bucket is None:
            bucket = edges[shape] = []
        try:
            ids = [index[label] for label in element.connectivity]
        except KeyError:  # a dangling label: draw what exists
            ids = [index[label] for label in element.connectivity if label in index]
        last = len(ids) - 1
        if last >= 0:
            element_labels.append(element.label)
            element_ids.extend((ids + [ids[-1]] * 3)[:4] if last < 3 else ids[:4])
        if last < 1:
            continue
        ring = 1 if shape == "BEAM" else len(ids)
        for i in range(ring):
            a = ids[i]
            b = ids[i + 1] if i < last else ids[0]
            if a > b:
                a, b = b, a
            key = a * stride + b
            if key not in seen:
                seen.add(key)
                bucket.append((a, b))
    geometry.edges = edges
    geometry.element_count = count
    return geometry


def rotation(yaw_deg: float, pitch_deg: float) -> tuple[tuple[float, float, float], ...]:
    """Rows of the view rotation (yaw about Z, then pitch about the screen X axis)."""
    cy, sy = math.cos(math.radians(yaw_deg)), math.sin(math.radians(yaw_deg))
    cp, sp = math.cos(math.radians(pitch_deg)), math.sin(math.radians(pitch_deg))
    row_x = (cy, -sy, 0.0)
    row_y = (cp * sy, cp * cy, -sp)
    row_z = (sp * sy, sp * cy, cp)
    return row_x, row_y, row_z
