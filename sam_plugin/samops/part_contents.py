"""Everything the part fingerprint covers, read once into arrays (docs/architecture.md §5).

``PartContents`` is the mesh (``mesh_read.PartMesh``), the sets with their members, the section
assignments and beam orientations resolved to element labels, and the model's property
definitions. ``read_contents`` reads a live part through the public API; the compilers build
the same structure for the entities a plan touches (the predicted image), and verification
reads the live part after a run into it once. ``digest`` hashes a contents' records
(``fingerprint``), ``within`` keeps the records a scope covers (``part_scope``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np

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
        """The fingerprint of these records (a sum: see ``samops.fingerprint``)."""
        return fp.total(self.parts().values())

    def parts(self) -> dict[str, fp.Fingerprint]:
        """The fingerprint of each kind of record (their sum is ``digest``); computed once."""
        return dict(self._parts)

    @cached_property
    def _parts(self) -> dict[str, fp.Fingerprint]:
        mesh = self.mesh
        return {
            "nodes": mesh.node_digest(),
            "elements": mesh.element_digest(),
            "sets": fp.Fingerprint.of(fp.text_hashes(self.set_names, "set")),
            "set members": fp.Fingerprint.of(np.concatenate([
                _keyed(self.set_nodes, "set_node"), _keyed(self.set_elements, "set_element")])),
            "section assignments": fp.Fingerprint.of(_keyed(self.assignments, "assignment")),
            "beam orientations": fp.Fingerprint.of(_orientations(self.orientations)),
            "definitions": fp.Fingerprint.of(fp.text_hashes(
                ("\x1f".join(entry) for entry in self.definitions), "definition")),
        }


def _keyed(records: Keyed, tag: str) -> np.ndarray:
    keys = np.array([fp.name_key(str(k)) for k in records.keys], dtype=np.uint64)
    return fp.keyed_hashes(records.labels, np.take(keys, records.owner) if len(keys) else
                           np.zeros(0, dtype=np.uint64), tag)


def _orientations(records: Keyed) -> np.ndarray:
    if not len(records):
        return np.zeros(0, dtype=np.uint64)
    methods = np.array([fp.name_key(str(method)) for method, _ in records.keys],
                       dtype=np.uint64)
    vectors = np.array([n1 for _, n1 in records.keys], dtype=np.float64).reshape(-1, 3)
    return fp.orientation_hashes(records.labels, np.take(methods, records.owner),
                                 vectors[records.owner])


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
        assignments=Keyed.of([(str(a.sectionName), _labels_of(a.region, "elements"))
                              for a in part.sectionAssignments]),
        orientations=Keyed.of([((str(o.method), _vector(o.n1)), _labels_of(o.region, "elements"))
                               for o in part.beamOrientations]),
        definitions=read_definitions(model),
    )


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
