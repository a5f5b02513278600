"""A few entities of a part, read again and compared with an earlier whole read, exactly
(docs/architecture.md §1, I3: the drift check at confirm).

The drift check right before execution reads the whole part and compares fingerprints. At
confirm a cheaper check is enough when it is exact for what it covers: the counts (nodes,
elements), every name and definition (set names, section assignments, beam orientations,
materials, profiles, sections, all read: few), and the entities a spec names (nodes and
elements by label, the sets it names with their members, their elements and those elements'
nodes), each compared bit for bit with the observation's read. A change anywhere else is
caught by the check before execution; nothing here is sampled or approximated.
"""

from __future__ import annotations

import struct
from collections import Counter
from collections.abc import Iterable
from typing import Any

import numpy as np

from sam_plugin.samops.part_contents import (
    Keyed,
    PartContents,
    read_assignments,
    read_definitions,
    read_orientations,
)

SHOWN = 3


def differences(model: Any, part: Any, base: PartContents, nodes: Iterable[int] = (),
                elements: Iterable[int] = (), sets: Iterable[str] = ()) -> list[str]:
    """What differs between the live ``part`` and ``base`` (an earlier read of it), over the
    counts, names, definitions and the named entities; [] when nothing does."""
    mesh = base.mesh
    found: list[str] = []
    if len(part.nodes) != mesh.node_count or len(part.elements) != mesh.element_count:
        found.append(f"{len(part.nodes)} nodes and {len(part.elements)} elements now, "
                     f"{mesh.node_count} and {mesh.element_count} observed")
    if sorted(part.sets.keys()) != sorted(base.set_names):
        found.append("the set names changed")
    if sorted(read_definitions(model)) != sorted(base.definitions):
        found.append("a material, profile or section changed")
    if _pairs(read_assignments(part)) != _pairs(base.assignments):
        found.append("the section assignments changed")
    if _pairs(read_orientations(part)) != _pairs(base.orientations):
        found.append("the beam orientations changed")
    if found:
        return found
    wanted_sets = [name for name in sets if name in base.set_names]
    element_labels = set(elements)
    for name in wanted_sets:
        live, was = _members(part.sets[name]), _set_members(base, name)
        if live != was:
            found.append(f"set {name} changed")
        element_labels.update(was[1])
    found += _elements(part, base, element_labels)
    node_labels = set(nodes) | _nodes_of(base, element_labels)
    for name in wanted_sets:
        node_labels.update(_set_members(base, name)[0])
    return found + _nodes(part, base, node_labels)


def _pairs(records: Keyed) -> Counter[tuple[str, int]]:
    keys = [repr(k) for k in records.keys]
    return Counter(zip((keys[o] for o in records.owner.tolist()), records.labels.tolist(),
                       strict=True))


def _members(region: Any) -> tuple[Counter[int], Counter[int]]:
    return (Counter(n.label for n in region.nodes), Counter(e.label for e in region.elements))


def _set_members(base: PartContents, name: str) -> tuple[Counter[int], Counter[int]]:
    out = []
    for records in (base.set_nodes, base.set_elements):
        slots = [i for i, key in enumerate(records.keys) if key == name]
        out.append(Counter(records.labels[np.isin(records.owner, slots)].tolist()))
    return out[0], out[1]


def _positions(labels: np.ndarray, wanted: list[int]) -> dict[int, int]:
    """label -> its position in ``labels`` (the host's order), for the wanted ones there."""
    if not wanted or not len(labels):
        return {}
    ascending = len(labels) < 2 or bool((labels[1:] > labels[:-1]).all())
    order = np.arange(len(labels)) if ascending else np.argsort(labels, kind="stable")
    ordered = labels if ascending else labels[order]
    probe = np.array(wanted, dtype=np.int64)
    at = np.minimum(np.searchsorted(ordered, probe), len(ordered) - 1)
    hit = ordered[at] == probe
    return dict(zip(probe[hit].tolist(), order[at[hit]].tolist(), strict=True))


def _live(array: Any, labels: list[int]) -> dict[int, Any]:
    """The live entities of these labels that exist (the others are absent)."""
    if not labels:
        return {}
    try:
        return {e.label: e for e in array.sequenceFromLabels(labels)}
    except Exception:  # noqa: BLE001 - the host's way to say a label is gone: one by one
        found = {}
        for label in labels:
            try:
                found[label] = array.getFromLabel(label)
            except Exception:  # noqa: BLE001 - absent
                continue
        return found


def _nodes(part: Any, base: PartContents, labels: set[int]) -> list[str]:
    wanted = sorted(labels)
    was = _positions(base.mesh.node_labels, wanted)
    live = _live(part.nodes, [k for k in wanted if k in was])
    xyz = base.mesh.coordinates
    found = [f"node {k} is gone" for k in wanted if k in was and k not in live]
    for label, node in live.items():
        if struct.pack("<3d", *node.coordinates) != xyz[was[label]].astype("<f8").tobytes():
            found.append(f"node {label} moved")
    return found[:SHOWN]


def _elements(part: Any, base: PartContents, labels: set[int]) -> list[str]:
    wanted = sorted(labels)
    was = _positions(base.mesh.element_labels, wanted)
    live = _live(part.elements, [k for k in wanted if k in was])
    found = [f"element {k} is gone" for k in wanted if k in was and k not in live]
    for label, element in live.items():
        shape, row = base.mesh.element(was[label])
        if str(element.type) != shape or tuple(element.connectivity) != row:
            found.append(f"element {label} changed")
    return found[:SHOWN]


def _nodes_of(base: PartContents, labels: set[int]) -> set[int]:
    mesh = base.mesh
    out: set[int] = set()
    for position in _positions(mesh.element_labels, sorted(labels)).values():
        out.update(mesh.element(position)[1])
    return out
