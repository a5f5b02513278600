"""Pure geometry shared by compilers (to predict) and generated scripts (to do): no host calls.

The same functions expand patches and lines and merge coincident coordinates at compile time
and inside SAM, so a prediction and the executed mesh cannot drift apart.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

Vec3 = tuple[float, float, float]

# Coordinates closer than RELATIVE_TOLERANCE x model size are one point.
RELATIVE_TOLERANCE = 1.0e-6


def size_tolerance(points: Iterable[Sequence[float]]) -> float:
    """The merge tolerance for a model spanning ``points``: relative to its bounding box."""
    lo = [math.inf] * 3
    hi = [-math.inf] * 3
    for point in points:
        for axis in range(3):
            value = point[axis]
            if value < lo[axis]:
                lo[axis] = value
            if value > hi[axis]:
                hi[axis] = value
    if lo[0] == math.inf:
        return RELATIVE_TOLERANCE
    return box_tolerance(lo, hi)


def box_tolerance(lo: Sequence[float], hi: Sequence[float]) -> float:
    """``size_tolerance`` of a bounding box."""
    diagonal = math.sqrt(sum((float(hi[a]) - float(lo[a])) ** 2 for a in range(3)))
    # Three significant digits keep the literal in generated scripts short and stable.
    return float(f"{RELATIVE_TOLERANCE * max(diagonal, 1.0):.3g}")


def bilinear(corners: Sequence[Vec3], u: float, v: float) -> Vec3:
    """The point at (u, v) in [0, 1]^2 of the patch with corners c0 (0,0), c1 (1,0), c2, c3."""
    c0, c1, c2, c3 = corners
    a = (1 - u) * (1 - v)
    b = u * (1 - v)
    c = u * v
    d = (1 - u) * v
    return (
        a * c0[0] + b * c1[0] + c * c2[0] + d * c3[0],
        a * c0[1] + b * c1[1] + c * c2[1] + d * c3[1],
        a * c0[2] + b * c1[2] + c * c2[2] + d * c3[2],
    )


def patch_points(corners: Sequence[Vec3], nu: int, nv: int) -> list[Vec3]:
    """Grid points row by row (v outer, u inner): index = j * (nu + 1) + i.

    Row by row: the point at (u, v) lies between the edge points (0, v) and (1, v), which
    is the bilinear map, evaluated with one multiply-add per coordinate.
    """
    c0, c1, c2, c3 = corners
    us = [i / nu for i in range(nu + 1)]
    points: list[Vec3] = []
    for j in range(nv + 1):
        v = j / nv
        lx = c0[0] + (c3[0] - c0[0]) * v
        ly = c0[1] + (c3[1] - c0[1]) * v
        lz = c0[2] + (c3[2] - c0[2]) * v
        dx = c1[0] + (c2[0] - c1[0]) * v - lx
        dy = c1[1] + (c2[1] - c1[1]) * v - ly
        dz = c1[2] + (c2[2] - c1[2]) * v - lz
        points.extend([(lx + dx * u, ly + dy * u, lz + dz * u) for u in us])
    return points


def patch_cells(nu: int, nv: int, shape: str) -> list[tuple[int, ...]]:
    """Local connectivity of a patch's cells: QUAD counter-clockwise, TRI two per cell."""
    row = nu + 1
    cells: list[tuple[int, ...]] = []
    for j in range(nv):
        base = j * row
        quads = zip(range(base, base + nu), range(base + 1, base + nu + 1),
                    range(base + row + 1, base + row + nu + 1), range(base + row, base + row + nu),
                    strict=True)
        if shape == "QUAD":
            cells.extend(quads)
        else:
            for n0, n1, n2, n3 in quads:
                cells.append((n0, n1, n2))
                cells.append((n0, n2, n3))
    return cells


def line_points(start: Vec3, end: Vec3, divisions: int) -> list[Vec3]:
    def at(k: int, a: int) -> float:
        return start[a] + (end[a] - start[a]) * k / divisions

    return [
        (at(k, 0), at(k, 1), at(k, 2))
        for k in range(divisions + 1)
    ]


def line_cells(divisions: int) -> list[tuple[int, int]]:
    return [(k, k + 1) for k in range(divisions)]


class PointIndex:
    """Spatial hash of points: ``find`` returns the lowest stored index within ``tolerance``.

    Cells are ``_CELL_FACTOR x tolerance`` wide; a query visits its own cell and only those
    neighbours its tolerance ball reaches (usually none), so merging n points is O(n), not
    the O(n^2) of pairwise comparison.
    """

    _CELL_FACTOR = 16.0

    def __init__(self, tolerance: float):
        cell = tolerance * self._CELL_FACTOR
        if not (math.isfinite(cell) and cell > 0 and math.isfinite(1.0 / cell)):
            raise ValueError(f"tolerance {tolerance!r} is out of range for a spatial index")
        self.tolerance = tolerance
        self._inverse = 1.0 / cell
        # a little wider than the tolerance: a point exactly at the tolerance from a cell
        # border (rounding included) must still visit the neighbour cell
        self._edge = 1.01 / self._CELL_FACTOR
        self._cells: dict[tuple[int, int, int], list[int]] = {}
        self.points: list[Vec3] = []

    def _key(self, point: Sequence[float]) -> tuple[int, int, int]:
        inv = self._inverse
        return (math.floor(point[0] * inv), math.floor(point[1] * inv),
                math.floor(point[2] * inv))

    def _axis_cells(self, value: float) -> tuple[int, ...]:
        scaled = value * self._inverse
        cell = math.floor(scaled)
        frac = scaled - cell
        if frac <= self._edge:
            return (cell, cell - 1)
        if frac >= 1.0 - self._edge:
            return (cell, cell + 1)
        return (cell,)

    def find(self, point: Sequence[float]) -> int | None:
        tol2 = self.tolerance * self.tolerance
        best: int | None = None
        cells = self._cells
        points = self.points
        px, py, pz = point[0], point[1], point[2]
        for kx in self._axis_cells(px):
            for ky in self._axis_cells(py):
                for kz in self._axis_cells(pz):
                    bucket = cells.get((kx, ky, kz))
                    if not bucket:
                        continue
                    for index in bucket:
                        q = points[index]
                        d2 = (q[0] - px) ** 2 + (q[1] - py) ** 2 + (q[2] - pz) ** 2
                        if d2 <= tol2 and (best is None or index < best):
                            best = index
        return best

    def add(self, point: Sequence[float]) -> int:
        index = len(self.points)
        self.points.append((float(point[0]), float(point[1]), float(point[2])))
        self._cells.setdefault(self._key(point), []).append(index)
        return index

    def find_or_add(self, point: Sequence[float]) -> tuple[int, bool]:
        """(index, created): the stored point within tolerance, or a new one."""
        found = self.find(point)
        if found is not None:
            return found, False
        return self.add(point), True


def distance(p: Sequence[float], q: Sequence[float]) -> float:
    return math.sqrt((p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2 + (p[2] - q[2]) ** 2)


def polygon_area(points: Sequence[Sequence[float]]) -> float:
    """Area of a (possibly non-planar) polygon: half the norm of the summed cross products."""
    sx = sy = sz = 0.0
    count = len(points)
    for k in range(count):
        p = points[k]
        q = points[(k + 1) % count]
        sx += p[1] * q[2] - p[2] * q[1]
        sy += p[2] * q[0] - p[0] * q[2]
        sz += p[0] * q[1] - p[1] * q[0]
    return 0.5 * math.sqrt(sx * sx + sy * sy + sz * sz)
