"""Plan new nodes and elements from patches, lines and explicit elements: pure, no host calls.

The compiler runs ``plan_mesh`` to check ids and degenerate elements and to predict counts;
the generated script runs the same function with the same literals inside SAM, so what was
predicted is what gets built. Coincident coordinates (within ``tolerance``) become one point,
which is how patches sharing an edge end up connected.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from sam_plugin.samops.geometry import (
    PointIndex,
    Vec3,
    distance,
    line_cells,
    line_points,
    patch_cells,
    patch_points,
)

NodeSpec = tuple[str, Vec3]  # (local id, coordinates)
ElementSpec = tuple[str, str, tuple[str, ...]]  # (local id, shape, node ids)
PatchSpec = tuple[str, str, tuple[Vec3, Vec3, Vec3, Vec3], tuple[int, int]]
LineSpec = tuple[str, Vec3, Vec3, int]


@dataclass
class MeshPlan:
    """Points (existing first, then new) and cells over point indices."""

    points: list[Vec3]
    existing_count: int
    shapes: list[str] = field(default_factory=list)
    cells: list[tuple[int, ...]] = field(default_factory=list)
    # local id of an element, patch or line -> (first cell, end cell)
    owners: dict[str, tuple[int, int]] = field(default_factory=dict)
    node_alias: dict[str, int] = field(default_factory=dict)

    @property
    def new_point_count(self) -> int:
        return len(self.points) - self.existing_count

    def shape_counts(self) -> dict[str, int]:
        counts = {"QUAD": 0, "TRI": 0, "BEAM": 0}
        for shape in self.shapes:
            counts[shape] += 1
        return counts

    def cells_of(self, owner_ids: Sequence[str]) -> list[int]:
        picked: list[int] = []
        for owner in owner_ids:
            first, end = self.owners[owner]
            picked.extend(range(first, end))
        return picked


def _min_spacing(corners: Sequence[Vec3], nu: int, nv: int) -> float:
    c0, c1, c2, c3 = corners
    return min(distance(c0, c1) / nu, distance(c3, c2) / nu,
               distance(c0, c3) / nv, distance(c1, c2) / nv)


def plan_mesh(
    nodes: Sequence[NodeSpec],
    elements: Sequence[ElementSpec],
    patches: Sequence[PatchSpec],
    lines: Sequence[LineSpec],
    tolerance: float,
    existing: Sequence[Vec3] = (),
) -> MeshPlan:
    """Merge every coordinate into one point table and lay out the cells.

    Element node ids must already be known to resolve (the compiler checks that first);
    an unknown id raises ``KeyError``.
    """
    if not existing and not nodes and len(elements) + len(patches) + len(lines) == 1:
        single = _single_source(elements, patches, lines)
        if single is not None:
            return single
    index = PointIndex(tolerance)
    for point in existing:
        index.add(point)
    plan = MeshPlan(points=index.points, existing_count=len(existing))
    for local_id, coordinates in nodes:
        plan.node_alias[local_id] = index.find_or_add(coordinates)[0]
    for local_id, shape, node_ids in elements:
        _add_cells(plan, local_id, [shape], [tuple(plan.node_alias[n] for n in node_ids)])
    for local_id, shape, corners, (nu, nv) in patches:
        points = patch_points(corners, nu, nv)
        if not index.points and _min_spacing(corners, nu, nv) > 2 * tolerance:
            # The first source into an empty table: grid points are distinct by construction.
            mapping = [index.add(p) for p in points]
        else:
            mapping = [index.find_or_add(p)[0] for p in points]
        local = patch_cells(nu, nv, shape)
        _add_cells(plan, local_id, [shape] * len(local),
                   [tuple(mapping[k] for k in cell) for cell in local])
    for local_id, start, end, divisions in lines:
        mapping = [index.find_or_add(p)[0] for p in line_points(start, end, divisions)]
        beams = line_cells(divisions)
        _add_cells(plan, local_id, ["BEAM"] * len(beams),
                   [(mapping[a], mapping[b]) for a, b in beams])
    return plan


def _single_source(elements: Sequence[ElementSpec], patches: Sequence[PatchSpec],
                   lines: Sequence[LineSpec]) -> MeshPlan | None:
    """One patch or one line alone: its points are distinct, no merging is needed.

    (A patch whose cells are finer than the tolerance is rejected by the compiler.)
    """
    if patches:
        local_id, shape, corners, (nu, nv) = patches[0]
        plan = MeshPlan(points=patch_points(corners, nu, nv), existing_count=0)
        cells = patch_cells(nu, nv, shape)
        _add_cells(plan, local_id, [shape] * len(cells), cells)
        return plan
    if lines:
        local_id, start, end, divisions = lines[0]
        plan = MeshPlan(points=line_points(start, end, divisions), existing_count=0)
        beams = line_cells(divisions)
        _add_cells(plan, local_id, ["BEAM"] * len(beams), beams)
        return plan
    return None


def _add_cells(plan: MeshPlan, owner: str, shapes: list[str],
               cells: Sequence[tuple[int, ...]]) -> None:
    first = len(plan.cells)
    plan.shapes.extend(shapes)
    plan.cells.extend(cells)
    plan.owners[owner] = (first, len(plan.cells))
