"""Checks judged against the part's own scale (docs/architecture.md §4), not ``== 0``.

- A direction (rotate axis, mirror normal) shorter than ``DIRECTION_FLOOR`` times the part's
  size is degenerate: normalising 1e-300 underflows, and no analyst means it.
- A copy vector (translate_copy, linear_array) shorter than the part's merge tolerance puts
  the copies on the original; a translate vector that short moves nothing but rounding.
- A merge tolerance at or above the smallest distance between two nodes of one element joins
  that element's nodes (1e308 collapses the part into one node): the diagnostic gives the
  smallest element edge and a tolerance below it.

The part judged is the one the call meets: the live part, or the shadow the earlier calls of
the run leave (a scale before a merge changes the edges).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from sam_plugin.compilers.part.predict import state_is_live
from sam_plugin.compilers.protocol import CompileContext, Diagnostic
from sam_plugin.errors import ShadowDoubt
from sam_plugin.samops.geometry import RELATIVE_TOLERANCE
from sam_plugin.samops.mesh_read import Box, node_box
from sam_plugin.samops.part_contents import PartContents
from sam_plugin.samops.part_shadow import close_pairs
from sam_plugin.samops.readback import read_mesh, recent_contents

DIRECTION_FLOOR = 1e-9
SUGGESTED_FRACTION = 1e-3  # of the smallest element edge


@dataclass(frozen=True)
class Scale:
    span: float  # bounding-box diagonal
    tolerance: float  # the part's merge tolerance (relative to its size)
    bounds: Box | None = None  # the nodes' box it was judged from (None: no nodes)


def part_met(ctx: CompileContext) -> Any:
    """The part this call meets: live, or the shadow after the run's earlier calls."""
    from sam_plugin.compilers.part.simulate import replay
    from sam_plugin.errors import NotSimulated

    if state_is_live(ctx) or not ctx.prior_fragments:
        return ctx.part
    try:
        return replay(ctx)
    except NotSimulated:
        return ctx.part


def observed_contents(ctx: CompileContext) -> PartContents | None:
    """The part as the run observed it (the read kept by the fingerprint the caller gives in
    ``ctx.extra["before_fingerprint"]``), else None. A call that meets the live part may be
    judged on it: the script runs only on a part that still reads back as observed."""
    fingerprint = str(ctx.extra.get("before_fingerprint", ""))
    return recent_contents(fingerprint) if fingerprint else None


def scale_of(part: Any, observed: PartContents | None = None) -> Scale:
    # ``observed``: the part as observed (``observed_contents``), its box already known; else
    # the coordinates only, and a live part's box from the observation's read when nothing
    # moved since (samops/mesh_read.py node_box): not one more conversion of every node
    if observed is not None:
        bounds = observed.mesh.bounds
    else:
        bounds = None if part is None else node_box(part)
    if bounds is None:
        return Scale(span=1.0, tolerance=RELATIVE_TOLERANCE)
    low, high = bounds
    span = float(np.linalg.norm(np.subtract(high, low)))
    return Scale(span=span, tolerance=RELATIVE_TOLERANCE * max(span, 1.0), bounds=bounds)


def check_direction(vector: Sequence[float], scale: Scale, path: str,
                    what: str) -> list[Diagnostic]:
    norm = math.hypot(*vector)
    if norm >= DIRECTION_FLOOR * max(scale.span, 1.0):
        return []
    if norm == 0:
        return [Diagnostic(path=path, message=f"{what} must not be the zero vector")]
    return [Diagnostic(path=path, message=(
        f"{what} {_vec(vector)} is degenerate (length {norm:.3g}) for a part that spans "
        f"{scale.span:.3g}; give a direction such as (0, 0, 1)"))]


def check_offset(vector: Sequence[float], scale: Scale, path: str, *,
                 copies: bool = True) -> list[Diagnostic]:
    """A copy or move vector no longer than the part's merge tolerance (its model-scale
    epsilon): copies would lie on the original, a move would write rounding (1e-320 made a
    subnormal coordinate)."""
    norm = math.hypot(*vector)
    if norm > scale.tolerance:
        return []
    outcome = "the copies would lie on the original" if copies else "the nodes would not move"
    if norm == 0:
        return [Diagnostic(path=path, message=f"vector must not be zero: {outcome}")]
    return [Diagnostic(path=path, message=(
        f"vector {_vec(vector)} (length {norm:.3g}) is within the merge tolerance "
        f"{scale.tolerance:.3g} of a part that spans {scale.span:.3g}: {outcome}"))]


def smallest_element_edge(part: Any) -> tuple[float, int, int, int] | None:
    """(distance, element label, node a, node b) of the closest two nodes of one element.

    Whole-array work on one read of the part (``samops.readback.read_mesh``): the node pairs
    of every element in element order, ``i < j`` within it, so the first closest pair wins as
    in a loop over the elements (measured: 1.2 s as that loop on 200,000 nodes, ~0.1 s so).
    """
    if part is None or not len(part.elements):
        return None
    mesh = read_mesh(part)
    order = np.argsort(mesh.node_labels, kind="stable")
    labels, xyz = mesh.node_labels[order], mesh.coordinates[order]
    lengths = np.diff(mesh.offsets)
    firsts, seconds, owners, ranks = [], [], [], []
    for arity in np.unique(lengths):
        if arity < 2:
            continue
        elements = np.nonzero(lengths == arity)[0]
        rows = mesh.connectivity[mesh.offsets[elements][:, None] + np.arange(arity)]
        i, j = np.triu_indices(int(arity), 1)  # (0,1), (0,2), ..., (1,2), ...: the loop's order
        firsts.append(rows[:, i].ravel())
        seconds.append(rows[:, j].ravel())
        owners.append(np.repeat(elements, len(i)))
        ranks.append(np.tile(np.arange(len(i)), len(elements)))
    if not firsts:
        return None
    in_order = np.lexsort((np.concatenate(ranks), np.concatenate(owners)))
    first = np.concatenate(firsts)[in_order]
    second = np.concatenate(seconds)[in_order]
    owner = np.concatenate(owners)[in_order]
    distances = np.linalg.norm(xyz[np.searchsorted(labels, first)]
                               - xyz[np.searchsorted(labels, second)], axis=1)
    at = int(np.argmin(distances))
    return (float(distances[at]), int(mesh.element_labels[owner[at]]), int(first[at]),
            int(second[at]))


def check_merge_tolerance(tolerance: float | None, part: Any, path: str) -> list[Diagnostic]:
    """The merge may only join coincident nodes: never two nodes of one element, never a
    chain of nodes that are not all within the tolerance of each other."""
    if part is None or not len(part.nodes):
        return []
    used = tolerance if tolerance is not None else scale_of(part).tolerance
    edge = smallest_element_edge(part)
    if edge is not None and used >= edge[0]:
        return [_joins_an_element(used, edge, path)]
    chain = _chain(part, used)
    return [] if chain is None else [_chain_words(chain, used, path)]


def _chain(part: Any, tol: float) -> tuple[list[int], tuple[int, int, float], float] | None:
    """(labels, (a, b, distance) of two of them beyond ``tol``, smallest link) of the first
    group of nodes linked within ``tol`` that is not a clique; None when every group is."""
    nodes = sorted(part.nodes, key=lambda n: n.label)
    labels = [n.label for n in nodes]
    points = [tuple(n.coordinates) for n in nodes]
    try:
        pairs = close_pairs(points, tol)
    except ShadowDoubt:  # too dense to tell: the shadow keeps ranges and says why
        return None
    parent = list(range(len(labels)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for a, b, _ in pairs:
        parent[root(a)] = root(b)
    links: dict[int, list[float]] = {}
    for a, _, d2 in pairs:
        links.setdefault(root(a), []).append(math.sqrt(d2))
    groups: dict[int, list[int]] = {top: [] for top in links}
    for i in range(len(labels)):
        if root(i) in groups:
            groups[root(i)].append(i)
    for top, members in groups.items():
        if len(links[top]) == len(members) * (len(members) - 1) // 2:
            continue
        near = members[:200]  # a far pair among the first members is enough to name
        far = max(((i, j) for i in near for j in near if i < j),
                  key=lambda ij: math.dist(points[ij[0]], points[ij[1]]))
        distance = math.dist(points[far[0]], points[far[1]])
        return ([labels[i] for i in members], (labels[far[0]], labels[far[1]], distance),
                min(links[top]))
    return None


def _chain_words(chain: tuple[list[int], tuple[int, int, float], float], tol: float,
                 path: str) -> Diagnostic:
    members, (a, b, distance), smallest = chain
    shown = ", ".join(map(str, members[:8])) + (" ..." if len(members) > 8 else "")
    return Diagnostic(path=path, message=(
        f"tolerance {tol:.3g} chains nodes {shown}: nodes {a} and {b} are {distance:.3g} apart, "
        "beyond the tolerance, yet linked through nodes within it; SAM may merge them all, "
        f"more than the coincident nodes; use a tolerance below {smallest:.3g}"))


def _joins_an_element(used: float, edge: tuple[float, int, int, int], path: str) -> Diagnostic:
    distance, element, a, b = edge
    suggestion = f"{distance * SUGGESTED_FRACTION:.3g}" if distance > 0 else "a smaller value"
    return Diagnostic(path=path, message=(
        f"tolerance {used:.3g} would join nodes of one element: the smallest element edge is "
        f"{distance:.3g} (element {element}, nodes {a} and {b}); use a tolerance below it, "
        f"e.g. {suggestion}"))


def _vec(vector: Sequence[float]) -> str:
    return "(" + ", ".join(f"{float(v):.3g}" for v in vector) + ")"
