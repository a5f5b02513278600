"""What a Part plan says beside the operations (docs/architecture.md §5 "Plan"), read from the
shadow run's touched entities alone:

- the nodes a call leaves with no element (free nodes): a deletion of elements keeps their
  nodes, which an audit would then find;
- the elements a run leaves degenerate, two of their nodes at one point: moving a node onto
  its neighbour collapses the QUADs between them (a plan warning: ``--yes`` stops).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

import numpy as np

from sam_plugin.compilers.plan import PlanOperation, touched
from sam_plugin.compilers.plan_words import point
from sam_plugin.samops.part_contents import PartContents
from sam_plugin.samops.part_scope import among, labels_array
from sam_plugin.samops.part_shadow import ShadowPart
from sam_plugin.words.phrase import Measure, Phrase, phrase

FREE_NODES = "leaves nodes with no element (free nodes)"
# a run moving more nodes than this is a transform of a region, which keeps its elements'
# shapes (a scale's factor is bounded): only smaller moves are checked for collapsed elements
MOVED_CHECKED = 10_000
# two nodes of one element closer than this fraction of the element's size meet
MEET_FRACTION = 1e-9


def freed_nodes(after: ShadowPart, removed_elements: Iterable[int]) -> PlanOperation | None:
    """The plan's line for the nodes :func:`free_labels` finds, or ``None``."""
    nodes = after.alive(free_labels(after, removed_elements), True)
    if not nodes:
        return None
    return PlanOperation(text=FREE_NODES, phrase=phrase("part.free_nodes"), touched=[touched(
        "nodes", [n.label for n in nodes], [n.coordinates for n in nodes])])


def free_labels(after: ShadowPart, removed_elements: Iterable[int]) -> list[int]:
    """The live nodes the elements ``removed_elements`` used that no element uses now."""
    candidates: set[int] = set()
    for label in removed_elements:
        element = after.removed_elements.get(label)
        if element is not None:
            candidates.update(element.connectivity)
    return [n.label for n in after.alive(sorted(candidates), True) if not after.users(n.label)]


def collapsed_elements(final: ShadowPart, using_changed: np.ndarray) -> list[Phrase]:
    """One warning naming the elements with a node the run moved that have two nodes at one
    point after it, that node one of them (its point a length). ``using_changed``:
    ``elements_using(before, final.changed_nodes)``, the part's elements that used a node the
    run changed (those using only a deleted one meet no moved node)."""
    moved = final.changed_nodes - final.deleted_nodes
    if not moved or len(moved) > MOVED_CHECKED:
        return []
    collapsed: list[int] = []
    meeting: tuple[int, int, Sequence[float]] | None = None
    for label in using_changed.tolist():
        element = final.entity(int(label), False)
        if element is None or int(label) not in final.element_labels_alive():
            continue
        met = _meeting(final, element.connectivity, moved)
        if met is not None:
            collapsed.append(int(label))
            meeting = meeting or met
    if not collapsed or meeting is None:
        return []
    first, second, at = meeting
    return [phrase("part.collapsed", count=len(collapsed),
                   labels=", ".join(str(k) for k in collapsed), first=first, second=second,
                   at=Measure(said=point(at), quantity="length"))]


def _meeting(part: ShadowPart, connectivity: Sequence[int], moved: set[int]
             ) -> tuple[int, int, Sequence[float]] | None:
    """Two distinct nodes of one element at one point (within its size), one of them
    ``moved``, or ``None``."""
    nodes = [part.entity(k, True) for k in dict.fromkeys(connectivity)]
    points = [(n.label, tuple(n.coordinates)) for n in nodes if n is not None]
    if len(points) < 2:
        return None
    size = max(math.dist(a, b) for _, a in points for _, b in points)
    for i, (first, a) in enumerate(points):
        for second, b in points[i + 1:]:
            if (first in moved or second in moved) and \
                    math.dist(a, b) <= MEET_FRACTION * max(size, 1.0):
                return min(first, second), max(first, second), a
    return None


def elements_using(before: PartContents, nodes: set[int]) -> np.ndarray:
    """Labels (int64) of the elements (before the run) that use any of ``nodes``."""
    mesh = before.mesh
    if not nodes or not mesh.element_count:
        return np.zeros(0, dtype=np.int64)
    hit = among(mesh.connectivity, labels_array(nodes)).astype(np.int64)
    lengths = np.diff(mesh.offsets)
    counts = np.add.reduceat(hit, np.minimum(mesh.offsets[:-1], max(len(hit) - 1, 0)))
    counts[lengths == 0] = 0
    used: np.ndarray = mesh.element_labels[counts > 0]
    return used
