"""A part's mesh read once into flat numpy arrays (``PartMesh``), and its fingerprint.

Turning Python objects into arrays is the costly step of every readback, so it is kept in C:
one list comprehension per attribute (the host's per-entity read), then ``np.fromiter`` over
the values (measured on the 188,356-node part, bench/observe_scale.py: each attribute read
3-6 ms, each float or int column converted 4-23 ms; ``np.array`` of the tuples costs 3-4x
more, ``marshal`` bytes viewed as records or Python's own ``hash`` are no faster).
Connectivity lengths come from the shapes (QUAD 4, TRI 3, BEAM 2: the host fixes them) and
are read one by one only when the shapes do not account for the values.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from itertools import chain, compress
from operator import is_, is_not
from typing import Any

import numpy as np

from sam_plugin.samops import fingerprint as fp
from sam_plugin.samops.gc_pause import keep_long_lived
from sam_plugin.samops.records import NODES_PER_SHAPE


@dataclass(frozen=True, eq=False)
class PartMesh:
    """A part's mesh as flat arrays, in the host's order.

    Element ``e`` uses the node labels ``connectivity[offsets[e]:offsets[e + 1]]``;
    ``shape_names`` are sorted and ``shape_codes[e]`` indexes them.
    """

    node_labels: np.ndarray  # int64 (n,)
    coordinates: np.ndarray  # float64 (n, 3)
    element_labels: np.ndarray  # int64 (m,)
    shape_names: tuple[str, ...]
    shape_codes: np.ndarray  # uint8 (m,)
    offsets: np.ndarray  # int64 (m + 1,)
    connectivity: np.ndarray  # int64 (offsets[-1],)

    @property
    def node_count(self) -> int:
        return len(self.node_labels)

    @property
    def element_count(self) -> int:
        return len(self.element_labels)

    def node_buckets(self) -> fp.Buckets:
        """The node records' bucket digests (``samops.fingerprint``), computed once."""
        return self._node_buckets

    def element_buckets(self) -> fp.Buckets:
        return self._element_buckets

    def shape_keys(self) -> np.ndarray:
        """Each element's shape as a stable 64-bit key of its name (uint64)."""
        keys = np.array([fp.name_key(s) for s in self.shape_names], dtype=np.uint64)
        return np.take(keys, self.shape_codes) if len(keys) else np.zeros(0, dtype=np.uint64)

    def digests(self) -> fp.Digests:
        """The node and element records alone (the geometry)."""
        return fp.Digests({"nodes": self._node_buckets, "elements": self._element_buckets},
                          self.node_count, self.element_count)

    @cached_property
    def bounds(self) -> Box | None:
        """The nodes' bounding box (low, high), or None without nodes."""
        if not self.node_count:
            return None
        return column_box(self.coordinates)

    @cached_property
    def _node_buckets(self) -> fp.Buckets:
        return fp.node_buckets(self.node_labels, self.coordinates)

    @cached_property
    def _element_buckets(self) -> fp.Buckets:
        return fp.element_buckets(self.element_labels, self.shape_keys(), self.offsets,
                                  self.connectivity)

    def carry_digests(self, earlier: PartMesh, moved: list[int] | None) -> None:
        """Take over what ``earlier`` (the last read of the same part) already hashed of the
        records this read holds unchanged: its element buckets when the element arrays are
        its very ones, its node buckets but those of the ``moved`` positions when the labels
        are (each bucket is a function of its records alone: ``samops.fingerprint``)."""
        cached = earlier.__dict__
        if all(getattr(self, name) is getattr(earlier, name) for name in _ELEMENT_ARRAYS) \
                and "_element_buckets" in cached:
            self.__dict__["_element_buckets"] = cached["_element_buckets"]
        if self.node_labels is earlier.node_labels and moved is not None \
                and "_node_buckets" in cached:
            labels = self.node_labels
            touched = np.unique(fp.bucket_of(labels[moved]))
            rows = np.flatnonzero(np.isin(fp.bucket_of(labels), touched))
            buckets = dict(cached["_node_buckets"])
            buckets.update(fp.node_buckets(labels[rows], self.coordinates[rows]))
            self.__dict__["_node_buckets"] = buckets

    def element(self, index: int) -> tuple[str, tuple[int, ...]]:
        """(shape, node labels) of the element at ``index``."""
        start, end = int(self.offsets[index]), int(self.offsets[index + 1])
        return (self.shape_names[int(self.shape_codes[index])],
                tuple(self.connectivity[start:end].tolist()))

    def fingerprint(self) -> str:
        """The geometry fingerprint: node and element records only (``samops.fingerprint``)."""
        return str(self.digests().fingerprint())


_ARRAYS = ("node_labels", "coordinates", "element_labels", "shape_codes", "offsets",
           "connectivity")
_ELEMENT_ARRAYS = ("element_labels", "shape_codes", "offsets", "connectivity")


Box = tuple[tuple[float, float, float], tuple[float, float, float]]


def column_box(xyz: np.ndarray) -> Box:
    """(low, high) of an (n, 3) array, column by column (numpy's ``min(axis=0)`` on three
    columns measured 40x slower than three strided 1-D reductions)."""
    low = tuple(float(xyz[:, axis].min()) for axis in range(3))
    high = tuple(float(xyz[:, axis].max()) for axis in range(3))
    return (low[0], low[1], low[2]), (high[0], high[1], high[2])


def run_start(labels: np.ndarray) -> int | None:
    """The first label when ``labels`` are one ascending run ``a, a+1, ...``, else None."""
    count = len(labels)
    if count and int(labels[-1]) - int(labels[0]) + 1 == count and (
            count == 1 or bool((np.diff(labels) == 1).all())):
        return int(labels[0])
    return None


def read_mesh(part: Any) -> PartMesh:
    """The whole mesh of ``part``, read once through the public API.

    Every attribute is read, always; what is converted again is only what is not the very
    object the last read of this part saw (tuples, ints and the host's shape constants are
    immutable: the same object is the same value). The offline SAM hands out the same
    coordinate tuple until a node moves, so a re-read of a part a run touched a little costs
    the attribute reads and an identity pass; a host that hands out new objects on every
    access is converted in full, as before.
    """
    before = _memo_of(part)
    offered = take_offered_read(part)
    if offered is not None:
        return offered[1]  # the read the caller offered: the part as it is now
    nodes, elements = list(part.nodes), list(part.elements)
    raw = HostRead([n.label for n in nodes], [n.coordinates for n in nodes],
                   [e.label for e in elements], [e.type for e in elements],
                   [e.connectivity for e in elements], nodes, elements)
    mesh = raw.convert(before)
    _remember(part, raw, mesh)
    keep_long_lived()  # the read's lists live as long as the memo (samops.gc_pause)
    return mesh


def mesh_of(nodes: Sequence[Any], elements: Sequence[Any]) -> PartMesh:
    """The mesh made of these nodes and elements (e.g. a bounding-box subset)."""
    return HostRead([n.label for n in nodes], [n.coordinates for n in nodes],
                    [e.label for e in elements], [e.type for e in elements],
                    [e.connectivity for e in elements]).convert(None)


class HostRead:
    """One read's attribute lists, in the host's order, and the entities they were read
    from (when read from a part): the host's own objects, never copies."""

    __slots__ = ("node_labels", "points", "element_labels", "types", "rows", "nodes",
                 "elements")

    def __init__(self, node_labels: list[Any], points: list[Any], element_labels: list[Any],
                 types: list[Any], rows: list[Any], nodes: list[Any] | None = None,
                 elements: list[Any] | None = None) -> None:
        self.node_labels, self.points = node_labels, points
        self.element_labels, self.types, self.rows = element_labels, types, rows
        self.nodes, self.elements = nodes, elements

    def convert(self, before: tuple[HostRead, PartMesh] | None) -> PartMesh:
        if before is None:
            names, codes = _shape_codes(self.types)
            offsets, connectivity = _connectivity_arrays(self.rows, names, codes)
            return PartMesh(node_labels=_frozen(_int_array(self.node_labels)),
                            coordinates=_frozen(coordinate_array(self.points)),
                            element_labels=_frozen(_int_array(self.element_labels)),
                            shape_names=names, shape_codes=codes, offsets=offsets,
                            connectivity=connectivity)
        old, mesh = before
        if _same(self.types, old.types):
            names, codes = mesh.shape_names, mesh.shape_codes
        else:
            names, codes = _shape_codes(self.types)
        if _same(self.rows, old.rows) and names == mesh.shape_names:
            offsets, connectivity = mesh.offsets, mesh.connectivity
        else:
            offsets, connectivity = _connectivity_arrays(self.rows, names, codes)
        node_labels, _ = _column(self.node_labels, old.node_labels, mesh.node_labels,
                                 _int_array)
        coordinates, moved = _column(self.points, old.points, mesh.coordinates,
                                     coordinate_array)
        element_labels, _ = _column(self.element_labels, old.element_labels,
                                    mesh.element_labels, _int_array)
        fresh = PartMesh(node_labels=node_labels, coordinates=coordinates,
                         element_labels=element_labels, shape_names=names, shape_codes=codes,
                         offsets=offsets, connectivity=connectivity)
        if all(getattr(fresh, name) is getattr(mesh, name) for name in _ARRAYS):
            return mesh  # nothing changed: the same read, its digests already computed
        fresh.carry_digests(mesh, moved)
        return fresh


def _same(now: list[Any], before: list[Any]) -> bool:
    """Equal lists of labels, shapes or connectivity rows (ints and constants: equal is the
    same value; list equality tries identity first, in C)."""
    return len(now) == len(before) and now == before


def _column(now: list[Any], before: list[Any], array: np.ndarray, convert: Any
            ) -> tuple[np.ndarray, list[int] | None]:
    """``convert(now)``, reusing the rows of ``array`` whose objects ``before`` held too, and
    the positions converted anew (None: all of them, or rows added).
    Coordinates go by identity (equal floats can differ in their bits: 0.0 and -0.0)."""
    if now and before and type(now[0]) is not type(before[0]):
        return _frozen(convert(now)), None
    exact = now == before if array.dtype.kind == "i" else all(map(is_, now, before))
    if len(now) == len(before) and exact:
        return array, []
    common = min(len(now), len(before))
    # one pass in C (measured 5 ms on 188,356 rows, against 7 ms as a comprehension)
    changed = list(compress(range(len(now)), map(is_not, now, before)))
    if len(changed) > common // 4:
        return _frozen(convert(now)), None
    out = np.empty((len(now), *array.shape[1:]), dtype=array.dtype)
    out[:common] = array[:common]
    if changed:
        out[changed] = convert([now[i] for i in changed])
    if len(now) > common:
        out[common:] = convert(now[common:])
        return _frozen(out), None
    return _frozen(out), changed


def _frozen(array: np.ndarray) -> np.ndarray:
    array.flags.writeable = False  # shared by later reads of the same part
    return array


# -- the last read of each part ------------------------------------------------------------

_MEMO: weakref.WeakKeyDictionary[Any, tuple[HostRead, PartMesh]] = weakref.WeakKeyDictionary()
_MEMO_LOCK = threading.Lock()


def _memo_of(part: Any) -> tuple[HostRead, PartMesh] | None:
    with _MEMO_LOCK:
        try:
            return _MEMO.get(part)
        except TypeError:  # a host part that cannot be weakly referenced: no memo
            return None


def _remember(part: Any, raw: HostRead, mesh: PartMesh) -> None:
    """Keep the read by its part: its values for the next read of that part (weakly: a part
    the host drops goes, since values hold no entity), and the very last read with its
    entities too (those hold their part: one part at most is kept alive by it)."""
    with _MEMO_LOCK:
        _LAST[:] = [(part, raw, mesh)]
        try:
            _MEMO[part] = (HostRead(raw.node_labels, raw.points, raw.element_labels,
                                    raw.types, raw.rows), mesh)
        except TypeError:
            return


_LAST: list[tuple[Any, HostRead, PartMesh]] = []


# -- a read offered to the next reader (the one execution) --------------------------------

_OFFERED: list[tuple[Any, HostRead, PartMesh]] = []


def offer_read(part: Any, read: HostRead, mesh: PartMesh) -> None:
    """The next read of ``part`` (``read_mesh``, or the snapshot's ``capture_part``) may take
    ``read`` instead of reading the part again: the caller read it just now and runs the one
    script next, with nothing in between (docs/architecture.md §5). Taken once, by the first
    reader: every script reads before its first change (its snapshot), so a read after a
    change is always a read of the part. ``withdraw_read`` drops it (after the script)."""
    _OFFERED[:] = [(part, read, mesh)]


def take_offered_read(part: Any) -> tuple[HostRead, PartMesh] | None:
    """The read offered for ``part`` and its arrays (then gone), else None."""
    if not _OFFERED:
        return None
    owner, read, mesh = _OFFERED.pop()
    return (read, mesh) if owner is part else None


def withdraw_read() -> None:
    _OFFERED.clear()


def last_read(part: Any) -> tuple[HostRead, PartMesh] | None:
    """The very last ``read_mesh``, with its entities, when it read ``part``; else None.
    Whether the part is still as read is the caller's to know (it read it just now)."""
    with _MEMO_LOCK:
        if _LAST and _LAST[0][0] is part:
            return _LAST[0][1], _LAST[0][2]
    return None


def forget_reads() -> None:
    """Drop what the last reads kept (a cold read next time; benches measure with it)."""
    with _MEMO_LOCK:
        _MEMO.clear()
        _LAST.clear()


def node_box(part: Any) -> Box | None:
    """The bounding box of ``part``'s nodes (None without nodes), reading only coordinates:
    when every coordinate is the very object the last ``read_mesh`` of this part saw, that
    read's box is the answer (no conversion), else the coordinates are converted once."""
    points = [n.coordinates for n in part.nodes]
    if not points:
        return None
    before = _memo_of(part)
    if before is not None and len(before[0].points) == len(points) and all(
            map(is_, points, before[0].points)):
        return before[1].bounds
    return column_box(coordinate_array(points))


def read_nodes(nodes: Sequence[Any]) -> tuple[np.ndarray, np.ndarray]:
    """Labels (int64) and coordinates (float64, n x 3) of ``nodes``."""
    return _int_array([n.label for n in nodes]), coordinate_array(
        [n.coordinates for n in nodes])


def _int_array(values: list[int]) -> np.ndarray:
    return np.fromiter(values, dtype=np.int64, count=len(values))


def coordinate_array(points: list[Any]) -> np.ndarray:
    """Coordinates (n x 3, float64), in one C-level sweep."""
    count = len(points)
    values = chain.from_iterable(points)
    flat = np.fromiter(values, dtype=np.float64, count=3 * count)
    if next(values, None) is not None:
        raise ValueError("node coordinates: expected 3 values per node")
    return flat.reshape(count, 3)


def _connectivity_arrays(rows: list[Any], names: tuple[str, ...],
                         codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``offsets`` and the flat node labels of every element's connectivity."""
    count = len(rows)
    if not count:
        return np.zeros(1, dtype=np.int64), np.zeros(0, dtype=np.int64)
    lengths = _lengths_by_shape(names, codes)
    if lengths is not None:
        flat = _flat(rows, int(lengths.sum()))
        if flat is not None:
            return _offsets(lengths), flat
    lengths = np.fromiter(map(len, rows), dtype=np.int64, count=count)
    offsets = _offsets(lengths)
    return offsets, np.fromiter(chain.from_iterable(rows), dtype=np.int64,
                                count=int(offsets[-1]))


def _lengths_by_shape(names: tuple[str, ...], codes: np.ndarray) -> np.ndarray | None:
    if not all(name in NODES_PER_SHAPE for name in names):
        return None
    widths = np.array([NODES_PER_SHAPE[name] for name in names], dtype=np.int64)
    return np.take(widths, codes)


def _flat(rows: list[Any], expected: int) -> np.ndarray | None:
    """The chained rows when they hold exactly ``expected`` labels, else None."""
    values = chain.from_iterable(rows)
    try:
        flat = np.fromiter(values, dtype=np.int64, count=expected)
    except ValueError:  # fewer values than the shapes account for
        return None
    return None if next(values, None) is not None else flat


def _offsets(lengths: np.ndarray) -> np.ndarray:
    offsets = np.zeros(len(lengths) + 1, dtype=np.int64)
    np.cumsum(lengths, out=offsets[1:])
    return offsets


def _shape_codes(types: list[Any]) -> tuple[tuple[str, ...], np.ndarray]:
    """Sorted shape names and each element's index into them, without hashing the host's
    constants per element (by identity: the host hands out one object per shape)."""
    if not types:
        return (), np.zeros(0, dtype=np.uint8)
    if types.count(types[0]) == len(types):  # compares by identity first: one C pass
        return (str(types[0]),), np.zeros(len(types), dtype=np.uint8)
    ids = np.fromiter(map(id, types), dtype=np.uint64, count=len(types))
    distinct, first, inverse = np.unique(ids, return_index=True, return_inverse=True)
    name_of = [str(types[i]) for i in first.tolist()]
    names = tuple(sorted(set(name_of)))
    code_of_distinct = np.array([names.index(name) for name in name_of], dtype=np.uint8)
    return names, code_of_distinct[inverse.reshape(-1)]
