"""The part fingerprint: an order-independent sum of per-entity hashes (docs/architecture.md §5).

Every thing the API can read about a target is a *record*, hashed on its own:

- a node (label, coordinate bits), an element (label, shape, connectivity in order);
- a set's name, each of its node and element memberships (set, label);
- each (section name, element) of the section assignments, each (method, n1, element) of the
  beam orientations;
- each material, profile and section definition of the model.

The fingerprint is the sum of the record hashes (two 64-bit lanes, modulo 2**64) with the node
and element counts, written ``"{n}n-{m}e-{32 hex}"``. A sum does not depend on the host's
order, and it can be updated: the fingerprint after a run is the one before, minus the records
the run touches as they were, plus the records it leaves in their place. That is what lets a
plan predict the after-fingerprint from the touched entities alone, and verification compare
the touched entities exactly and everything else through the fingerprint, at any size.

A record hash is a splitmix64 finalisation of the record's fields, each field multiplied by
its own odd constant (a change of any single field changes the value the finaliser sees, and
the finaliser is a bijection, so it changes the hash). All of it is numpy over the arrays of
one read (``part_contents``); names are hashed with BLAKE2b, never with Python's per-process
``hash``.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

_U64 = np.uint64
_MASK = (1 << 64) - 1
_M1, _M2 = _U64(0xBF58476D1CE4E5B9), _U64(0x94D049BB133111EB)
_LANE = _U64(0xD6E8FEB86659FD93)
_LABEL = _U64(0x9E3779B97F4A7C15)
_AXES = (_U64(0xC2B2AE3D27D4EB4F), _U64(0x165667B19E3779F9), _U64(0x27D4EB2F165667C5))
# connectivity position i uses _CONNECTIVITY[i % 16] (an element's node order is part of it)
_CONNECTIVITY = tuple(_U64((0x8CB92BA72F3D8DD7 * (2 * i + 1)) & _MASK | 1) for i in range(16))
_TAGS = {kind: _U64(int.from_bytes(hashlib.blake2b(kind.encode(), digest_size=8).digest(),
                                   "little"))
         for kind in ("node", "element", "set", "set_node", "set_element", "assignment",
                      "orientation", "definition")}
_TEXT = re.compile(r"^(\d+)n-(\d+)e-([0-9a-f]{32})$")


def name_key(text: str) -> int:
    """A 64-bit key of a name (stable across processes, unlike ``hash``)."""
    return int.from_bytes(hashlib.blake2b(text.encode("utf-8"), digest_size=8).digest(),
                          "little")


def _mix(x: np.ndarray) -> np.ndarray:
    """splitmix64's finaliser, on a fresh uint64 array (modified in place and returned)."""
    x ^= x >> _U64(30)
    x *= _M1
    x ^= x >> _U64(27)
    x *= _M2
    x ^= x >> _U64(31)
    return x


def _labels(labels: np.ndarray, tag: str) -> np.ndarray:
    """The mixed label column of a record kind (a new array)."""
    out = np.asarray(labels, dtype=np.int64).view(_U64) * _LABEL
    out += _TAGS[tag]
    return _mix(out)


def node_hashes(labels: np.ndarray, coordinates: np.ndarray) -> np.ndarray:
    """One hash per node: its label and the bits of its three coordinates."""
    h = _labels(labels, "node")
    if len(h):
        bits = np.ascontiguousarray(coordinates, dtype=np.float64).view(_U64)
        for axis, key in enumerate(_AXES):
            h += bits[:, axis] * key
    return _mix(h)


def element_hashes(labels: np.ndarray, shape_keys: np.ndarray, offsets: np.ndarray,
                   connectivity: np.ndarray) -> np.ndarray:
    """One hash per element: label, shape key and the node labels in connectivity order."""
    h = _labels(labels, "element")
    count = len(h)
    if not count:
        return h
    h += np.asarray(shape_keys, dtype=_U64)
    flat = np.asarray(connectivity, dtype=np.int64).view(_U64)
    lengths = np.diff(offsets)
    width = int(lengths[0])
    if width and (lengths == width).all():
        rows = flat.reshape(count, width)
        for position in range(width):
            h += rows[:, position] * _CONNECTIVITY[position % 16]
    elif len(flat):
        position = np.arange(len(flat), dtype=np.int64) - np.repeat(offsets[:-1], lengths)
        weights = np.take(np.array(_CONNECTIVITY, dtype=_U64), position % 16)
        terms = flat * weights
        starts = offsets[:-1]
        sums = np.add.reduceat(terms, np.minimum(starts, len(terms) - 1))
        sums[lengths == 0] = 0
        h += sums
    h += lengths.astype(_U64) * _LABEL
    return _mix(h)


def keyed_hashes(labels: np.ndarray, keys: np.ndarray, tag: str) -> np.ndarray:
    """One hash per (key, label) record: set memberships, assignments (keys: per-record
    64-bit keys of the set or section name)."""
    h = _labels(labels, tag)
    h += np.asarray(keys, dtype=_U64)
    return _mix(h)


def orientation_hashes(labels: np.ndarray, keys: np.ndarray, n1: np.ndarray) -> np.ndarray:
    """One hash per oriented element: its label, the method key and the bits of n1."""
    h = _labels(labels, "orientation")
    if len(h):
        h += np.asarray(keys, dtype=_U64)
        bits = np.ascontiguousarray(n1, dtype=np.float64).view(_U64).reshape(len(h), 3)
        for axis, key in enumerate(_AXES):
            h += bits[:, axis] * key
    return _mix(h)


def text_hashes(texts: Iterable[str], tag: str) -> np.ndarray:
    """Hashes of whole records given as text (set names, definitions: few, so per item)."""
    keys = np.fromiter((name_key(text) for text in texts), dtype=_U64)
    keys += _TAGS[tag]
    return _mix(keys)


@dataclass(frozen=True)
class Fingerprint:
    """A sum of record hashes with the node and element counts; a group under + and -."""

    nodes: int = 0
    elements: int = 0
    first: int = 0
    second: int = 0

    @classmethod
    def of(cls, hashes: np.ndarray, nodes: int = 0, elements: int = 0) -> Fingerprint:
        """The sum of ``hashes`` (counting ``nodes`` and ``elements`` among them)."""
        if not len(hashes):
            return cls(nodes, elements)
        second = hashes ^ (hashes >> _U64(29))
        second *= _LANE
        return cls(nodes, elements, int(hashes.sum(dtype=_U64)),
                   int(second.sum(dtype=_U64)))

    @classmethod
    def parse(cls, text: str) -> Fingerprint | None:
        """The value of ``str(fingerprint)``; None for any other text (an older format)."""
        found = _TEXT.match(text)
        if found is None:
            return None
        digits = found.group(3)
        return cls(int(found.group(1)), int(found.group(2)), int(digits[:16], 16),
                   int(digits[16:], 16))

    def __add__(self, other: Fingerprint) -> Fingerprint:
        return Fingerprint(self.nodes + other.nodes, self.elements + other.elements,
                           (self.first + other.first) & _MASK,
                           (self.second + other.second) & _MASK)

    def __sub__(self, other: Fingerprint) -> Fingerprint:
        return Fingerprint(self.nodes - other.nodes, self.elements - other.elements,
                           (self.first - other.first) & _MASK,
                           (self.second - other.second) & _MASK)

    def __str__(self) -> str:
        return f"{self.nodes}n-{self.elements}e-{self.first:016x}{self.second:016x}"


def total(parts: Iterable[Fingerprint]) -> Fingerprint:
    out = Fingerprint()
    for part in parts:
        out = out + part
    return out
