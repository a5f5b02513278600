"""Domain checks on new mesh content (build_part and the additions of edit_part).

What a schema cannot say: ids distinct and resolvable, node count per shape, no degenerate
element (repeated or coincident nodes, zero length or area), patches with corners in order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import sqrt
from typing import Any

from sam_plugin.compilers.part.ir import ElementIR, LineIR, NodeIR, PatchIR
from sam_plugin.compilers.protocol import Diagnostic
from sam_plugin.samops.geometry import Vec3, distance, polygon_area
from sam_plugin.samops.mesh_plan import MeshPlan, plan_mesh
from sam_plugin.samops.records import NODES_PER_SHAPE

MAX_ELEMENTS_PER_CALL = 1_000_000


Owner = ElementIR | PatchIR | LineIR  # what an element, patch or line id names


@dataclass(frozen=True)
class MeshFields:
    """The JSON field names the content came from (build and edit name them differently)."""

    nodes: str = "nodes"
    elements: str = "elements"
    patches: str = "patches"
    lines: str = "lines"


@dataclass(frozen=True)
class MeshInput:
    nodes: tuple[NodeIR, ...]
    elements: tuple[ElementIR, ...]
    patches: tuple[PatchIR, ...]
    lines: tuple[LineIR, ...]
    fields: MeshFields
    # declared nodes no element uses, made as free nodes: an edit's ``add_nodes`` (each one
    # bound to the points a step states), never more than this
    free_nodes_allowed: int = 0

    def is_empty(self) -> bool:
        return not (self.elements or self.patches or self.lines)

    def owner_ids(self) -> list[str]:
        owners: tuple[Owner, ...] = (*self.elements, *self.patches, *self.lines)
        return [x.id for x in owners]

    def coordinates(self) -> list[Vec3]:
        points: list[Vec3] = [n.coordinates for n in self.nodes]
        for patch in self.patches:
            points.extend(patch.corners)
        for line in self.lines:
            points.extend((line.start, line.end))
        return points

    def specs(self) -> dict[str, tuple[Any, ...]]:
        return {
            "nodes": tuple((n.id, n.coordinates) for n in self.nodes),
            "elements": tuple((e.id, e.shape, e.node_ids) for e in self.elements),
            "patches": tuple((p.id, p.shape, p.corners, p.divisions) for p in self.patches),
            "lines": tuple((ln.id, ln.start, ln.end, ln.divisions) for ln in self.lines),
        }

    def element_total(self) -> int:
        total = len(self.elements)
        for patch in self.patches:
            cells = patch.divisions[0] * patch.divisions[1]
            total += cells * (2 if patch.shape == "TRI" else 1)
        return total + sum(line.divisions for line in self.lines)


def _listing(ids: Sequence[str], limit: int = 12) -> str:
    if not ids:
        return "none"
    shown = ", ".join(ids[:limit])
    return shown + (f" (+{len(ids) - limit} more)" if len(ids) > limit else "")


def check_ids(mesh: MeshInput) -> list[Diagnostic]:
    """Distinct ids, resolvable node ids and the node count of each shape."""
    found: list[Diagnostic] = []
    f = mesh.fields
    seen_nodes: dict[str, int] = {}
    for i, node in enumerate(mesh.nodes):
        if node.id in seen_nodes:
            found.append(Diagnostic(path=f"{f.nodes}[{i}].id", message=(
                f"duplicate node id {node.id!r} (first declared at {f.nodes}"
                f"[{seen_nodes[node.id]}])")))
        seen_nodes.setdefault(node.id, i)
    owners: dict[str, str] = {}
    groups: tuple[tuple[str, Sequence[Owner]], ...] = (
        (f.elements, mesh.elements), (f.patches, mesh.patches), (f.lines, mesh.lines))
    for field, items in groups:
        for i, item in enumerate(items):
            here = f"{field}[{i}]"
            if item.id in owners:
                found.append(Diagnostic(path=f"{here}.id", message=(
                    f"duplicate id {item.id!r} (already used at {owners[item.id]}); "
                    "element, patch and line ids share one namespace")))
            owners.setdefault(item.id, here)
    declared = list(seen_nodes)
    for i, element in enumerate(mesh.elements):
        found.extend(_check_element_ids(element, f"{f.elements}[{i}]", seen_nodes, declared))
    found.extend(_check_unused_nodes(mesh))
    total = mesh.element_total()
    if total > MAX_ELEMENTS_PER_CALL:
        found.append(Diagnostic(path="", message=(
            f"the call would create {total} elements; the limit is "
            f"{MAX_ELEMENTS_PER_CALL} per call")))
    return found


def _check_unused_nodes(mesh: MeshInput) -> list[Diagnostic]:
    """Every declared node must be used by an element of the call: an unused entry would be
    created as a free node (300,000 of them once took 2 GiB), and is never what was asked."""
    used = {node_id for element in mesh.elements for node_id in element.node_ids}
    declared = {node.id for node in mesh.nodes}
    if not used <= declared:
        return []  # an unresolved id is reported already; the unused one is likely its typo
    unused = [node.id for node in mesh.nodes if node.id not in used]
    if len(unused) <= mesh.free_nodes_allowed:
        return []
    if mesh.free_nodes_allowed:
        return [Diagnostic(path=mesh.fields.nodes, message=(
            f"{len(unused)} of {len(mesh.nodes)} declared nodes are used by no element "
            f"({_listing(unused)}); one call adds at most {mesh.free_nodes_allowed} free "
            f"nodes; declare only the free nodes a step adds and the nodes that "
            f"{mesh.fields.elements} use"))]
    return [Diagnostic(path=mesh.fields.nodes, message=(
        f"{len(unused)} of {len(mesh.nodes)} declared nodes are used by no element "
        f"({_listing(unused)}); declare only the nodes that {mesh.fields.elements} use "
        "(patches and lines make their own nodes)"))]


def _check_element_ids(element: ElementIR, here: str, nodes: dict[str, int],
                       declared: list[str]) -> list[Diagnostic]:
    found = []
    for k, node_id in enumerate(element.node_ids):
        if node_id not in nodes:
            found.append(Diagnostic(path=f"{here}.node_ids[{k}]", message=(
                f"{element.id}: unresolved node id {node_id!r}; declared node ids: "
                f"{_listing(declared)}")))
    need = NODES_PER_SHAPE[element.shape]
    distinct = len(set(element.node_ids))
    if distinct != need or len(element.node_ids) != need:
        found.append(Diagnostic(path=f"{here}.node_ids", message=(
            f"{element.id}: {element.shape} needs {need} distinct nodes, got {distinct}")))
    return found


def check_patches_and_lines(mesh: MeshInput, tolerance: float) -> list[Diagnostic]:
    found: list[Diagnostic] = []
    f = mesh.fields
    for i, patch in enumerate(mesh.patches):
        problem = _patch_problem(patch, tolerance)
        if problem:
            found.append(Diagnostic(path=f"{f.patches}[{i}].corners",
                                    message=f"{patch.id}: {problem}"))
    for i, line in enumerate(mesh.lines):
        length = distance(line.start, line.end)
        if length <= tolerance:
            found.append(Diagnostic(path=f"{f.lines}[{i}]", message=(
                f"{line.id}: BEAM line has zero length (start and end coincide)")))
        elif length / line.divisions <= 2 * tolerance:
            found.append(Diagnostic(path=f"{f.lines}[{i}].divisions", message=(
                f"{line.id}: {line.divisions} divisions make BEAM elements shorter than the "
                f"merge tolerance {tolerance:g}")))
    return found


def _sub(a: Vec3, b: Vec3) -> Vec3:
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2])


def _cross(a: Vec3, b: Vec3) -> Vec3:
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def _dot(a: Vec3, b: Vec3) -> float:
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


def _patch_problem(patch: PatchIR, tolerance: float) -> str | None:
    c = patch.corners
    normals = [_cross(_sub(c[(k + 1) % 4], c[k]), _sub(c[(k + 3) % 4], c[k])) for k in range(4)]
    total = (sum(n[0] for n in normals), sum(n[1] for n in normals), sum(n[2] for n in normals))
    longest = max(distance(c[k], c[(k + 1) % 4]) for k in range(4))
    largest = max(sqrt(_dot(n, n)) for n in normals)
    if largest <= tolerance * max(longest, tolerance):
        return f"{patch.shape} patch has zero area (its corners are coincident or collinear)"
    if any(_dot(n, total) <= 0 for n in normals):
        return ("corners must go around a convex patch in order: (u=0,v=0), (u=1,v=0), "
                "(u=1,v=1), (u=0,v=1); these cross or fold")
    nu, nv = patch.divisions
    spacing = min(distance(c[0], c[1]) / nu, distance(c[3], c[2]) / nu,
                  distance(c[0], c[3]) / nv, distance(c[1], c[2]) / nv)
    if spacing <= 2 * tolerance:
        return (f"divisions {nu} x {nv} make cells smaller than the merge tolerance "
                f"{tolerance:g}")
    return None


@dataclass(frozen=True)
class MeshCounts:
    points: int
    cells: int
    shapes: dict[str, int]


def mesh_counts(mesh: MeshInput, tolerance: float
                ) -> tuple[MeshCounts, list[Diagnostic], MeshPlan | None]:
    """Exact counts of the new mesh, and its plan; a lone patch or line is counted without
    planning it (plan None: its cells are distinct by construction)."""
    if not mesh.nodes and not mesh.elements and len(mesh.patches) + len(mesh.lines) == 1:
        shapes = {"QUAD": 0, "TRI": 0, "BEAM": 0}
        if mesh.patches:
            patch = mesh.patches[0]
            nu, nv = patch.divisions
            cells = nu * nv * (2 if patch.shape == "TRI" else 1)
            shapes[patch.shape] = cells
            return MeshCounts((nu + 1) * (nv + 1), cells, shapes), [], None
        line = mesh.lines[0]
        shapes["BEAM"] = line.divisions
        return MeshCounts(line.divisions + 1, line.divisions, shapes), [], None
    plan, problems = plan_checked(mesh, tolerance)
    return MeshCounts(len(plan.points), len(plan.cells), plan.shape_counts()), problems, plan


def plan_checked(mesh: MeshInput, tolerance: float,
                 existing: Sequence[Vec3] = ()) -> tuple[MeshPlan, list[Diagnostic]]:
    """Plan the mesh and reject explicit elements made degenerate by coincident nodes."""
    specs = mesh.specs()
    plan = plan_mesh(specs["nodes"], specs["elements"], specs["patches"], specs["lines"],
                     tolerance, existing)
    found: list[Diagnostic] = []
    for i, element in enumerate(mesh.elements):
        first, _ = plan.owners[element.id]
        cell = plan.cells[first]
        here = f"{mesh.fields.elements}[{i}].node_ids"
        problem = _element_problem(element, cell, plan, tolerance)
        if problem:
            found.append(Diagnostic(path=here, message=f"{element.id}: {problem}"))
    return plan, found


def _element_problem(element: ElementIR, cell: tuple[int, ...], plan: MeshPlan,
                     tolerance: float) -> str | None:
    need = NODES_PER_SHAPE[element.shape]
    if len(set(cell)) != need:
        by_point: dict[int, list[str]] = {}
        for node_id, index in zip(element.node_ids, cell, strict=True):
            by_point.setdefault(index, []).append(node_id)
        shared = next(ids for ids in by_point.values() if len(ids) > 1)
        return (f"{element.shape} needs {need} distinct nodes, got {len(set(cell))} "
                f"({' and '.join(shared)} coincide within tolerance {tolerance:g})")
    points = [plan.points[k] for k in cell]
    if element.shape == "BEAM":
        return None  # distinct points are farther apart than the tolerance
    longest = max(distance(points[k], points[(k + 1) % need]) for k in range(need))
    if polygon_area(points) <= 0.5 * tolerance * longest:
        return f"{element.shape} has zero area (its nodes are collinear)"
    if element.shape == "QUAD":
        for k in range(need):
            corner = (k - 1) % need, k, (k + 1) % need
            if _collinear(points[corner[0]], points[k], points[corner[2]], tolerance):
                names = ", ".join(element.node_ids[i] for i in corner)
                return (f"QUAD has three collinear nodes ({names}): it is a triangle, not a "
                        "quadrilateral; use TRI or move a node")
    return None


def _collinear(a: Vec3, b: Vec3, c: Vec3, tolerance: float) -> bool:
    """Whether ``b`` lies within ``tolerance`` of the line through ``a`` and ``c``."""
    span = _sub(c, a)
    length = sqrt(_dot(span, span))
    area = _cross(_sub(b, a), span)
    return sqrt(_dot(area, area)) <= tolerance * max(length, tolerance)
