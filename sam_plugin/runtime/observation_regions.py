"""Observation layer L2: a region index of the target part, bounded in size whatever its size.

What a model needs to aim a request at a place ("the left end", "near x = 5000", "set DECK")
without seeing 190,000 nodes: connected components, a coarse spatial grid of occupied cells,
sets, per-shape extents and station lines along the longest axis, each with bounding boxes,
counts and label ranges. Lists are capped (largest first) and say how many were left out.

Speed: the part is read once (``read_mesh_arrays``: one attribute sweep per array, in C via
``map``/``attrgetter``); everything after works on those lists with builtins (``min``/``max``,
``Counter``, ``sorted``/``groupby``). The one Python-level loop is the union-find over element
connectivity, kept flat by path compression (see ``_component_roots``).

The index is computed once per observation and cached by the geometry fingerprint
(``region_index``); the fingerprint itself is the observation layer's (L0/L1) business.

How the controller uses it, right after ``observe`` (the compact JSON goes into the design
request next to L0/L1, and into ``workspace.json`` if wanted)::

    part = host.part(target)
    regions = region_index(part, observation.fingerprint) if part is not None else None
    regions_json = regions.model_dump_json() if regions else "null"   # <= 12 KB
"""

from __future__ import annotations

import math
from collections import Counter, OrderedDict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import chain, groupby, repeat
from operator import attrgetter, itemgetter, sub
from typing import Any, Literal

from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match
from pydantic import BaseModel, ConfigDict, Field

REGIONS_SCHEMA = "sam-agent/regions/1"
AXES: tuple[str, str, str] = ("x", "y", "z")
AxisName = Literal["x", "y", "z"]

DEFAULT_GRID_CELLS = 64
DEFAULT_STATIONS = 11
MAX_COMPONENTS = 12
MAX_SETS = 24
_SIGNIFICANT = 6  # digits kept for coordinates in the index (it is an index, not geometry)

Vec3 = tuple[float, float, float]
BBox = tuple[Vec3, Vec3]
LabelRange = tuple[int, int]


def round_sig(value: float) -> float:
    """``value`` with 6 significant digits: ``4999.99999999`` -> ``5000.0``."""
    return float(f"{value:.{_SIGNIFICANT}g}")


def _bbox(xs: Iterable[float], ys: Iterable[float], zs: Iterable[float]) -> BBox:
    xs, ys, zs = list(xs), list(ys), list(zs)
    return (
        (round_sig(min(xs)), round_sig(min(ys)), round_sig(min(zs))),
        (round_sig(max(xs)), round_sig(max(ys)), round_sig(max(zs))),
    )


class RegionQueryError(ValueError):
    """A region query the model can fix: the message names the field and the legal values."""


# -- the schema ----------------------------------------------------------------------------


class _Compact(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class ComponentRegion(_Compact):
    """A set of elements connected through shared nodes (free nodes belong to none)."""

    id: int
    nodes: int
    elements: int
    bbox: BBox
    node_labels: LabelRange
    element_labels: LabelRange
    shapes: dict[str, int]


class GridIndex(_Compact):
    """A coarse grid over the part's bounding box; only occupied cells are listed.

    Cell ``(i, j, k)`` spans ``origin + (i, j, k) * cell_size`` to one cell further; a node
    counts in the cell that holds it, an element in the cell of its first node.
    """

    origin: Vec3
    cell_size: Vec3
    divisions: tuple[int, int, int]
    columns: tuple[str, ...] = ("i", "j", "k", "nodes", "elements")
    cells: list[tuple[int, int, int, int, int]]


class SetRegion(_Compact):
    name: str
    nodes: int
    elements: int
    bbox: BBox | None


class ShapeRegion(_Compact):
    shape: str
    elements: int
    bbox: BBox
    element_labels: LabelRange


class Station(_Compact):
    """The slab ``span`` of the longest axis around position ``at``: what lies there."""

    at: float
    span: tuple[float, float]
    nodes: int
    elements: int
    bbox: BBox | None


class StationLines(_Compact):
    axis: AxisName
    stations: list[Station]


class RegionIndex(_Compact):
    """L2 of the observation: ``model_dump_json()`` is the compact form that goes into prompts."""

    schema_id: str = REGIONS_SCHEMA
    fingerprint: str
    nodes: int
    elements: int
    free_nodes: int
    bbox: BBox | None
    node_labels: LabelRange | None
    element_labels: LabelRange | None
    longest_axis: AxisName | None
    components_total: int
    components: list[ComponentRegion]
    shapes: list[ShapeRegion]
    sets_total: int
    sets: list[SetRegion]
    grid: GridIndex | None
    stations: StationLines | None
    notes: list[str] = Field(default_factory=list)


# -- reading the part once -----------------------------------------------------------------


@dataclass(frozen=True)
class MeshArrays:
    """The part's mesh as parallel lists, read in one sweep per array."""

    node_labels: list[int]
    coordinates: list[Vec3]
    element_labels: list[int]
    element_types: list[Any]
    connectivity: list[tuple[int, ...]]

    @property
    def xs(self) -> list[float]:
        return list(map(itemgetter(0), self.coordinates))

    @property
    def ys(self) -> list[float]:
        return list(map(itemgetter(1), self.coordinates))

    @property
    def zs(self) -> list[float]:
        return list(map(itemgetter(2), self.coordinates))


def read_mesh_arrays(part: Any) -> MeshArrays:
    nodes = tuple(part.nodes)
    elements = tuple(part.elements)
    return MeshArrays(
        node_labels=list(map(attrgetter("label"), nodes)),
        coordinates=list(map(attrgetter("coordinates"), nodes)),
        element_labels=list(map(attrgetter("label"), elements)),
        element_types=list(map(attrgetter("type"), elements)),
        connectivity=list(map(attrgetter("connectivity"), elements)),
    )


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
    """``label -> index in labels`` (for lists read in one sweep, e.g. ``MeshArrays``)."""
    return _position_of(labels, label_run_start(labels))


def _first_positions(connectivity: list[tuple[int, ...]], start: int | None,
                     position_of: Callable[[int], int]) -> list[int]:
    """The node index of every element's first node (all in C for a run of labels)."""
    firsts = map(itemgetter(0), connectivity)
    if start is None:
        return list(map(position_of, firsts))
    return list(map(sub, firsts, repeat(start)))


def _label_range(labels: Sequence[int]) -> LabelRange | None:
    return (min(labels), max(labels)) if labels else None


# -- connected components ------------------------------------------------------------------


def _component_roots(arrays: MeshArrays) -> list[int]:
    """Union-find over connectivity: the root label of every node, in node order.

    Nodes are addressed by label in a flat list (labels are positive, host-assigned, dense in
    practice); a sparse labelling falls back to a dict of parents. Roots are the lowest label,
    and every node an element touches is pointed straight at its root, so the trees stay flat
    and the common case (all nodes of an element already joined) costs one read per node.
    """
    labels = arrays.node_labels
    top = max(labels) if labels else 0
    parent: Any
    if top <= 4 * len(labels) + 1024:
        parent = list(range(top + 1))
    else:
        parent = {label: label for label in labels}
    for conn in arrays.connectivity:
        first = conn[0]
        root = parent[first]
        while True:
            up = parent[root]
            if up == root:
                break
            root = up
        for label in conn:
            other = parent[label]
            if other == root:
                continue
            while True:
                up = parent[other]
                if up == other:
                    break
                other = up
            if other != root:
                if other < root:
                    root, other = other, root
                parent[other] = root
            parent[label] = root
        parent[first] = root
    # pointer jumping in C until every node points at its root
    getter = parent.__getitem__
    roots = list(map(getter, labels))
    while True:
        jumped = list(map(getter, roots))
        if jumped == roots:
            break
        roots = jumped
    return roots


def _groups(keys: Sequence[Any], wanted: Any = None) -> dict[Any, list[int]]:
    """Indices of ``keys`` grouped by key (only keys in ``wanted`` when it is given)."""
    order: Iterable[int] = range(len(keys))
    if wanted is not None:
        order = [i for i, key in enumerate(keys) if key in wanted]
    order = sorted(order, key=keys.__getitem__)
    return {key: list(members) for key, members in groupby(order, key=keys.__getitem__)}


def _bbox_of(indices: list[int], xs: list[float], ys: list[float], zs: list[float]) -> BBox:
    return _bbox(map(xs.__getitem__, indices), map(ys.__getitem__, indices),
                 map(zs.__getitem__, indices))


@dataclass(frozen=True)
class _Whole:
    """What the index already knows about the whole part (reused by the one-piece fast paths)."""

    bbox: BBox
    node_labels: LabelRange
    element_labels: LabelRange | None


def _components(arrays: MeshArrays, coords: tuple[list[float], list[float], list[float]],
                kinds: _Kinds, whole: _Whole,
                first_positions: list[int]) -> tuple[list[ComponentRegion], int, int]:
    """Components largest first (capped), their total count and the number of free nodes."""
    if not arrays.connectivity:
        return [], 0, len(arrays.node_labels)
    roots = _component_roots(arrays)
    element_roots = list(map(roots.__getitem__, first_positions))
    element_counts = Counter(element_roots)
    if len(element_counts) == 1:
        (root,) = element_counts
        free = len(roots) - roots.count(root)
        if not free:
            return [ComponentRegion(
                id=1, nodes=len(roots), elements=len(element_roots), bbox=whole.bbox,
                node_labels=whole.node_labels,
                element_labels=whole.element_labels,  # type: ignore[arg-type]
                shapes=kinds.counts(),
            )], 1, 0
    node_counts = Counter(roots)
    free = len(roots) - sum(node_counts[root] for root in element_counts)
    ranked = sorted(element_counts, key=lambda r: (-element_counts[r], -node_counts[r], r))
    shown = set(ranked[:MAX_COMPONENTS])
    node_groups = _groups(roots, shown)
    element_groups = _groups(element_roots, shown)
    components = []
    for number, root in enumerate(ranked[:MAX_COMPONENTS], start=1):
        node_idx = node_groups[root]
        element_idx = element_groups[root]
        components.append(ComponentRegion(
            id=number,
            nodes=len(node_idx),
            elements=len(element_idx),
            bbox=_bbox_of(node_idx, *coords),
            node_labels=_range_of(node_idx, arrays.node_labels),
            element_labels=_range_of(element_idx, arrays.element_labels),
            shapes=kinds.counts(element_idx),
        ))
    return components, len(element_counts), free


def _range_of(indices: list[int], labels: list[int]) -> LabelRange:
    picked = list(map(labels.__getitem__, indices))
    return (min(picked), max(picked))


# -- per shape -----------------------------------------------------------------------------


class _Kinds:
    """Element shape names, found without hashing the host's constants per element (a Python
    ``__hash__`` call each: 190,000 calls were a third of the index time)."""

    def __init__(self, types: list[Any]) -> None:
        self.count = len(types)
        # list.count compares by identity first: one C pass for the usual one-shape part
        self.single: str | None = (
            str(types[0]) if types and types.count(types[0]) == len(types) else None)
        self.names: list[str] = []
        if self.single is None and types:
            by_id = dict(zip(map(id, types), types, strict=True))
            name_of = {ident: str(kind) for ident, kind in by_id.items()}
            self.names = list(map(name_of.__getitem__, map(id, types)))

    def counts(self, indices: list[int] | None = None) -> dict[str, int]:
        if self.single is not None:
            return {self.single: self.count if indices is None else len(indices)}
        names = self.names if indices is None else map(self.names.__getitem__, indices)
        return dict(sorted(Counter(names).items()))

    def indices(self) -> list[tuple[str, list[int]]]:
        if self.single is not None:
            return [(self.single, list(range(self.count)))]
        return sorted(_groups(self.names).items())


def _shapes(arrays: MeshArrays, coordinate_of: Any, kinds: _Kinds, whole: _Whole,
            free_nodes: int) -> list[ShapeRegion]:
    regions = []
    for name, idx in kinds.indices():
        if kinds.single is not None and not free_nodes:
            bbox = whole.bbox
            labels = whole.element_labels
        else:
            conns = map(arrays.connectivity.__getitem__, idx)
            points = list(map(coordinate_of, set(chain.from_iterable(conns))))
            bbox = _bbox(map(itemgetter(0), points), map(itemgetter(1), points),
                         map(itemgetter(2), points))
            labels = _range_of(idx, arrays.element_labels)
        regions.append(ShapeRegion(shape=name, elements=len(idx), bbox=bbox,
                                   element_labels=labels))  # type: ignore[arg-type]
    return regions


# -- sets ----------------------------------------------------------------------------------


def _sets(part: Any, coordinate_of: Any,
          names: Sequence[str] | None = None) -> tuple[list[SetRegion], int]:
    """Set extents (the first ``MAX_SETS``, or exactly ``names``) and the number of sets."""
    repository = getattr(part, "sets", None)
    existing = list(repository.keys()) if repository is not None else []
    if names is None:
        names = existing[:MAX_SETS]
    else:
        unknown = [name for name in names if name not in existing]
        if unknown:
            legal = ", ".join(existing) if existing else "none (the part has no sets)"
            raise RegionQueryError(f"names: no set '{unknown[0]}' in part "
                                   f"'{getattr(part, 'name', '?')}'; existing sets: {legal}")
    regions = []
    for name in names:
        entry = repository[name]  # type: ignore[index]
        nodes = tuple(getattr(entry, "nodes", None) or ())
        elements = tuple(getattr(entry, "elements", None) or ())
        labels = set(map(attrgetter("label"), nodes))
        labels.update(chain.from_iterable(map(attrgetter("connectivity"), elements)))
        points = list(map(coordinate_of, labels))
        bbox = _bbox(map(itemgetter(0), points), map(itemgetter(1), points),
                     map(itemgetter(2), points)) if points else None
        regions.append(SetRegion(name=name, nodes=len(nodes), elements=len(elements),
                                 bbox=bbox))
    return regions, len(existing)


# -- grid ----------------------------------------------------------------------------------


def grid_divisions(extent: Sequence[float], budget: int) -> tuple[int, int, int]:
    """Cells per axis, about cubic, at most ``budget`` in all; a flat axis gets one cell.

    A first guess from the volume, coarsened until it fits, then refined one axis at a time
    (the axis with the longest cells first) while the budget allows.
    """
    longest = max(extent)
    if longest <= 0:
        return (1, 1, 1)
    active = [a for a, e in enumerate(extent) if e > longest * 1e-6]
    size = math.prod(extent[a] for a in active) ** (1 / len(active)) / budget ** (
        1 / len(active))
    while True:
        divisions = [1, 1, 1]
        for a in active:
            divisions[a] = max(1, math.ceil(extent[a] / size))
        if math.prod(divisions) <= budget:
            break
        size *= 1.05
    while True:
        for a in sorted(active, key=lambda a: -extent[a] / divisions[a]):
            if math.prod(divisions) // divisions[a] * (divisions[a] + 1) <= budget:
                divisions[a] += 1
                break
        else:
            return (divisions[0], divisions[1], divisions[2])


def _cell_keys(values: list[float], low: float, extent: float, count: int) -> list[int] | None:
    """Cell index along one axis per value; ``None`` for an axis of one cell (all zero)."""
    if count == 1:
        return None
    # scaled just below count/extent so the far face falls in the last cell, not past it
    scale = count / extent * (1 - 1e-9)
    return [int((v - low) * scale) for v in values]


def _combined_keys(axis_keys: list[list[int] | None], sizes: tuple[int, int],
                   count: int) -> list[int]:
    """``(i * ny + j) * nz + k`` per node; an axis with one cell (``None``) adds nothing."""
    ki, kj, kk = axis_keys
    ny, nz = sizes
    keys: list[int] = ki if ki is not None else [0] * count
    if kj is not None:
        keys = [i * ny + j for i, j in zip(keys, kj, strict=True)]
    elif ny > 1:
        keys = [i * ny for i in keys]
    if kk is not None:
        keys = [ij * nz + k for ij, k in zip(keys, kk, strict=True)]
    elif nz > 1:
        keys = [ij * nz for ij in keys]
    return keys


def _grid(arrays: MeshArrays, coords: tuple[list[float], list[float], list[float]],
          low: Vec3, high: Vec3, budget: int, first_positions: list[int]) -> GridIndex:
    extent = tuple(h - lo for lo, h in zip(low, high, strict=True))
    nx, ny, nz = grid_divisions(extent, budget)
    keys = _combined_keys([_cell_keys(values, lo, ext, n) for values, lo, ext, n in
                           zip(coords, low, extent, (nx, ny, nz), strict=True)], (ny, nz),
                          len(coords[0]))
    node_counts = Counter(keys)
    element_counts = Counter(map(keys.__getitem__, first_positions))
    cells = []
    for key in sorted(node_counts):
        i, rest = divmod(key, ny * nz)
        j, k = divmod(rest, nz)
        cells.append((i, j, k, node_counts[key], element_counts.get(key, 0)))
    cell_size = tuple(round_sig(e / n) for e, n in zip(extent, (nx, ny, nz), strict=True))
    return GridIndex(origin=tuple(map(round_sig, low)), cell_size=cell_size,  # type: ignore[arg-type]
                     divisions=(nx, ny, nz), cells=cells)


# -- stations ------------------------------------------------------------------------------


def _stations(arrays: MeshArrays, coords: tuple[list[float], list[float], list[float]],
              axis: int, low: float, high: float, count: int,
              first_positions: list[int]) -> StationLines:
    """``count`` evenly spaced stations from end to end; each owns the slab nearest to it."""
    values = coords[axis]
    scale = (count - 1) / (high - low)
    pitch = 1 / scale
    keys = [int((v - low) * scale + 0.5) for v in values]
    node_counts = Counter(keys)
    element_counts = Counter(map(keys.__getitem__, first_positions))
    # one stable sort by station, then each station's nodes are a slice of the sorted axes
    order = sorted(range(len(keys)), key=keys.__getitem__)
    sorted_axes = [list(map(axis_values.__getitem__, order)) for axis_values in coords]
    stations = []
    start = 0
    for number in range(count):
        at = low + number * pitch
        size = node_counts.get(number, 0)
        end = start + size
        bbox = _bbox(*(axis_values[start:end] for axis_values in sorted_axes)) if size else None
        start = end
        stations.append(Station(
            at=round_sig(at),
            span=(round_sig(max(low, at - pitch / 2)), round_sig(min(high, at + pitch / 2))),
            nodes=size,
            elements=element_counts.get(number, 0),
            bbox=bbox,
        ))
    return StationLines(axis=AXES[axis], stations=stations)  # type: ignore[arg-type]


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
    arrays = arrays if arrays is not None else read_mesh_arrays(part)
    labels = arrays.node_labels
    start = label_run_start(labels)
    position_of = _position_of(labels, start)
    coordinates = arrays.coordinates

    def coordinate_of(label: int) -> Vec3:
        return coordinates[position_of(label)]

    set_regions, sets_total = _sets(part, coordinate_of) if include_sets else ([], 0)
    notes: list[str] = []
    if sets_total > len(set_regions):
        notes.append(f"sets: the first {len(set_regions)} of {sets_total} are listed; "
                     "query_regions(section='sets', names=[...]) shows others")
    if not labels:
        return RegionIndex(
            fingerprint=fingerprint, nodes=0, elements=len(arrays.element_labels), free_nodes=0,
            bbox=None, node_labels=None, element_labels=_label_range(arrays.element_labels),
            longest_axis=None, components_total=0, components=[], shapes=[],
            sets_total=sets_total, sets=set_regions, grid=None, stations=None,
            notes=[*notes, "the part has no nodes"],
        )
    coords = (arrays.xs, arrays.ys, arrays.zs)
    low = tuple(map(min, coords))
    high = tuple(map(max, coords))
    extent = tuple(h - lo for lo, h in zip(low, high, strict=True))
    axis = max(range(3), key=lambda a: (extent[a], -a))
    whole = _Whole(
        bbox=(tuple(map(round_sig, low)), tuple(map(round_sig, high))),  # type: ignore[arg-type]
        node_labels=(min(labels), max(labels)),  # type: ignore[arg-type]
        element_labels=_label_range(arrays.element_labels),
    )
    kinds = _Kinds(arrays.element_types)

    first_positions = _first_positions(arrays.connectivity, start, position_of)
    components, components_total, free = _components(arrays, coords, kinds, whole, first_positions)
    if components_total > len(components):
        notes.append(f"components: the {len(components)} largest of {components_total} are "
                     "listed")
    return RegionIndex(
        fingerprint=fingerprint,
        nodes=len(labels),
        elements=len(arrays.element_labels),
        free_nodes=free,
        bbox=whole.bbox,
        node_labels=whole.node_labels,
        element_labels=whole.element_labels,
        longest_axis=AXES[axis] if extent[axis] > 0 else None,  # type: ignore[arg-type]
        components_total=components_total,
        components=components,
        shapes=_shapes(arrays, coordinate_of, kinds, whole, free),
        sets_total=sets_total,
        sets=set_regions,
        grid=_grid(arrays, coords, low, high, grid_cells, first_positions),  # type: ignore[arg-type]
        stations=_stations(arrays, coords, axis, low[axis], high[axis], stations,
                           first_positions)
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
    index = build_region_index(part, fingerprint, arrays=arrays)
    store.put(index)
    return index


# -- query_regions: the L2 index on demand, whole or zoomed into a box ---------------------

REGION_SECTIONS: tuple[str, ...] = ("all", "components", "grid", "sets", "shapes", "stations")
_VEC3 = {"type": "array", "items": {"type": "number"}, "minItems": 3, "maxItems": 3}

REGION_QUERY_SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "section": {"enum": list(REGION_SECTIONS),
                    "description": "which part of the region index to return (default all)"},
        "box": {
            "type": "object",
            "additionalProperties": False,
            "required": ["min", "max"],
            "properties": {"min": _VEC3, "max": _VEC3},
            "description": "zoom: index only nodes inside this box and elements whose nodes "
                           "are all inside, with a grid of the same budget over the box",
        },
        "grid_cells": {"type": "integer", "minimum": 1, "maximum": 256,
                       "description": f"grid cell budget (default {DEFAULT_GRID_CELLS})"},
        "stations": {"type": "integer", "minimum": 2, "maximum": 41,
                     "description": f"stations along the longest axis (default "
                                    f"{DEFAULT_STATIONS})"},
        "names": {"type": "array", "items": {"type": "string", "minLength": 1},
                  "minItems": 1, "maxItems": 64,
                  "description": "section=sets only: the sets to describe"},
    },
}
_REGION_VALIDATOR = Draft202012Validator(REGION_QUERY_SCHEMA)
_SECTION_FIELDS = {"components": ("components_total", "components"), "grid": ("grid",),
                   "sets": ("sets_total", "sets"), "shapes": ("shapes",),
                   "stations": ("stations",)}


def validate_region_query(arguments: Any) -> dict[str, Any]:
    if not isinstance(arguments, dict):
        raise RegionQueryError(f"arguments: expected an object; got {type(arguments).__name__}")
    error = best_match(_REGION_VALIDATOR.iter_errors(arguments))
    if error is not None:
        path = ".".join(str(p) for p in error.absolute_path) or "arguments"
        legal = ""
        if error.validator == "additionalProperties":
            legal = f"; legal fields: {', '.join(REGION_QUERY_SCHEMA['properties'])}"
        raise RegionQueryError(f"{path}: {error.message}{legal}")
    if "names" in arguments and arguments.get("section") != "sets":
        raise RegionQueryError("names: only used with section='sets'")
    box = arguments.get("box")
    if box is not None and any(lo > hi for lo, hi in zip(box["min"], box["max"], strict=True)):
        raise RegionQueryError(f"box.min: every coordinate of min must be <= max; got min "
                               f"{box['min']}, max {box['max']}")
    return arguments


def query_regions(part: Any, arguments: Any, *, fingerprint: str,
                  cache: RegionIndexCache | None = None) -> dict[str, Any]:
    """Answer one ``query_regions`` call (reads only); raises ``RegionQueryError``."""
    query = validate_region_query(arguments)
    if part is None:
        raise RegionQueryError("part: the target part does not exist; there is nothing to query")
    section = query.get("section", "all")
    box = query.get("box")
    grid_cells = query.get("grid_cells", DEFAULT_GRID_CELLS)
    stations = query.get("stations", DEFAULT_STATIONS)
    answer: dict[str, Any] = {"section": section}
    if box is not None:
        low, high = box["min"], box["max"]
        bounds = {"xMin": low[0], "yMin": low[1], "zMin": low[2],
                  "xMax": high[0], "yMax": high[1], "zMax": high[2]}
        nodes = tuple(part.nodes.getByBoundingBox(**bounds))
        elements = tuple(part.elements.getByBoundingBox(**bounds))
        arrays = MeshArrays(
            node_labels=list(map(attrgetter("label"), nodes)),
            coordinates=list(map(attrgetter("coordinates"), nodes)),
            element_labels=list(map(attrgetter("label"), elements)),
            element_types=list(map(attrgetter("type"), elements)),
            connectivity=list(map(attrgetter("connectivity"), elements)),
        )
        index = build_region_index(part, fingerprint, arrays=arrays, grid_cells=grid_cells,
                                   stations=stations, include_sets=False)
        answer["box"] = box
        answer["note"] = ("zoomed: nodes inside the box and elements whose nodes are all "
                          "inside; components and free nodes are counted inside the box only")
    elif grid_cells != DEFAULT_GRID_CELLS or stations != DEFAULT_STATIONS:
        index = build_region_index(part, fingerprint, grid_cells=grid_cells, stations=stations)
    else:
        index = region_index(part, fingerprint, cache=cache)
    if section == "sets" and "names" in query:
        labels, points = _node_table(part)
        position_of = label_positions(labels)
        regions, total = _sets(part, lambda label: points[position_of(label)], query["names"])
        answer.update(sets_total=total, sets=[r.model_dump(mode="json") for r in regions])
        return answer
    dumped = index.model_dump(mode="json")
    if section == "all":
        answer.update(dumped)
    else:
        answer.update({key: dumped[key] for key in _SECTION_FIELDS[section]})
        answer["notes"] = dumped["notes"]
    return answer


def _node_table(part: Any) -> tuple[list[int], list[Vec3]]:
    nodes = tuple(part.nodes)
    return list(map(attrgetter("label"), nodes)), list(map(attrgetter("coordinates"), nodes))
