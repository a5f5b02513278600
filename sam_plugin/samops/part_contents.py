"""Everything the part fingerprint covers, read once into arrays (docs/architecture.md §5).

``PartContents`` is the mesh (``mesh_read.PartMesh``), the sets with their members, the section
assignments and beam orientations resolved to element labels, and the model's property
definitions. ``read_contents`` reads a live part through the public API; the compilers build
the same structure for the entities a plan touches (the predicted image), and verification
reads the live part after a run into it once. ``digests`` hashes a contents' records in
buckets (``fingerprint``), ``digest`` is their fingerprint; a scope keeps the records it
covers (``part_scope``).
"""

from __future__ import annotations

import ast
import struct
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np

from sam_plugin.errors import NonFiniteValue
from sam_plugin.samops import fingerprint as fp
from sam_plugin.samops.mesh_read import PartMesh, mesh_of, read_mesh

_NO_LABELS = np.zeros(0, dtype=np.int64)
_NO_OWNERS = np.zeros(0, dtype=np.int32)
Definition = tuple[str, str, str]  # (kind, name, the value as exact text)


@dataclass(frozen=True, eq=False)
class Keyed:
    """(key, label) records: ``owner[i]`` indexes ``keys``; ``labels[i]`` is the entity."""

    keys: tuple[Any, ...] = ()
    owner: np.ndarray = field(default_factory=lambda: _NO_OWNERS)
    labels: np.ndarray = field(default_factory=lambda: _NO_LABELS)

    def __len__(self) -> int:
        return len(self.labels)

    def take(self, mask: np.ndarray) -> Keyed:
        return Keyed(self.keys, self.owner[mask], self.labels[mask])

    def joined(self, other: Keyed) -> Keyed:
        """Both records together (``other``'s slots after these; equal keys stay two slots:
        the fingerprint merges them by their bytes)."""
        if not len(other):
            return self
        if not len(self):
            return other
        return Keyed(self.keys + other.keys,
                     np.concatenate([self.owner, other.owner + len(self.keys)]).astype(np.int32),
                     np.concatenate([self.labels, other.labels]))

    def pairs(self) -> set[tuple[Any, int]]:
        """The records as (key, label) pairs (for comparisons in words)."""
        keys = self.keys
        return {(keys[o], label) for o, label in zip(self.owner.tolist(), self.labels.tolist(),
                                                      strict=True)}

    def by_label(self) -> dict[int, tuple[Any, ...]]:
        """label -> its keys, sorted by their text (a multiset per entity)."""
        found: dict[int, list[Any]] = {}
        keys = self.keys
        for o, label in zip(self.owner.tolist(), self.labels.tolist(), strict=True):
            found.setdefault(label, []).append(keys[o])
        return {label: tuple(sorted(values, key=repr)) for label, values in found.items()}

    @classmethod
    def of(cls, entries: Sequence[tuple[Any, Sequence[int]]]) -> Keyed:
        """From (key, labels) entries; equal keys share one slot."""
        slots: dict[str, int] = {}  # by repr: 0.0 and -0.0 in an n1 are different keys
        keys: list[Any] = []
        owners: list[np.ndarray] = []
        labels: list[np.ndarray] = []
        for key, members in entries:
            slot = slots.setdefault(repr(key), len(slots))
            if slot == len(keys):
                keys.append(key)
            column = np.fromiter(members, dtype=np.int64, count=len(members))
            labels.append(column)
            owners.append(np.full(len(column), slot, dtype=np.int32))
        if not labels:
            return cls(tuple(keys))
        return cls(tuple(keys), np.concatenate(owners), np.concatenate(labels))


@dataclass(frozen=True, eq=False)
class PartContents:
    """A part (or the part of one a scope covers) as arrays; see the module doc."""

    mesh: PartMesh
    set_names: tuple[str, ...] = ()
    set_nodes: Keyed = field(default_factory=Keyed)  # keys: set names
    set_elements: Keyed = field(default_factory=Keyed)
    assignments: Keyed = field(default_factory=Keyed)  # keys: section names
    orientations: Keyed = field(default_factory=Keyed)  # keys: (method, (n1x, n1y, n1z))
    definitions: tuple[Definition, ...] = ()

    def digest(self) -> fp.Fingerprint:
        """The fingerprint of these records (``samops.fingerprint``); NaN and infinite
        values are refused (``NonFiniteValue``)."""
        return self._digest

    def digests(self) -> fp.Digests:
        """The bucket digests of every kind of record, with the counts; computed once."""
        return self._digests

    def buckets(self, kind: str) -> fp.Buckets:
        return self._digests.buckets(kind)

    @cached_property
    def _digest(self) -> fp.Fingerprint:
        return self._digests.fingerprint()

    @cached_property
    def _digests(self) -> fp.Digests:
        mesh = self.mesh
        refuse_non_finite_definitions(self.definitions)
        kinds = {
            "nodes": mesh.node_buckets(),
            "elements": mesh.element_buckets(),
            "sets": fp.text_buckets("sets", ((fp.field_bytes(n), b"") for n in self.set_names)),
            "set members": {
                **fp.keyed_buckets("set members", self.slot_keys("set nodes"),
                                   self.set_nodes.owner, self.set_nodes.labels),
                **fp.keyed_buckets("set members", self.slot_keys("set elements"),
                                   self.set_elements.owner, self.set_elements.labels)},
            "section assignments": fp.keyed_buckets(
                "section assignments", self.slot_keys("section assignments"),
                self.assignments.owner, self.assignments.labels),
            "beam orientations": fp.keyed_buckets(
                "beam orientations", self.slot_keys("beam orientations"),
                self.orientations.owner, self.orientations.labels),
            "definitions": fp.text_buckets("definitions", (
                (definition_key(kind, name), value.encode("utf-8"))
                for kind, name, value in self.definitions)),
        }
        return fp.Digests(kinds, mesh.node_count, mesh.element_count)

    def slot_keys(self, records: str) -> list[bytes]:
        """The canonical bytes of each key slot of one kind of (key, label) records: the
        set (and whether of nodes or elements), the section, or the (method, n1)."""
        if records == "set nodes":
            return [b"nodes\x00" + fp.field_bytes(str(k)) for k in self.set_nodes.keys]
        if records == "set elements":
            return [b"elements\x00" + fp.field_bytes(str(k)) for k in self.set_elements.keys]
        if records == "section assignments":
            return [fp.field_bytes(str(k)) for k in self.assignments.keys]
        keys = self.orientations.keys
        if keys:
            vectors = np.array([n1 for _, n1 in keys], dtype=np.float64).reshape(-1, 3)
            fp.refuse_non_finite(vectors[self.orientations.owner],
                                 self.orientations.labels, "beam orientation of element",
                                 ("n1 x", "n1 y", "n1 z"))
        return [fp.field_bytes(str(method)) + struct.pack("<3d", *n1) for method, n1 in keys]

    def bucket_keys(self) -> dict[str, set[fp.Key]]:
        """The buckets these records fall into, by kind (no hashing)."""
        mesh = self.mesh
        members: set[fp.Key] = set()
        for name, records in (("set nodes", self.set_nodes), ("set elements",
                                                            self.set_elements)):
            members |= _slot_buckets(self.slot_keys(name), records)
        return {
            "nodes": _label_buckets(mesh.node_labels),
            "elements": _label_buckets(mesh.element_labels),
            "sets": {fp.field_bytes(n) for n in self.set_names},
            "set members": members,
            "section assignments": _slot_buckets(self.slot_keys("section assignments"),
                                                 self.assignments),
            "beam orientations": _slot_buckets(self.slot_keys("beam orientations"),
                                               self.orientations),
            "definitions": {definition_key(kind, name) for kind, name, _ in self.definitions},
        }

    def joined(self, other: PartContents) -> PartContents:
        """These records and ``other``'s together (no record is merged or dropped)."""
        return PartContents(
            mesh=joined_mesh(self.mesh, other.mesh),
            set_names=self.set_names + other.set_names,
            set_nodes=self.set_nodes.joined(other.set_nodes),
            set_elements=self.set_elements.joined(other.set_elements),
            assignments=self.assignments.joined(other.assignments),
            orientations=self.orientations.joined(other.orientations),
            definitions=self.definitions + other.definitions,
        )


def definition_key(kind: str, name: str) -> bytes:
    return fp.field_bytes(kind) + fp.field_bytes(name)


def _label_buckets(labels: np.ndarray) -> set[fp.Key]:
    if not len(labels):
        return set()
    ids = fp.bucket_of(labels)
    if len(ids) > 1 and not bool((ids[1:] >= ids[:-1]).all()):
        ids = np.sort(ids)
    return set(ids[_first_of_runs(ids)].tolist())


def _first_of_runs(ids: np.ndarray) -> np.ndarray:
    keep = np.ones(len(ids), dtype=bool)
    np.not_equal(ids[1:], ids[:-1], out=keep[1:])
    return keep


def _slot_buckets(slot_keys: list[bytes], records: Keyed) -> set[fp.Key]:
    """The (key, label range) buckets of (key, label) records."""
    if not len(records):
        return set()
    ids = fp.bucket_of(records.labels)
    owner = records.owner.astype(np.int64)
    order = np.lexsort((ids, owner))
    owner, ids = owner[order], ids[order]
    keep = _first_of_runs(ids) | _first_of_runs(owner)
    return {(slot_keys[o], i) for o, i in zip(owner[keep].tolist(), ids[keep].tolist(),
                                              strict=True)}


def refuse_non_finite_definitions(definitions: Iterable[Definition]) -> None:
    """A definition value with a NaN or infinity (written ``nan``/``inf`` in its exact text,
    which then no longer reads back as a literal) is refused, named."""
    bad = []
    for kind, name, value in definitions:
        if "nan" in value or "inf" in value:
            try:
                ast.literal_eval(value)
            except (ValueError, SyntaxError):
                bad.append(f"{kind} {name}: {value}")
    if bad:
        raise NonFiniteValue(bad)


def joined_mesh(a: PartMesh, b: PartMesh) -> PartMesh:
    """The nodes and elements of two meshes together (shape codes re-indexed)."""
    if not b.node_count and not b.element_count:
        return a
    if not a.node_count and not a.element_count:
        return b
    names = tuple(sorted(set(a.shape_names) | set(b.shape_names)))
    codes = [np.array([names.index(n) for n in m.shape_names], dtype=np.uint8)
             for m in (a, b)]
    shape_codes = np.concatenate([np.take(c, m.shape_codes) if len(c) else m.shape_codes
                                  for c, m in zip(codes, (a, b), strict=True)])
    offsets = np.concatenate([a.offsets, b.offsets[1:] + a.offsets[-1]])
    return PartMesh(
        node_labels=np.concatenate([a.node_labels, b.node_labels]),
        coordinates=np.concatenate([a.coordinates.reshape(-1, 3),
                                    b.coordinates.reshape(-1, 3)]),
        element_labels=np.concatenate([a.element_labels, b.element_labels]),
        shape_names=names, shape_codes=shape_codes.astype(np.uint8), offsets=offsets,
        connectivity=np.concatenate([a.connectivity, b.connectivity]))


# -- reading a live part --------------------------------------------------------------------


def read_contents(model: Any, part: Any) -> PartContents:
    """Everything the fingerprint covers of ``part`` (and ``model``'s definitions), read once."""
    return PartContents(
        mesh=read_mesh(part),
        set_names=tuple(part.sets.keys()),
        set_nodes=Keyed.of([(name, _labels_of(part.sets[name], "nodes"))
                            for name in part.sets.keys()]),
        set_elements=Keyed.of([(name, _labels_of(part.sets[name], "elements"))
                               for name in part.sets.keys()]),
        assignments=read_assignments(part),
        orientations=read_orientations(part),
        definitions=read_definitions(model),
    )


def read_assignments(part: Any) -> Keyed:
    """The section assignments as (section name, element label) records."""
    return Keyed.of([(str(a.sectionName), _labels_of(a.region, "elements"))
                     for a in part.sectionAssignments])


def read_orientations(part: Any) -> Keyed:
    """The beam orientations as ((method, n1), element label) records."""
    return Keyed.of([((str(o.method), _vector(o.n1)), _labels_of(o.region, "elements"))
                     for o in part.beamOrientations])


def _labels_of(region: Any, attribute: str) -> list[int]:
    members = getattr(region, attribute, None)
    return [] if members is None else [m.label for m in members]


def _vector(value: Any) -> tuple[float, float, float]:
    x, y, z = value
    return (float(x), float(y), float(z))


def read_definitions(model: Any) -> tuple[Definition, ...]:
    """The model's materials, profiles and sections as (kind, name, exact value text)."""
    if model is None:
        return ()
    from sam_plugin.samops.snapshot import capture_definitions

    defs = capture_definitions(model)
    return definitions_of(defs.materials, defs.profiles, defs.sections)


def definitions_of(materials: Iterable[tuple[Any, ...]], profiles: Iterable[tuple[Any, ...]],
                   sections: Iterable[tuple[Any, ...]]) -> tuple[Definition, ...]:
    """Definition records of the snapshot's plain entries (``snapshot.Definitions``)."""
    out = [("material", str(e[0]), repr(tuple(e[1:]))) for e in materials]
    out += [("profile", str(e[0]), repr(tuple(e[1:]))) for e in profiles]
    out += [("section", str(e[0]), repr(tuple(e[1:]))) for e in sections]
    return tuple(out)


def empty_mesh() -> PartMesh:
    return mesh_of((), ())
