"""What undo must keep of a snapshot: the entities a verified run touched, as they were
(docs/architecture.md §5 "Snapshot and restore").

The script's snapshot (``samops.snapshot``) holds references to the whole part, which costs a
scan and no copy. Once the run is verified the part is exactly what the plan said, so undo
needs only what differs from it now: a ``PartDelta`` compares the snapshot with the live part
(by identity first: an untouched node still has the very coordinate tuple saved) and keeps

- the nodes and elements in the host's order up to the first one the run added, deleted or
  re-created (the kept prefix), the coordinates of the prefix nodes the run moved and the
  connectivity of prefix elements it re-pointed, each with its label (an undo checks that
  the entity at that position is still that one);
- the saved nodes and elements after the prefix (their labels, shapes, coordinates);
- the sets that differ, and the section assignments and orientations after their own kept
  prefix; the model's definitions (a few entries).

``expand`` rebuilds the full snapshot from the live part (which an undo first proves to hold
the run's after-fingerprint) and the delta; the restore is then the usual one. Its bytes grow
with what the run touched, not with the part.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import compress, count
from operator import is_not
from typing import Any

import numpy as np

from sam_plugin.samops.covered import Covered
from sam_plugin.samops.mesh_read import HostRead, PartMesh, coordinate_array
from sam_plugin.samops.snapshot import (
    Definitions,
    PartState,
    Region,
    Snapshot,
    _bit_different,
    _capture_assignments,
    _capture_orientations,
    _capture_sets,
    _first_difference,
    _kept_prefix,
    _moved,
    capture_definitions,
)

Point = tuple[float, float, float]
SetEntry = tuple[str, list[int], list[int]]


@dataclass(frozen=True, eq=False)
class NodeColumns:
    """Nodes as columns: positions in the saved order (of moved nodes; none for the tail),
    labels and points (as saved). Columns, not one tuple per node: a run that moved every
    node of a 188k part keeps them without creating 188k Python tuples."""

    positions: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    labels: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    points: np.ndarray = field(default_factory=lambda: np.zeros((0, 3), dtype=np.float64))

    def __len__(self) -> int:
        return len(self.labels)

    @classmethod
    def of(cls, labels: Sequence[int], points: Sequence[Point],
           positions: Sequence[int] = ()) -> NodeColumns:
        return cls(np.array(positions, dtype=np.int64), np.array(labels, dtype=np.int64),
                   coordinate_array(list(points)).reshape(-1, 3))

    def rows(self) -> list[tuple[int, int, Point]]:
        """(position, label, point) of each; position -1 in the tail."""
        positions = self.positions.tolist() if len(self.positions) else [-1] * len(self)
        return list(zip(positions, self.labels.tolist(),
                        map(_point, self.points.tolist()), strict=True))


@dataclass(eq=False)
class PartDelta:
    """See the module doc. Positions index the host's order of the saved part."""

    part_name: str
    part_existed: bool
    definitions: Definitions | None
    node_count: int = 0  # saved nodes
    node_prefix: int = 0
    moved: NodeColumns = field(default_factory=NodeColumns)  # moved in the kept prefix
    node_tail: NodeColumns = field(default_factory=NodeColumns)  # after it
    element_count: int = 0
    element_prefix: int = 0
    repointed: list[tuple[int, int, tuple[int, ...]]] = field(default_factory=list)
    element_tail: list[tuple[int, str, tuple[int, ...]]] = field(default_factory=list)
    set_names: list[str] = field(default_factory=list)  # saved order
    sets_changed: list[SetEntry] = field(default_factory=list)
    assignments_prefix: int = 0
    assignments_tail: list[tuple[str, Region]] = field(default_factory=list)
    orientations_prefix: int = 0
    orientations_tail: list[tuple[str, tuple[float, float, float], Region]] = field(
        default_factory=list)
    covered: Covered = field(default_factory=dict)  # kept whole: a few entries each

    def entities(self) -> int:
        """How many nodes and elements (and set members) it holds."""
        return (len(self.moved) + len(self.node_tail) + len(self.repointed)
                + len(self.element_tail)
                + sum(len(nodes) + len(elements) for _, nodes, elements in self.sets_changed))


def delta_of(snapshot: Snapshot, model: Any, live: HostRead | None = None,
             live_mesh: PartMesh | None = None) -> PartDelta:
    """What differs between ``snapshot`` (taken before the run) and the live part now.
    ``live``: the part's nodes and elements as the caller read them just now (the readback
    that verified the run): compared list to list, by identity first, no attribute read;
    ``live_mesh``: that read's arrays, compared with the arrays of the read the snapshot
    took (bit for bit, in numpy) instead of the lists when the snapshot took one."""
    if not snapshot.usable:
        raise ValueError("an unusable snapshot (the host lacks " + ", ".join(snapshot.missing)
                         + ") cannot be kept")
    name = snapshot.part_name
    saved = snapshot.part
    if saved is None:
        return PartDelta(part_name=name, part_existed=False, definitions=snapshot.definitions,
                         covered=snapshot.covered)
    part = model.parts[name] if name in model.parts.keys() else None
    if part is None:  # gone: keep it whole (no prefix to rely on)
        return _whole(name, saved, snapshot.definitions, snapshot.covered)
    nodes = live.nodes if live is not None and live.nodes is not None else list(part.nodes)
    keep = min(_kept_prefix(nodes, saved.node_objects, saved.node_labels_from),
               len(saved.coordinates))
    arrays = live_mesh if live is not None and live.nodes is not None else None
    if arrays is not None and saved.mesh is not None:
        moved = _bits_differ(arrays.coordinates, saved.mesh.coordinates, keep)
    elif live is not None and live.nodes is not None:
        suspects = _not_identical(live.points, saved.coordinates, keep)
        moved = _bit_different(suspects, list(map(live.points.__getitem__, suspects)),
                               saved.coordinates)
    else:
        moved = _moved(nodes[:keep], saved.coordinates)  # one pass, by identity first
    elements = (live.elements if live is not None and live.elements is not None
                else list(part.elements))
    keep_elements = min(_kept_prefix(elements, saved.element_objects,
                                     lambda start: saved.elements_from(start)[0]),
                        len(saved.connectivity))
    rows = saved.connectivity
    if arrays is not None and saved.mesh is not None and live is not None and \
            live.elements is not None and _same_rows(arrays, saved.mesh):
        repointed = []
    elif live is not None and live.elements is not None:
        repointed = [i for i in _not_identical(live.rows, rows, keep_elements)
                     if tuple(live.rows[i]) != rows[i]]
    else:
        repointed = [i for i, element, row in zip(count(), elements[:keep_elements], rows)
                     if element.connectivity is not row and tuple(element.connectivity) != row]
    labels, shapes = saved.elements_from(keep_elements)
    live_sets = {entry[0]: entry for entry in _capture_sets(part)}
    assignments, orientations = _capture_assignments(part), _capture_orientations(part)
    keep_a = _first_difference(assignments, saved.assignments)
    keep_o = _first_difference(orientations, saved.orientations)
    return PartDelta(
        part_name=name, part_existed=True, definitions=snapshot.definitions,
        node_count=len(saved.coordinates), node_prefix=keep,
        moved=_moved_columns(saved, moved, nodes),
        node_tail=_tail_columns(saved, keep),
        element_count=len(rows), element_prefix=keep_elements,
        repointed=[(i, elements[i].label, tuple(rows[i])) for i in repointed],
        element_tail=[(label, str(shape), tuple(row)) for label, shape, row in
                      zip(labels, shapes, rows[keep_elements:], strict=True)],
        set_names=[entry[0] for entry in saved.sets],
        sets_changed=[entry for entry in saved.sets if live_sets.get(entry[0]) != entry],
        assignments_prefix=keep_a, assignments_tail=list(saved.assignments[keep_a:]),
        orientations_prefix=keep_o, orientations_tail=list(saved.orientations[keep_o:]),
        covered=snapshot.covered,
    )


def _bits_differ(now: np.ndarray, saved: np.ndarray, length: int) -> list[int]:
    """Rows below ``length`` whose coordinates differ bit for bit (0.0 and -0.0 differ), as
    ``_bit_different`` finds them from the lists: the arrays are those lists converted."""
    if now is saved:
        return []
    rows = min(length, len(now), len(saved))
    differ = np.ascontiguousarray(now[:rows]).view(np.uint64) != \
        np.ascontiguousarray(saved[:rows]).view(np.uint64)
    moved: list[int] = np.flatnonzero(differ[:, 0] | differ[:, 1] | differ[:, 2]).tolist()
    return moved


def _same_rows(now: PartMesh, saved: PartMesh) -> bool:
    """The very connectivity arrays: a read reuses them only for equal rows (``read_mesh``),
    so no element was re-pointed."""
    return now.offsets is saved.offsets and now.connectivity is saved.connectivity


def _not_identical(now: list[Any], saved: list[Any], length: int) -> list[int]:
    """Positions below ``length`` whose object is not the very one saved (in C)."""
    head = now if len(now) <= length else now[:length]
    return list(compress(count(), map(is_not, head, saved)))


def _whole(name: str, saved: PartState, definitions: Definitions | None,
           covered: Covered) -> PartDelta:
    labels, shapes = saved.elements_from(0)
    return PartDelta(
        part_name=name, part_existed=True, definitions=definitions, covered=covered,
        node_count=len(saved.coordinates),
        node_tail=_tail_columns(saved, 0),
        element_count=len(saved.connectivity),
        element_tail=[(label, str(shape), tuple(row)) for label, shape, row in
                      zip(labels, shapes, saved.connectivity, strict=True)],
        set_names=[entry[0] for entry in saved.sets], sets_changed=list(saved.sets),
        assignments_tail=list(saved.assignments), orientations_tail=list(saved.orientations))


def _moved_columns(saved: PartState, moved: list[int], nodes: list[Any]) -> NodeColumns:
    """The moved nodes as saved: from the arrays of the read the snapshot took, when it took
    one (no tuple per node), else from its lists."""
    positions = np.array(moved, dtype=np.int64)
    if saved.mesh is not None:
        return NodeColumns(positions, saved.mesh.node_labels[positions],
                           saved.mesh.coordinates[positions])
    return NodeColumns.of([nodes[i].label for i in moved],
                          [saved.coordinates[i] for i in moved], moved)


def _tail_columns(saved: PartState, keep: int) -> NodeColumns:
    if saved.mesh is not None:
        return NodeColumns(labels=saved.mesh.node_labels[keep:],
                           points=saved.mesh.coordinates[keep:])
    return NodeColumns.of(saved.node_labels_from(keep), saved.coordinates[keep:])


def _point(value: Any) -> Point:
    x, y, z = value
    return (x, y, z)


def expand(delta: PartDelta, model: Any) -> Snapshot:
    """The snapshot ``delta`` was taken from, rebuilt on the live part (ValueError when the
    live part is not the one the delta was kept against)."""
    if not delta.part_existed:
        return Snapshot(part_name=delta.part_name, part=None, definitions=delta.definitions,
                        covered=delta.covered)
    name = delta.part_name
    part = model.parts[name] if name in model.parts.keys() else None
    if part is None and (delta.node_prefix or delta.element_prefix):
        raise ValueError(f"part {name!r} is missing")
    nodes = list(part.nodes)[: delta.node_prefix] if part is not None else []
    elements = list(part.elements)[: delta.element_prefix] if part is not None else []
    if len(nodes) < delta.node_prefix or len(elements) < delta.element_prefix:
        raise ValueError("the part has fewer nodes or elements than the run left")
    coordinates: list[Any] = [n.coordinates for n in nodes]
    tail = delta.node_tail.rows()
    for position, label, point in delta.moved.rows():
        if not 0 <= position < len(nodes) or nodes[position].label != label:
            raise ValueError(f"node {label} is not where the run left it")
        coordinates[position] = point
    connectivity: list[Any] = [e.connectivity for e in elements]
    for position, label, row in delta.repointed:
        if elements[position].label != label:
            raise ValueError(f"element {label} is not where the run left it")
        connectivity[position] = row
    import samConstants

    shapes = {shape: getattr(samConstants, shape) for shape in {s for _, s, _ in
                                                                delta.element_tail}}
    state = PartState(
        node_labels=[n.label for n in nodes] + [label for _, label, _ in tail],
        coordinates=coordinates + [point for _, _, point in tail],
        element_labels=[e.label for e in elements] + [label for label, _, _ in
                                                      delta.element_tail],
        element_types=[e.type for e in elements] + [shapes[s] for _, s, _ in delta.element_tail],
        connectivity=connectivity + [row for _, _, row in delta.element_tail],
        sets=_sets(part, delta),
        assignments=(_capture_assignments(part)[: delta.assignments_prefix]
                     if part is not None else []) + list(delta.assignments_tail),
        orientations=(_capture_orientations(part)[: delta.orientations_prefix]
                      if part is not None else []) + list(delta.orientations_tail),
    )
    return Snapshot(part_name=name, part=state, definitions=delta.definitions or
                    capture_definitions(model), covered=delta.covered)


def _sets(part: Any, delta: PartDelta) -> list[SetEntry]:
    live = {entry[0]: entry for entry in _capture_sets(part)} if part is not None else {}
    changed = {entry[0]: entry for entry in delta.sets_changed}
    out = []
    for name in delta.set_names:
        entry = changed.get(name, live.get(name))
        if entry is None:
            raise ValueError(f"set {name!r} is neither kept nor in the part")
        out.append(entry)
    return out
