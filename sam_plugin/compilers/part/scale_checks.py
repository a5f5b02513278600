"""Checks judged against the part's own scale (issue 11), not ``== 0``.

- A direction (rotate axis, mirror normal) shorter than ``DIRECTION_FLOOR`` times the part's
  size is degenerate: normalising 1e-300 underflows, and no analyst means it.
- A copy vector (translate_copy, linear_array) shorter than the part's merge tolerance puts
  the copies on the original.
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
from sam_plugin.samops.geometry import RELATIVE_TOLERANCE

DIRECTION_FLOOR = 1e-9
SUGGESTED_FRACTION = 1e-3  # of the smallest element edge


@dataclass(frozen=True)
class Scale:
    span: float  # bounding-box diagonal
    tolerance: float  # the part's merge tolerance (relative to its size)


def part_met(ctx: CompileContext) -> Any:
    """The part this call meets: live, or the shadow after the run's earlier calls."""
    from sam_plugin.compilers.part.simulate import NotSimulated, replay

    if state_is_live(ctx) or not ctx.prior_fragments:
        return ctx.part
    try:
        return replay(ctx)
    except NotSimulated:
        return ctx.part


def scale_of(part: Any) -> Scale:
    if part is None or not len(part.nodes):
        return Scale(span=1.0, tolerance=RELATIVE_TOLERANCE)
    xyz = np.fromiter((c for n in part.nodes for c in n.coordinates), dtype=np.float64)
    xyz = xyz.reshape(-1, 3)
    span = float(np.linalg.norm(xyz.max(axis=0) - xyz.min(axis=0)))
    return Scale(span=span, tolerance=RELATIVE_TOLERANCE * max(span, 1.0))


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


def check_offset(vector: Sequence[float], scale: Scale, path: str) -> list[Diagnostic]:
    norm = math.hypot(*vector)
    if norm > scale.tolerance:
        return []
    if norm == 0:
        return [Diagnostic(path=path, message=(
            "vector must not be zero: the copies would lie on the original"))]
    return [Diagnostic(path=path, message=(
        f"vector {_vec(vector)} (length {norm:.3g}) is within the merge tolerance "
        f"{scale.tolerance:.3g} of a part that spans {scale.span:.3g}: the copies would lie on "
        "the original"))]


def smallest_element_edge(part: Any) -> tuple[float, int, int, int] | None:
    """(distance, element label, node a, node b) of the closest two nodes of one element."""
    if part is None or not len(part.elements):
        return None
    labels = np.fromiter((n.label for n in part.nodes), dtype=np.int64)
    xyz = np.fromiter((c for n in part.nodes for c in n.coordinates),
                      dtype=np.float64).reshape(-1, 3)
    order = np.argsort(labels)
    labels, xyz = labels[order], xyz[order]
    firsts, seconds, owners = [], [], []
    for element in part.elements:
        nodes = tuple(element.connectivity)
        count = len(nodes)
        for i in range(count):
            for j in range(i + 1, count):
                firsts.append(nodes[i])
                seconds.append(nodes[j])
                owners.append(element.label)
    a = np.searchsorted(labels, np.asarray(firsts, dtype=np.int64))
    b = np.searchsorted(labels, np.asarray(seconds, dtype=np.int64))
    distances = np.linalg.norm(xyz[a] - xyz[b], axis=1)
    at = int(np.argmin(distances))
    return float(distances[at]), owners[at], firsts[at], seconds[at]


def check_merge_tolerance(tolerance: float | None, part: Any, path: str) -> list[Diagnostic]:
    edge = smallest_element_edge(part)
    if edge is None:
        return []
    used = tolerance if tolerance is not None else scale_of(part).tolerance
    distance, element, a, b = edge
    if used < distance:
        return []
    suggestion = f"{distance * SUGGESTED_FRACTION:.3g}" if distance > 0 else "a smaller value"
    return [Diagnostic(path=path, message=(
        f"tolerance {used:.3g} would join nodes of one element: the smallest element edge is "
        f"{distance:.3g} (element {element}, nodes {a} and {b}); use a tolerance below it, "
        f"e.g. {suggestion}"))]


def _vec(vector: Sequence[float]) -> str:
    return "(" + ", ".join(f"{float(v):.3g}" for v in vector) + ")"
