"""The part fingerprint: SHA-256 over every record, in buckets (docs/architecture.md §5).

Every thing the API can read about a target is a *record*:

- a node (label, coordinate bits), an element (label, shape, connectivity in order);
- a set's name, each of its node and element memberships (set, label);
- each (section name, element) of the section assignments, each (method, n1, element) of the
  beam orientations;
- each material, profile and section definition of the model.

The records of a kind fall into *buckets*: nodes and elements by label range (``2**SHIFT``
consecutive labels), memberships, assignments and orientations by their set, section or
(method, n1) and the member's label range, set names and definitions by name. A bucket's
canonical bytes are its records sorted (by label, ties by value), column by column, floats
as their exact bits, every length and name prefixed; they are hashed with SHA-256 in one
call (a column of a label-sorted read is one slice of its array: no copy). A kind's value is
SHA-256 over its buckets' keys and digests in key order, and the fingerprint SHA-256 over
the counts and the kinds' values, cut to 128 bits and written ``"{n}n-{m}e-{32 hex}"``.

So a change of any record changes its bucket's bytes (the encoding is injective), hence its
digest, the kind's value and the fingerprint, unless SHA-256 collides: no crafted change of
two fields, or of two entities, cancels out. The host's order does not count. Non-finite
values are refused before anything is hashed (``NonFiniteValue`` names the entities).

An update hashes only the buckets it touches: the fingerprint after a run is the one
before with the touched buckets hashed again (``Digests.replaced``); that is how a plan
predicts the after-fingerprint from the before read and the touched entities, and how
verification compares everything outside the scope (``samops.part_scope``).

Measured on the 188,356-node part (bench/observe_scale.py): SHA-256 runs at about 1.4 GB/s
here (the CPU's SHA extensions; BLAKE2b 0.45 GB/s), 16 MB of nodes and elements take about
12 ms; one hashlib call per record would cost 0.4 s in Python. Buckets are combined by an
ordered fold, not a sum of digests modulo 2**128: a sum falls to a generalised birthday
search when many buckets can be varied at once, a fold only to a SHA-256 collision.
"""

from __future__ import annotations

import hashlib
import re
import struct
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from itertools import pairwise
from typing import Any

import numpy as np

from sam_plugin.errors import NonFiniteValue

SHIFT = 12  # 4,096 labels a bucket: a touched entity costs one bucket (128 KB) of hashing
KINDS = ("nodes", "elements", "sets", "set members", "section assignments",
         "beam orientations", "definitions")
Key = Any  # a bucket key: int (label range), bytes (a name) or (bytes, int)
Buckets = dict[Key, bytes]

_I8, _U8, _F8 = np.dtype("<i8"), np.dtype("<u8"), np.dtype("<f8")
_VERSION = b"sam-agent part fingerprint 2\x00"
_TEXT = re.compile(r"^(\d+)n-(\d+)e-([0-9a-f]{32})$")
_SEEDS = {kind: hashlib.sha256(_VERSION + kind.encode() + b"\x00") for kind in KINDS}
_NO_BUCKETS: Buckets = {}


def _pack(*values: int) -> bytes:
    return struct.pack(f"<{len(values)}q", *values)


def field_bytes(text: str | bytes) -> bytes:
    """A length-prefixed field (so that no two sequences of fields share their bytes)."""
    data = text.encode("utf-8") if isinstance(text, str) else text
    return struct.pack("<I", len(data)) + data


def name_key(text: str) -> int:
    """A stable 64-bit key of a name (SHA-256, never Python's per-process ``hash``)."""
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "little")


def _key_bytes(key: Key) -> bytes:
    if isinstance(key, int):
        return b"i" + _pack(key)
    if isinstance(key, bytes):
        return b"b" + field_bytes(key)
    name, bucket = key
    return b"k" + field_bytes(name) + _pack(bucket)


def bucket_of(labels: np.ndarray) -> np.ndarray:
    """The bucket of each label (its label range)."""
    return np.asarray(labels, dtype=np.int64) >> SHIFT


# -- refusing what cannot be hashed exactly -------------------------------------------------


def refuse_non_finite(values: np.ndarray, labels: np.ndarray, noun: str,
                      axes: Sequence[str] = ("x", "y", "z")) -> None:
    """Raise ``NonFiniteValue`` naming the entities whose values are NaN or infinite."""
    if not len(values):
        return
    finite = np.isfinite(values)
    if bool(finite.all()):
        return
    bad = np.flatnonzero(~finite.reshape(len(values), -1).all(axis=1))
    rows = values.reshape(len(values), -1)
    named = []
    for row in bad[:6].tolist():
        which = [f"{axes[a] if a < len(axes) else a} = {float(rows[row, a])!r}"
                 for a in np.flatnonzero(~np.isfinite(rows[row])).tolist()]
        named.append(f"{noun} {int(labels[row])}: {', '.join(which)}")
    raise NonFiniteValue(named + [f"{len(bad)} {noun}s in all"] if len(bad) > 6 else named)


# -- canonical order ------------------------------------------------------------------------


def _ascending(labels: np.ndarray) -> bool:
    return len(labels) < 2 or bool((labels[1:] > labels[:-1]).all())


def _label_order(labels: np.ndarray, ties: Sequence[np.ndarray] = ()) -> np.ndarray | None:
    """None when ``labels`` strictly ascend (the host's usual order); else the permutation
    that sorts by label, equal labels by ``ties`` (columns, most significant first)."""
    if _ascending(labels):
        return None
    order = np.argsort(labels, kind="stable")
    ordered = labels[order]
    if not ties or bool((ordered[1:] != ordered[:-1]).all()):
        return order
    return np.lexsort((*reversed(ties), labels))


# -- hashing buckets ------------------------------------------------------------------------


def _runs(ids: np.ndarray) -> list[int]:
    """Start of each run of equal ``ids`` (sorted), and the end."""
    cuts = np.flatnonzero(ids[1:] != ids[:-1]) + 1
    return [0, *cuts.tolist(), len(ids)]


def _bytes_of(array: np.ndarray) -> memoryview:
    return np.ascontiguousarray(array).data.cast("B")


class _Column:
    """One column of records sorted by label, written per bucket in its shortest exact form:
    labels that run a, a+1, ... as the first (``R``), one value throughout as that value
    (``U``), else every value (``A``). The form is a function of the bucket's values alone
    and is tagged, so the bytes stay injective; it spares hashing what the host usually
    holds (labels 1..n, one shape, one node count)."""

    __slots__ = ("data", "forms", "size")

    def __init__(self, values: np.ndarray, starts: np.ndarray, labels: bool) -> None:
        self.data = _bytes_of(values)
        self.size = values.itemsize
        if labels:
            ends = np.append(starts[1:], len(values)) - 1
            repeats = np.zeros(len(values), dtype=np.int64)
            repeats[1:] = values[1:] == values[:-1]
            run = (values[ends] - values[starts] == ends - starts) & (
                np.add.reduceat(repeats, starts) == 0)
            self.forms = np.where(run, ord("R"), ord("A")).tolist()
        else:
            same = np.minimum.reduceat(values, starts) == np.maximum.reduceat(values, starts)
            self.forms = np.where(same, ord("U"), ord("A")).tolist()

    def write(self, h: Any, bucket: int, a: int, b: int) -> None:
        form, size = self.forms[bucket], self.size
        if form == 65:  # "A"
            h.update(b"A")
            h.update(self.data[size * a:size * b])
        else:
            h.update(bytes((form,)))
            h.update(self.data[size * a:size * (a + 1)])


def node_buckets(labels: np.ndarray, coordinates: np.ndarray) -> Buckets:
    """The node records (label, the bits of x, y, z), by label range."""
    if not len(labels):
        return {}
    labels = np.ascontiguousarray(labels, dtype=_I8)
    xyz = np.ascontiguousarray(coordinates, dtype=_F8).reshape(len(labels), 3)
    refuse_non_finite(xyz, labels, "node")
    bits = xyz.view(_U8)
    order = _label_order(labels, (bits[:, 0], bits[:, 1], bits[:, 2]))
    if order is not None:
        labels, xyz = labels[order], np.ascontiguousarray(xyz[order])
    ids = bucket_of(labels)
    bounds = _runs(ids)
    column = _Column(labels, np.array(bounds[:-1]), labels=True)
    xyz_bytes = _bytes_of(xyz)
    seed, out = _SEEDS["nodes"], {}
    for bucket, (a, b) in enumerate(pairwise(bounds)):
        h = seed.copy()
        h.update(_pack(int(ids[a]), b - a))
        column.write(h, bucket, a, b)
        h.update(xyz_bytes[24 * a:24 * b])
        out[int(ids[a])] = h.digest()
    return out


def element_buckets(labels: np.ndarray, shape_keys: np.ndarray, offsets: np.ndarray,
                    connectivity: np.ndarray) -> Buckets:
    """The element records (label, shape key, node count, the node labels in order), by
    label range."""
    count = len(labels)
    if not count:
        return {}
    labels = np.ascontiguousarray(labels, dtype=_I8)
    keys = np.ascontiguousarray(shape_keys, dtype=_U8)
    offsets = np.asarray(offsets, dtype=np.int64)
    flat = np.ascontiguousarray(connectivity, dtype=_I8)
    lengths = np.diff(offsets)
    order = _label_order(labels)
    if order is not None:
        order = _ties_by_value(order, labels, keys, offsets, flat)
        labels, keys, lengths = labels[order], keys[order], lengths[order]
        starts = offsets[:-1][order]
        offsets = np.zeros(count + 1, dtype=np.int64)
        np.cumsum(lengths, out=offsets[1:])
        flat = flat[np.repeat(starts - offsets[:-1], lengths) + np.arange(int(offsets[-1]))]
    lengths = np.ascontiguousarray(lengths, dtype=_I8)
    ids = bucket_of(labels)
    bounds = _runs(ids)
    edges = np.array(bounds)
    columns = [_Column(labels, edges[:-1], labels=True), _Column(keys, edges[:-1], labels=False),
               _Column(lengths, edges[:-1], labels=False)]
    flat_bytes = _bytes_of(flat)
    seed, out = _SEEDS["elements"], {}
    ends = dict(zip(bounds, offsets[edges].tolist(), strict=True))
    for bucket, (a, b) in enumerate(pairwise(bounds)):
        h = seed.copy()
        h.update(_pack(int(ids[a]), b - a))
        for column in columns:
            column.write(h, bucket, a, b)
        h.update(flat_bytes[8 * ends[a]:8 * ends[b]])
        out[int(ids[a])] = h.digest()
    return out


def _ties_by_value(order: np.ndarray, labels: np.ndarray, keys: np.ndarray,
                   offsets: np.ndarray, flat: np.ndarray) -> np.ndarray:
    """``order`` with elements that share a label sorted by their shape and nodes (a faulty
    host's duplicates: rare, so in Python)."""
    ordered = labels[order]
    same = np.flatnonzero(ordered[1:] == ordered[:-1])
    if not len(same):
        return order
    out = order.copy()
    bounds = _runs(ordered)
    for a, b in pairwise(bounds):
        if b - a > 1:
            group = order[a:b].tolist()
            group.sort(key=lambda i: (int(keys[i]), flat[offsets[i]:offsets[i + 1]].tolist()))
            out[a:b] = group
    return out


def keyed_buckets(kind: str, slot_keys: Sequence[bytes], owner: np.ndarray,
                  labels: np.ndarray) -> Buckets:
    """(key, label) records (set memberships, assignments, orientations): ``owner[i]``
    indexes ``slot_keys``, the canonical bytes of the record's set, section or orientation;
    by key and label range, each bucket's labels sorted (a multiset)."""
    if not len(labels):
        return {}
    distinct = sorted(set(slot_keys))
    rank = {key: i for i, key in enumerate(distinct)}
    group = np.array([rank[key] for key in slot_keys], dtype=np.int64)[owner]
    labels = np.ascontiguousarray(labels, dtype=_I8)
    if not _grouped_ascending(group, labels):
        order = np.lexsort((labels, group))
        group, labels = group[order], labels[order]
    ids = bucket_of(labels)
    label_bytes = _bytes_of(labels)
    seed, out = _SEEDS[kind], {}
    bounds = [0, *(np.flatnonzero((group[1:] != group[:-1]) | (ids[1:] != ids[:-1])) + 1
                   ).tolist(), len(labels)]
    for a, b in pairwise(bounds):
        name = distinct[int(group[a])]
        h = seed.copy()
        h.update(field_bytes(name))
        h.update(_pack(int(ids[a]), b - a))
        h.update(label_bytes[8 * a:8 * b])
        out[(name, int(ids[a]))] = h.digest()
    return out


def _grouped_ascending(group: np.ndarray, labels: np.ndarray) -> bool:
    """Sorted by group, then by label (equal labels allowed: a multiset)."""
    if len(group) < 2:
        return True
    up = group[1:] > group[:-1]
    same = group[1:] == group[:-1]
    return bool((up | (same & (labels[1:] >= labels[:-1]))).all())


def text_buckets(kind: str, records: Iterable[tuple[bytes, bytes]]) -> Buckets:
    """Records given as (key, value) bytes (set names, definitions: few, so per bucket in
    Python); one bucket per key, its values sorted."""
    grouped: dict[bytes, list[bytes]] = {}
    for key, value in records:
        grouped.setdefault(key, []).append(value)
    seed, out = _SEEDS[kind], {}
    for key, values in grouped.items():
        h = seed.copy()
        h.update(field_bytes(key))
        h.update(_pack(len(values)))
        for value in sorted(values):
            h.update(field_bytes(value))
        out[key] = h.digest()
    return out


# -- the fingerprint ------------------------------------------------------------------------


@dataclass(frozen=True)
class Fingerprint:
    """Counts and the 128-bit digest, as written: ``"{n}n-{m}e-{32 hex}"``."""

    nodes: int = 0
    elements: int = 0
    value: bytes = bytes(16)

    @property
    def hex(self) -> str:
        return self.value.hex()

    @classmethod
    def parse(cls, text: str) -> Fingerprint | None:
        """The value of ``str(fingerprint)``; None for any other text (an older format)."""
        found = _TEXT.match(text)
        if found is None:
            return None
        return cls(int(found.group(1)), int(found.group(2)), bytes.fromhex(found.group(3)))

    def __str__(self) -> str:
        return f"{self.nodes}n-{self.elements}e-{self.hex}"


def fold(kind: str, buckets: Mapping[Key, bytes]) -> bytes:
    """A kind's value: SHA-256 over its buckets' keys and digests, in key order."""
    h = _SEEDS[kind].copy()
    h.update(b"fold")
    for key in sorted(buckets):
        h.update(_key_bytes(key))
        h.update(buckets[key])
    return h.digest()


@dataclass(frozen=True, eq=False)
class Digests:
    """The bucket digests of each kind of record, with the node and element counts; see the
    module doc. Kinds left out have no records."""

    kinds: Mapping[str, Buckets] = field(default_factory=dict)
    nodes: int = 0
    elements: int = 0

    def buckets(self, kind: str) -> Buckets:
        return self.kinds.get(kind, _NO_BUCKETS)

    @cached_property
    def values(self) -> dict[str, bytes]:
        """Each kind's value (``fold``), computed once."""
        return {kind: fold(kind, self.buckets(kind)) for kind in KINDS}

    def fingerprint(self, without: Iterable[str] = ()) -> Fingerprint:
        """The fingerprint (of every kind, or all but ``without``, which count as empty)."""
        left_out = set(without)
        h = hashlib.sha256(_VERSION)
        h.update(_pack(self.nodes, self.elements))
        empty = _EMPTY.values
        for kind in KINDS:
            h.update(empty[kind] if kind in left_out else self.values[kind])
        return Fingerprint(self.nodes, self.elements, h.digest()[:16])

    def replaced(self, changed: Mapping[str, tuple[Iterable[Key], Buckets]], nodes: int,
                 elements: int) -> Digests:
        """These digests with, per kind, the buckets ``keys`` taken from ``buckets`` (a key
        it lacks has no records left), and the given counts."""
        kinds = dict(self.kinds)
        for kind, (keys, fresh) in changed.items():
            now = dict(self.buckets(kind))
            for key in keys:
                if key in fresh:
                    now[key] = fresh[key]
                else:
                    now.pop(key, None)
            kinds[kind] = now
        return Digests(kinds, nodes, elements)


_EMPTY = Digests()
