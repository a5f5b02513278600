"""Uniform mesh refinement: QUAD → 4, TRI → 4, BEAM → 2 per level, with shared edge midpoints.

The work is split in two so that the compiler's prediction and the script's mutation can never
disagree: ``plan_refinement`` is a pure function over a ``MeshData`` snapshot (the compiler
runs it read-only on the live part to predict exact counts), and ``apply_plan`` turns the same
plan into host calls. All levels are planned in memory and only the final children are
created, so the host sees one ``Node`` per new node, one ``Element`` per final child and one
``deleteElement`` for the parents.

Midpoints are keyed by the unordered node pair, so neighbours refined together stay
conforming. On an edge that only one selected element uses, a node already sitting at the
midpoint (left by an earlier refinement of the neighbour) is reused instead of duplicated.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from sam_plugin.errors import RefinementDrift
from sam_plugin.samops.gc_pause import collector_paused
from sam_plugin.samops.records import NODES_PER_SHAPE

Vec = tuple[float, float, float]
Child = tuple[str, tuple[int, ...]]

MAX_LEVELS = 3
# A node within this fraction of the edge length from a midpoint is that midpoint.
_REUSE_TOLERANCE = 1e-6

__all__ = [
    "MeshData",
    "RefinePlan",
    "RefineReport",
    "apply_plan",
    "plan_refinement",
    "read_mesh_data",
    "refine",
]


@dataclass
class MeshData:
    """A plain snapshot of a part's mesh: node label → xyz, element label → (shape, nodes)."""

    nodes: dict[int, Vec]
    elements: dict[int, tuple[str, tuple[int, ...]]]


def read_mesh_data(part: Any) -> MeshData:
    """Snapshot the live part in one pass over each array."""
    nodes: dict[int, Vec] = {}
    for n in part.nodes:
        x, y, z = n.coordinates
        nodes[n.label] = (float(x), float(y), float(z))
    elements = {e.label: (str(e.type), tuple(e.connectivity)) for e in part.elements}
    return MeshData(nodes=nodes, elements=elements)


@dataclass
class RefinePlan:
    """What a refinement creates and removes, in temporary ids (new nodes are negative)."""

    levels: int
    parents: list[int]
    new_nodes: dict[int, Vec] = field(default_factory=dict)
    node_generators: dict[int, tuple[int, ...]] = field(default_factory=dict)
    children: dict[int, list[Child]] = field(default_factory=dict)
    reused_nodes: set[int] = field(default_factory=set)

    @property
    def child_count(self) -> int:
        return sum(len(kids) for kids in self.children.values())

    def node_delta(self) -> int:
        return len(self.new_nodes)

    def element_delta(self) -> int:
        return self.child_count - len(self.parents)

    def shape_deltas(self, mesh: MeshData) -> dict[str, int]:
        deltas = {"QUAD": 0, "TRI": 0, "BEAM": 0}
        for parent in self.parents:
            deltas[mesh.elements[parent][0]] -= 1
        for kids in self.children.values():
            for shape, _ in kids:
                deltas[shape] += 1
        return deltas

    def final_mesh(self, mesh: MeshData) -> MeshData:
        """The mesh after the plan is applied (children keep temporary negative ids)."""
        nodes = dict(mesh.nodes)
        nodes.update(self.new_nodes)
        removed = set(self.parents)
        elements = {lab: el for lab, el in mesh.elements.items() if lab not in removed}
        next_id = -1
        for kids in self.children.values():
            for child in kids:
                elements[next_id] = child
                next_id -= 1
        return MeshData(nodes=nodes, elements=elements)


class RefineReport(dict[str, Any]):
    """A plain dict (JSON-ready) describing what ``refine`` did."""


def plan_refinement(mesh: MeshData, element_labels: Iterable[int], levels: int) -> RefinePlan:
    """Plan ``levels`` rounds of uniform refinement of the given elements (pure, no host)."""
    if not 1 <= levels <= MAX_LEVELS:
        raise ValueError(f"levels: {levels} is out of range; legal: 1..{MAX_LEVELS}")
    parents = sorted(set(element_labels))
    missing = [lab for lab in parents if lab not in mesh.elements]
    if missing:
        raise ValueError(f"selection: element labels {missing[:10]} do not exist in the part")
    plan = _Planner(mesh, parents, levels)
    return plan.run()


class _Planner:
    """One refinement plan, straight to the final children.

    ``levels`` rounds of midpoint subdivision of a linear element are exactly its uniform
    ``n = 2**levels`` subdivision: edge points at ``k/n`` (shared through the unordered edge
    key), QUAD interior points on the bilinear map (a centre is the mean of its 4 corners,
    which is the bilinear point), TRI interior points on the barycentric grid. Planning the
    final grid directly skips every intermediate level. Hot loops are written out by hand.
    """

    def __init__(self, mesh: MeshData, parents: list[int], levels: int):
        self.mesh = mesh
        self.plan = RefinePlan(levels=levels, parents=parents)
        self.n = 2**levels
        self.counter = itertools.count(-1, -1)
        self.edge_points: dict[tuple[int, int, int], int] = {}
        selected_nodes = {node for lab in parents for node in mesh.elements[lab][1]}
        self.index = _PointIndex(mesh, parents, selected_nodes)
        self.single: set[tuple[int, int]] = (
            self._single_use_edges(parents) if self.index.has_candidates else set()
        )

    def run(self) -> RefinePlan:
        elements = self.mesh.elements
        children = self.plan.children
        for label in self.plan.parents:
            shape, conn = elements[label]
            if shape == "QUAD":
                children[label] = self.quad(conn)
            elif shape == "TRI":
                children[label] = self.tri(conn)
            else:
                a, b = conn
                line = [a, *(self.edge_point(a, b, k) for k in range(1, self.n)), b]
                children[label] = [("BEAM", (line[k], line[k + 1])) for k in range(self.n)]
        return self.plan

    def new_node(self, xyz: Vec, generators: tuple[int, ...]) -> int:
        node = next(self.counter)
        self.plan.new_nodes[node] = xyz
        self.plan.node_generators[node] = generators
        return node

    def edge_point(self, a: int, b: int, k: int) -> int:
        """The node ``k/n`` of the way from ``a`` to ``b`` (shared by every user of a-b)."""
        n = self.n
        if a > b:
            a, b, k = b, a, n - k
        key = (a, b, k)
        node = self.edge_points.get(key)
        if node is not None:
            return node
        nodes = self.mesh.nodes
        pa, pb = nodes[a], nodes[b]
        t = k / n
        xyz = (pa[0] + (pb[0] - pa[0]) * t, pa[1] + (pb[1] - pa[1]) * t,
               pa[2] + (pb[2] - pa[2]) * t)
        if (a, b) in self.single:
            existing = self.index.find(xyz, _REUSE_TOLERANCE * _distance(pa, pb))
            if existing is not None:
                self.plan.reused_nodes.add(existing)
                self.edge_points[key] = existing
                return existing
        node = self.new_node(xyz, (a, b))
        self.edge_points[key] = node
        return node

    def quad(self, conn: tuple[int, ...]) -> list[Child]:
        n = self.n
        n0, n1, n2, n3 = conn
        nodes = self.mesh.nodes
        p0, p1, p2, p3 = nodes[n0], nodes[n1], nodes[n2], nodes[n3]
        edge = self.edge_point
        grid = [[0] * (n + 1) for _ in range(n + 1)]  # grid[j][i] at (u, v) = (i/n, j/n)
        grid[0][0], grid[0][n], grid[n][n], grid[n][0] = n0, n1, n2, n3
        for k in range(1, n):
            grid[0][k] = edge(n0, n1, k)
            grid[k][n] = edge(n1, n2, k)
            grid[n][k] = edge(n2, n3, n - k)
            grid[k][0] = edge(n3, n0, n - k)
        for j in range(1, n):
            v = j / n
            row = grid[j]
            for i in range(1, n):
                u = i / n
                w0, w1, w2, w3 = (1 - u) * (1 - v), u * (1 - v), u * v, (1 - u) * v
                row[i] = self.new_node(
                    (w0 * p0[0] + w1 * p1[0] + w2 * p2[0] + w3 * p3[0],
                     w0 * p0[1] + w1 * p1[1] + w2 * p2[1] + w3 * p3[1],
                     w0 * p0[2] + w1 * p1[2] + w2 * p2[2] + w3 * p3[2]),
                    conn,
                )
        return [
            ("QUAD", (grid[j][i], grid[j][i + 1], grid[j + 1][i + 1], grid[j + 1][i]))
            for j in range(n)
            for i in range(n)
        ]

    def tri(self, conn: tuple[int, ...]) -> list[Child]:
        n = self.n
        n0, n1, n2 = conn
        nodes = self.mesh.nodes
        p0, p1, p2 = nodes[n0], nodes[n1], nodes[n2]
        edge = self.edge_point
        # point (i, j), i + j <= n, sits at p0 + i/n (p1 - p0) + j/n (p2 - p0)
        grid: dict[tuple[int, int], int] = {(0, 0): n0, (n, 0): n1, (0, n): n2}
        for k in range(1, n):
            grid[(k, 0)] = edge(n0, n1, k)
            grid[(n - k, k)] = edge(n1, n2, k)
            grid[(0, k)] = edge(n0, n2, k)
        for j in range(1, n):
            for i in range(1, n - j):
                u, v = i / n, j / n
                w0 = 1 - u - v
                grid[(i, j)] = self.new_node(
                    (w0 * p0[0] + u * p1[0] + v * p2[0],
                     w0 * p0[1] + u * p1[1] + v * p2[1],
                     w0 * p0[2] + u * p1[2] + v * p2[2]),
                    conn,
                )
        children: list[Child] = []
        for j in range(n):
            for i in range(n - j):
                children.append(("TRI", (grid[(i, j)], grid[(i + 1, j)], grid[(i, j + 1)])))
                if i + j < n - 1:
                    children.append(
                        ("TRI", (grid[(i + 1, j)], grid[(i + 1, j + 1)], grid[(i, j + 1)]))
                    )
        return children

    def _single_use_edges(self, parents: list[int]) -> set[tuple[int, int]]:
        """Edges only one selected element uses: the ones an outside node may split."""
        seen: set[tuple[int, int]] = set()
        shared: set[tuple[int, int]] = set()
        elements = self.mesh.elements
        for label in parents:
            for key in _edge_keys(elements[label][1]):
                if key in seen:
                    shared.add(key)
                else:
                    seen.add(key)
        return seen - shared


class _PointIndex:
    """Nodes of the part near the selection, bucketed on a grid, for midpoint reuse.

    Nodes of the selected elements themselves are left out: a corner is never a midpoint.
    """

    def __init__(self, mesh: MeshData, parents: Sequence[int], selected_nodes: set[int]):
        lo, hi = _bounds(mesh.nodes[n] for n in selected_nodes)
        span = max(hi[i] - lo[i] for i in range(3))
        self.cell = max(span / max(1.0, math.sqrt(len(parents))), 1e-9)
        pad = self.cell
        self.buckets: dict[tuple[int, int, int], list[int]] = {}
        for label, xyz in mesh.nodes.items():
            if label in selected_nodes:
                continue
            if all(lo[i] - pad <= xyz[i] <= hi[i] + pad for i in range(3)):
                self.buckets.setdefault(self.key(xyz), []).append(label)
        self.mesh = mesh
        self.has_candidates = bool(self.buckets)

    def key(self, xyz: Vec) -> tuple[int, int, int]:
        c = self.cell
        return (math.floor(xyz[0] / c), math.floor(xyz[1] / c), math.floor(xyz[2] / c))

    def find(self, xyz: Vec, tolerance: float) -> int | None:
        c = self.cell
        ranges = [
            range(math.floor((xyz[i] - tolerance) / c), math.floor((xyz[i] + tolerance) / c) + 1)
            for i in range(3)
        ]
        best: tuple[float, int] | None = None
        for i in ranges[0]:
            for j in ranges[1]:
                for k in ranges[2]:
                    for label in self.buckets.get((i, j, k), ()):
                        d = _distance(self.mesh.nodes[label], xyz)
                        if d <= tolerance and (best is None or (d, label) < best):
                            best = (d, label)
        return None if best is None else best[1]


def _edges(conn: tuple[int, ...]) -> list[tuple[int, int]]:
    if len(conn) == 2:
        return [(conn[0], conn[1])]
    return [(conn[i], conn[(i + 1) % len(conn)]) for i in range(len(conn))]


def _edge_keys(conn: tuple[int, ...]) -> list[tuple[int, int]]:
    return [(a, b) if a < b else (b, a) for a, b in _edges(conn)]


def _distance(p: Vec, q: Vec) -> float:
    return math.sqrt((p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2 + (p[2] - q[2]) ** 2)


def _bounds(points: Iterable[Vec]) -> tuple[list[float], list[float]]:
    lo = [math.inf] * 3
    hi = [-math.inf] * 3
    for p in points:
        for i in range(3):
            if p[i] < lo[i]:
                lo[i] = p[i]
            if p[i] > hi[i]:
                hi[i] = p[i]
    return lo, hi


# --------------------------------------------------------------------------- host side


def refine(part: Any, element_labels: Iterable[int], levels: int) -> RefineReport:
    """Refine the given elements of a live part ``levels`` times; returns what changed."""
    with collector_paused():
        mesh = read_mesh_data(part)
        plan = plan_refinement(mesh, element_labels, levels)
        return apply_plan(part, mesh, plan)


def apply_plan(part: Any, mesh: MeshData, plan: RefinePlan) -> RefineReport:
    """Drop the parents, create the planned nodes and children, carry sets, section
    assignments and beam orientations over to the children.

    Memberships are read before anything changes. Parents go first: the host's node →
    element index is then built over the small coarse mesh, not over the refined one.
    """
    from samConstants import OFF  # the host's constants exist only inside SAM (or the stub)

    parents = set(plan.parents)
    sets = _read_sets(part, parents, bool(plan.node_generators))
    regions = [
        (entry, _region_labels(part, entry.region))
        for entries in (part.sectionAssignments, part.beamOrientations)
        for entry in entries
    ]
    regions = [(entry, labels) for entry, labels in regions
               if labels[1] is not None and any(lab in parents for lab in labels[1])]
    if plan.parents:
        part.deleteElement(
            elements=part.elements.sequenceFromLabels(plan.parents), deleteUnreferencedNodes=OFF
        )
    node_objects = _create_nodes(part, plan)
    child_labels = _create_children(part, plan, node_objects)
    _write_sets(part, plan, sets, node_objects, child_labels)
    _write_regions(part, regions, child_labels)
    return RefineReport(
        levels=plan.levels,
        refined_elements=len(plan.parents),
        created_nodes=len(plan.new_nodes),
        reused_nodes=sorted(plan.reused_nodes),
        created_elements=plan.child_count,
        removed_elements=len(plan.parents),
    )


def _create_nodes(part: Any, plan: RefinePlan) -> dict[int, Any]:
    """Temporary id → host MeshNode, in creation order (labels follow that order)."""
    node = part.Node
    return {temp: node(coordinates=xyz) for temp, xyz in plan.new_nodes.items()}


def _create_children(
    part: Any, plan: RefinePlan, node_objects: dict[int, Any]
) -> dict[int, list[int]]:
    import samConstants

    shapes = {name: getattr(samConstants, name) for name in NODES_PER_SHAPE}
    objects = dict(node_objects)
    get_node = part.nodes.getFromLabel
    for kids in plan.children.values():
        for _, conn in kids:
            for n in conn:
                if n not in objects:
                    objects[n] = get_node(n)
    element = part.Element
    child_labels: dict[int, list[int]] = {}
    for parent, kids in plan.children.items():
        child_labels[parent] = [
            element(nodes=[objects[n] for n in conn], elemShape=shapes[shape]).label
            for shape, conn in kids
        ]
    return child_labels


_SetContent = tuple[list[int], list[int]]


def _read_sets(part: Any, parents: set[int], new_nodes: bool) -> dict[str, _SetContent]:
    """(node labels, element labels) of the sets a refinement changes."""
    found: dict[str, _SetContent] = {}
    for set_name in list(part.sets.keys()):
        region = part.sets[set_name]
        elements = [e.label for e in region.elements]
        nodes = [n.label for n in region.nodes]
        if any(lab in parents for lab in elements) or (new_nodes and nodes):
            found[set_name] = (nodes, elements)
    return found


def _write_sets(
    part: Any,
    plan: RefinePlan,
    sets: Mapping[str, _SetContent],
    node_objects: Mapping[int, Any],
    child_labels: Mapping[int, list[int]],
) -> None:
    """Children join every element set of their parent; a new node joins a node set when all
    the nodes it was generated from (edge ends, or the corners for a centre) are members."""
    for set_name, (node_labels, element_labels) in sets.items():
        elements: list[int] = []
        for lab in element_labels:
            elements.extend(child_labels.get(lab, (lab,)))
        nodes = list(node_labels)
        members = set(node_labels)
        if members:
            # node_generators is in creation order: generators that are earlier temporary
            # nodes were decided (and added to members) before their dependants.
            for temp, generators in plan.node_generators.items():
                if all(g in members for g in generators):
                    members.add(temp)
                    nodes.append(node_objects[temp].label)
        if nodes == node_labels and elements == element_labels:
            continue
        part.Set(
            name=set_name,
            nodes=part.nodes.sequenceFromLabels(nodes) if nodes else None,
            elements=part.elements.sequenceFromLabels(elements) if elements else None,
        )


def _region_labels(part: Any, region: Any) -> tuple[str | None, list[int] | None]:
    """(set name, None) for a region that follows a set, else (None, element labels)."""
    name = getattr(region, "name", None)
    if isinstance(name, str) and name in part.sets.keys():
        return name, [e.label for e in region.elements]
    return None, [e.label for e in region.elements]


def _write_regions(
    part: Any, regions: Sequence[tuple[Any, tuple[str | None, list[int] | None]]],
    child_labels: Mapping[int, list[int]],
) -> None:
    """Section assignments / beam orientations over a parent now cover its children."""
    for entry, (set_name, labels) in regions:
        if set_name is not None:
            entry.setValues(region=part.sets[set_name])  # the set itself was rewritten
            continue
        new_labels: list[int] = []
        for lab in labels or ():
            new_labels.extend(child_labels.get(lab, (lab,)))
        entry.setValues(region=part.elements.sequenceFromLabels(new_labels))


# --------------------------------------------------------------------------- script steps


@dataclass
class PreparedRefinement:
    """A refinement planned in the script's preflight, applied by its mutation."""

    mesh: MeshData
    plan: RefinePlan
    before_nodes: int
    before_elements: int


def prepare_refinement(
    part: Any, selector: Mapping[str, Any], levels: int, node_delta: int, element_delta: int
) -> PreparedRefinement:
    """Preflight: resolve the selection, plan, and check the compiled prediction still holds."""
    from sam_plugin.samops import selection

    labels = [e.label for e in selection.select_elements(part, selector)]
    with collector_paused():
        mesh = read_mesh_data(part)
        plan = plan_refinement(mesh, labels, levels)
    if (plan.node_delta(), plan.element_delta()) != (node_delta, element_delta):
        raise RefinementDrift(
            f"refine_mesh was compiled to add {node_delta} nodes and {element_delta} elements, "
            f"but the live part now gives {plan.node_delta()} and {plan.element_delta()}; "
            "the part changed since compilation, nothing was refined"
        )
    return PreparedRefinement(mesh, plan, len(part.nodes), len(part.elements))


def apply_prepared(part: Any, prepared: PreparedRefinement) -> RefineReport:
    """Mutation: apply the preflight's plan."""
    with collector_paused():
        return apply_plan(part, prepared.mesh, prepared.plan)


def verify_refinement(
    part: Any, prepared: PreparedRefinement, hanging_nodes: int | None = None
) -> None:
    """Postflight: exact counts, no parent survived, and (when given) the predicted number of
    hanging nodes, counted on the live part by the audit's detector."""
    plan = prepared.plan
    nodes = prepared.before_nodes + plan.node_delta()
    elements = prepared.before_elements + plan.element_delta()
    if (len(part.nodes), len(part.elements)) != (nodes, elements):
        raise RuntimeError(
            f"after refine_mesh the part has {len(part.nodes)} nodes and {len(part.elements)} "
            f"elements; planned {nodes} and {elements}"
        )
    alive = {e.label for e in part.elements}
    survivors = [label for label in plan.parents if label in alive]
    if survivors:
        raise RuntimeError(f"refined parent element(s) still present: {survivors[:20]}")
    if hanging_nodes is not None:
        from sam_plugin.samops.mesh_audit import hanging_nodes as find_hanging

        found = len(find_hanging(read_mesh_data(part)))
        if found != hanging_nodes:
            raise RuntimeError(
                f"after refine_mesh the part has {found} hanging nodes; predicted {hanging_nodes}"
            )
