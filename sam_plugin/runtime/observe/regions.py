"""Observation layer L2: a region index of the target part, bounded in size whatever its size.

What a model needs to aim a request at a place ("the left end", "near x = 5000", "set DECK")
without seeing 190,000 nodes: connected components, a coarse spatial grid of occupied cells,
sets, per-shape extents and station lines along the longest axis, each with bounding boxes,
counts and label ranges. Lists are capped (largest first) and say how many were left out.

Speed: the part is read once into numpy arrays (``samops.readback.read_mesh``; the
observation's own read is reused when it is kept for this fingerprint) and everything after is
whole-array work: bincounts for the grid and the stations, a radix sort for station extents,
and connected components by rounds of hooking and pointer jumping (``_component_roots``).

The index is computed once per observation and cached by the geometry fingerprint
(``region_index``); the fingerprint itself is the observation layer's (L0/L1) business.
Its schema is ``region_schema.py``, the grid and the station lines ``region_grid.py``, the
exploration's ``query_regions`` tool ``region_query.py``.

How the controller uses it, right after ``observe`` (the compact JSON goes into the design
request next to L0/L1, and into ``workspace.json`` if wanted)::

    part = host.part(target)
    regions = region_index(part, observation.fingerprint) if part is not None else None
    regions_json = regions.model_dump_json() if regions else "null"   # <= 12 KB
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import chain
from typing import Any

import numpy as np

from sam_plugin.errors import QueryError
from sam_plugin.runtime.observe.region_grid import grid_index, station_lines
from sam_plugin.runtime.observe.region_schema import (
    AXES,
    DEFAULT_GRID_CELLS,
    DEFAULT_STATIONS,
    MAX_COMPONENTS,
    MAX_SETS,
    BBox,
    ComponentRegion,
    LabelRange,
    RegionIndex,
    SetRegion,
    ShapeRegion,
    Vec3,
    round_sig,
)
from sam_plugin.samops.readback import (
    PartMesh,
    read_mesh,
    read_nodes,
    recent_mesh,
    run_start,
)

# -- reading the part once -----------------------------------------------------------------

# The part's mesh as flat numpy arrays, read once (``samops.readback.PartMesh``).
MeshArrays = PartMesh


def read_mesh_arrays(part: Any) -> MeshArrays:
    return read_mesh(part)


def label_run_start(labels: list[int]) -> int | None:
    """The first label when ``labels`` are one ascending run (the usual case), else None."""
    count = len(labels)
    if count and labels[-1] - labels[0] + 1 == count and labels == list(
        range(labels[0], labels[0] + count)
    ):
        return labels[0]
    return None


def _position_of(labels: list[int], start: int | None) -> Callable[[int], int]:
    """``label -> index in labels``: arithmetic for a run of labels, else a dict."""
    if start is not None:
        return start.__rsub__  # label - start
    return dict(zip(labels, range(len(labels)), strict=True)).__getitem__


def label_positions(labels: list[int]) -> Callable[[int], int]:
    """``label -> index in labels`` (for label lists read in one sweep)."""
    return _position_of(labels, label_run_start(labels))


class _Positions:
    """Node labels -> node indices, for whole arrays of labels at once."""

    def __init__(self, labels: np.ndarray) -> None:
        self.count = len(labels)
        self.start = run_start(labels)
        self.ascending = self.start is not None or bool((np.diff(labels) > 0).all())
        if self.start is None:
            self.order = np.argsort(labels, kind="stable")
            self.sorted = labels[self.order]

    def __call__(self, labels: np.ndarray) -> np.ndarray:
        if self.start is not None:
            positions = labels - self.start
            # two reductions; the mask that names the label only when one is out of range
            if not len(positions) or (int(positions.min()) >= 0
                                      and int(positions.max()) < self.count):
                return positions
            missing = (positions < 0) | (positions >= self.count)
        else:
            found = np.minimum(np.searchsorted(self.sorted, labels), max(self.count - 1, 0))
            missing = self.sorted[found] != labels if self.count else np.ones(len(labels), bool)
            positions = self.order[found] if self.count else found
        if missing.any():
            raise ValueError(f"node label {int(labels[np.argmax(missing)])} is used by an "
                             "element or set but is not a node of the part")
        return positions


def _vec3(values: Iterable[float]) -> Vec3:
    x, y, z = values
    return (x, y, z)


def _label_range(labels: np.ndarray) -> LabelRange | None:
    return (int(labels.min()), int(labels.max())) if len(labels) else None


def _bbox_of(points: np.ndarray) -> BBox:
    """The rounded bounding box of ``points`` (k x 3, k > 0)."""
    # column by column: a reduction over axis 0 of a k x 3 array is several times slower
    columns = (points[:, 0], points[:, 1], points[:, 2])
    low = [round_sig(float(column.min())) for column in columns]
    high = [round_sig(float(column.max())) for column in columns]
    return (low[0], low[1], low[2]), (high[0], high[1], high[2])


# -- connected components ------------------------------------------------------------------


def _component_roots(node_count: int, positions: np.ndarray, offsets: np.ndarray,
                     first_positions: np.ndarray) -> np.ndarray:
    """Per node, the lowest node index of its component (a free node is its own).

    Each element ties its first node to the others. Rounds of "hook every root to the
    lowest root it is tied to, then jump pointers until each node points at its root", in
    whole-array steps (int32, to halve the memory traffic); a tie found inside one tree is
    dropped for good. A row-by-row grid needs one round; any numbering needs few.
    """
    index = np.int32 if node_count < 2**31 else np.int64
    lengths = np.diff(offsets)
    width = int(lengths[0])
    if (lengths == width).all():  # one width (the usual one-shape part): no self-ties
        rows = positions.astype(index).reshape(-1, width)
        ends_a = np.repeat(rows[:, 0], width - 1)
        ends_b = rows[:, 1:].reshape(-1)
    else:
        ends_a = np.repeat(first_positions.astype(index), lengths)
        ends_b = positions.astype(index)
    parent = np.arange(node_count, dtype=index)
    roots_a, roots_b = ends_a, ends_b  # every node is its own root before the first round
    while True:
        # a self-tie (roots_a == roots_b) hooks a root to itself: harmless
        np.minimum.at(parent, np.maximum(roots_a, roots_b), np.minimum(roots_a, roots_b))
        while True:
            jumped = parent[parent]
            if np.array_equal(jumped, parent):
                break
            parent = jumped
        roots_a, roots_b = parent[ends_a], parent[ends_b]
        apart = roots_a != roots_b
        if not apart.any():
            return parent
        ends_a, ends_b = ends_a[apart], ends_b[apart]
        roots_a, roots_b = roots_a[apart], roots_b[apart]


@dataclass(frozen=True)
class _Whole:
    """What the index already knows about the whole part (reused by the one-piece fast paths)."""

    bbox: BBox
    node_labels: LabelRange
    element_labels: LabelRange | None


def _components(arrays: MeshArrays, places: _Positions, kinds: _Kinds, whole: _Whole,
                positions: np.ndarray,
                first_positions: np.ndarray) -> tuple[list[ComponentRegion], int, int]:
    """Components largest first (capped), their total count and the number of free nodes."""
    node_count = arrays.node_count
    if not arrays.element_count:
        return [], 0, node_count
    roots = _component_roots(node_count, positions, arrays.offsets, first_positions)
    element_roots = roots[first_positions]
    element_counts = np.bincount(element_roots, minlength=node_count)
    node_counts = np.bincount(roots, minlength=node_count)
    ranked_roots = np.flatnonzero(element_counts)
    free = node_count - int(node_counts[ranked_roots].sum())
    if len(ranked_roots) == 1 and not free:
        return [ComponentRegion(
            id=1, nodes=node_count, elements=arrays.element_count, bbox=whole.bbox,
            node_labels=whole.node_labels,
            element_labels=whole.element_labels,
            shapes=kinds.counts(),
        )], 1, 0
    labels = arrays.node_labels
    if places.ascending:  # the lowest index holds the lowest label
        lowest_label = labels[ranked_roots]
    else:
        lowest = np.full(node_count, np.iinfo(np.int64).max, dtype=np.int64)
        np.minimum.at(lowest, roots, labels)
        lowest_label = lowest[ranked_roots]
    order = np.lexsort((lowest_label, -node_counts[ranked_roots],
                        -element_counts[ranked_roots]))
    components = []
    for number, root in enumerate(ranked_roots[order[:MAX_COMPONENTS]].tolist(), start=1):
        node_idx = np.flatnonzero(roots == root)
        element_idx = np.flatnonzero(element_roots == root)
        components.append(ComponentRegion(
            id=number,
            nodes=len(node_idx),
            elements=len(element_idx),
            bbox=_bbox_of(arrays.coordinates[node_idx]),
            node_labels=_label_range(labels[node_idx]),
            element_labels=_label_range(
                arrays.element_labels[element_idx]),
            shapes=kinds.counts(element_idx),
        ))
    return components, len(ranked_roots), free


# -- per shape -----------------------------------------------------------------------------


class _Kinds:
    """Element shape names and counts, from the mesh's shape codes."""

    def __init__(self, arrays: MeshArrays) -> None:
        self.names = arrays.shape_names
        self.codes = arrays.shape_codes
        self.count = arrays.element_count
        self.single: str | None = self.names[0] if len(self.names) == 1 else None

    def counts(self, indices: np.ndarray | None = None) -> dict[str, int]:
        if self.single is not None:
            return {self.single: self.count if indices is None else len(indices)}
        codes = self.codes if indices is None else self.codes[indices]
        found = np.bincount(codes, minlength=len(self.names)).tolist()
        return {name: count for name, count in zip(self.names, found, strict=True) if count}

    def indices(self) -> list[tuple[str, np.ndarray]]:
        if self.single is not None:
            return [(self.single, np.arange(self.count))]
        return [(name, np.flatnonzero(self.codes == code))
                for code, name in enumerate(self.names)]


def _shapes(arrays: MeshArrays, kinds: _Kinds, whole: _Whole, free_nodes: int,
            positions: np.ndarray) -> list[ShapeRegion]:
    regions = []
    lengths = np.diff(arrays.offsets)
    for code, (name, idx) in enumerate(kinds.indices()):
        if kinds.single is not None and not free_nodes:
            bbox, labels = whole.bbox, whole.element_labels
        else:
            used = positions if kinds.single is not None else positions[
                np.repeat(kinds.codes == code, lengths)]
            bbox = _bbox_of(arrays.coordinates[used])
            labels = _label_range(arrays.element_labels[idx])
        regions.append(ShapeRegion(shape=name, elements=len(idx), bbox=bbox,
                                   element_labels=labels))
    return regions


# -- sets ----------------------------------------------------------------------------------


def _sets(part: Any, points_of: Callable[[np.ndarray], np.ndarray],
          names: Sequence[str] | None = None) -> tuple[list[SetRegion], int]:
    """Set extents (the first ``MAX_SETS``, or exactly ``names``) and the number of sets.

    ``points_of`` maps an array of node labels to their coordinates (k x 3).
    """
    repository = getattr(part, "sets", None)
    existing = list(repository.keys()) if repository is not None else []
    if names is None:
        names = existing[:MAX_SETS]
    else:
        unknown = [name for name in names if name not in existing]
        if unknown:
            legal = ", ".join(existing) if existing else "none (the part has no sets)"
            raise QueryError(f"names: no set '{unknown[0]}' in part "
                                   f"'{getattr(part, 'name', '?')}'; existing sets: {legal}")
    regions = []
    for name in names:
        entry = repository[name]  # type: ignore[index]  # a host mapping when names exist
        nodes = tuple(getattr(entry, "nodes", None) or ())
        elements = tuple(getattr(entry, "elements", None) or ())
        labels = [node.label for node in nodes]
        labels.extend(chain.from_iterable(element.connectivity for element in elements))
        bbox = _bbox_of(points_of(np.array(labels, dtype=np.int64))) if labels else None
        regions.append(SetRegion(name=name, nodes=len(nodes), elements=len(elements),
                                 bbox=bbox))
    return regions, len(existing)

# -- the index -----------------------------------------------------------------------------


def build_region_index(
    part: Any,
    fingerprint: str,
    *,
    arrays: MeshArrays | None = None,
    grid_cells: int = DEFAULT_GRID_CELLS,
    stations: int = DEFAULT_STATIONS,
    include_sets: bool = True,
) -> RegionIndex:
    """Compute L2 for ``part`` (``arrays``, when given, must be read from this same part)."""
    arrays = arrays if arrays is not None else read_mesh(part)
    labels = arrays.node_labels
    coordinates = arrays.coordinates
    places = _Positions(labels)

    def points_of(node_labels: np.ndarray) -> np.ndarray:
        points: np.ndarray = coordinates[places(node_labels)]
        return points

    set_regions, sets_total = _sets(part, points_of) if include_sets else ([], 0)
    notes: list[str] = []
    if sets_total > len(set_regions):
        notes.append(f"sets: the first {len(set_regions)} of {sets_total} are listed; "
                     "query_regions(section='sets', names=[...]) shows others")
    if not len(labels):
        return RegionIndex(
            fingerprint=fingerprint, nodes=0, elements=arrays.element_count, free_nodes=0,
            bbox=None, node_labels=None, element_labels=_label_range(arrays.element_labels),
            longest_axis=None, components_total=0, components=[], shapes=[],
            sets_total=sets_total, sets=set_regions, grid=None, stations=None,
            notes=[*notes, "the part has no nodes"],
        )
    box = arrays.bounds  # the read's own box (L1 took it already): the same column reductions
    assert box is not None  # the part has nodes (returned above otherwise)
    low, high = box
    extent = tuple(h - lo for lo, h in zip(low, high, strict=True))
    axis = max(range(3), key=lambda a: (extent[a], -a))
    node_range = _label_range(labels)
    assert node_range is not None  # the part has nodes (returned above otherwise)
    whole = _Whole(
        bbox=(_vec3(map(round_sig, low)), _vec3(map(round_sig, high))),
        node_labels=node_range,
        element_labels=_label_range(arrays.element_labels),
    )
    kinds = _Kinds(arrays)
    positions = places(arrays.connectivity)
    first_positions = positions[arrays.offsets[:-1]]
    components, components_total, free = _components(arrays, places, kinds, whole, positions,
                                                     first_positions)
    if components_total > len(components):
        notes.append(f"components: the {len(components)} largest of {components_total} are "
                     "listed")
    return RegionIndex(
        fingerprint=fingerprint,
        nodes=len(labels),
        elements=arrays.element_count,
        free_nodes=free,
        bbox=whole.bbox,
        node_labels=whole.node_labels,
        element_labels=whole.element_labels,
        longest_axis=AXES[axis] if extent[axis] > 0 else None,
        components_total=components_total,
        components=components,
        shapes=_shapes(arrays, kinds, whole, free, positions),
        sets_total=sets_total,
        sets=set_regions,
        grid=grid_index(coordinates, low, high, grid_cells, first_positions),
        stations=station_lines(coordinates, axis, low[axis], high[axis], stations, first_positions)
        if extent[axis] > 0 and stations >= 2 else None,
        notes=notes,
    )


class RegionIndexCache:
    """The last few region indexes, by geometry fingerprint (an unchanged part is not re-read)."""

    def __init__(self, size: int = 4) -> None:
        self._size = size
        self._entries: OrderedDict[str, RegionIndex] = OrderedDict()

    def get(self, fingerprint: str) -> RegionIndex | None:
        entry = self._entries.get(fingerprint)
        if entry is not None:
            self._entries.move_to_end(fingerprint)
        return entry

    def put(self, index: RegionIndex) -> None:
        self._entries[index.fingerprint] = index
        self._entries.move_to_end(index.fingerprint)
        while len(self._entries) > self._size:
            self._entries.popitem(last=False)

    def clear(self) -> None:
        self._entries.clear()


_CACHE = RegionIndexCache()


def region_index(part: Any, fingerprint: str, *, arrays: MeshArrays | None = None,
                 cache: RegionIndexCache | None = None) -> RegionIndex:
    """L2 for ``part`` whose current geometry fingerprint is ``fingerprint``, cached by it.

    The caller vouches that ``fingerprint`` was computed from ``part`` as it is now (the
    controller computes it at observation time); a changed part has a new fingerprint and is
    indexed again.
    """
    store = _CACHE if cache is None else cache
    cached = store.get(fingerprint)
    if cached is not None:
        return cached
    if arrays is None:  # the mesh the observation read for this fingerprint, if it is kept
        arrays = recent_mesh(fingerprint)
    index = build_region_index(part, fingerprint, arrays=arrays)
    store.put(index)
    return index


def named_set_regions(part: Any, names: Sequence[str]) -> tuple[list[SetRegion], int]:
    """The regions of the sets ``names`` (of all sets, how many there are)."""
    labels, points = read_nodes(tuple(part.nodes))
    places = _Positions(labels)
    return _sets(part, lambda wanted: points[places(wanted)], names)
