"""How the verifier matches the entities the plan predicted to the live part's: by label where
the label is predictable (an entity that existed keeps it), by geometry for new nodes and by
shape and nodes for new elements (the host numbers new ones itself). Used by
``part_comparison.py``; nothing here decides a check."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from sam_plugin.samops.mesh_read import PartMesh
from sam_plugin.samops.part_contents import Keyed, PartContents
from sam_plugin.samops.part_scope import among

Vec3 = tuple[float, float, float]
Element = tuple[str, tuple[int, ...]]


def prior_labels(labels: np.ndarray, *groups: Mapping[int, Any]) -> set[int]:
    """Which of the labels in ``groups`` existed before the run."""
    keys = np.fromiter({k for g in groups for k in g}, dtype=np.int64)
    if not len(keys):
        return set()
    known: list[int] = keys[among(keys, labels)].tolist()
    return set(known)


def nodes_of(contents: PartContents) -> dict[int, Vec3]:
    mesh = contents.mesh
    return dict(zip(mesh.node_labels.tolist(), map(tuple, mesh.coordinates.tolist()),
                    strict=True))


def elements_of(contents: PartContents) -> dict[int, Element]:
    mesh = contents.mesh
    names = mesh.shape_names
    flat = mesh.connectivity.tolist()
    offsets = mesh.offsets.tolist()
    return {label: (names[code], tuple(flat[offsets[i]:offsets[i + 1]]))
            for i, (label, code) in enumerate(zip(mesh.element_labels.tolist(),
                                                  mesh.shape_codes.tolist(), strict=True))}


def mapped(element: Element, mapping: Mapping[int, int]) -> Element:
    shape, nodes = element
    return (shape, tuple(mapping.get(n, n) for n in nodes))


def pair_by_geometry(new: list[int], planned: dict[int, Vec3], live_new: list[int],
                      live: dict[int, Vec3], tol: float) -> list[tuple[int, int]]:
    """New nodes paired: by label when the host numbered them as the shadow did, else in
    coordinate order on the tolerance's grid (a wrong pairing shows up as a coordinate
    difference, never as a pass)."""
    if new == live_new:
        return list(zip(new, live_new, strict=True))

    def order(labels: list[int], points: dict[int, Vec3]) -> list[int]:
        return sorted(labels, key=lambda k: tuple(round(v / tol) for v in points[k]))
    return list(zip(order(new, planned), order(live_new, live), strict=True))


def pair_elements(planned: Mapping[int, Element],
                   live: Mapping[int, Element]) -> dict[int, int]:
    """Planned new element label -> the live one with the same shape and nodes."""
    by_key: dict[Element, list[int]] = {}
    for label, key in sorted(live.items()):
        by_key.setdefault(key, []).append(label)
    out = {}
    for label, key in sorted(planned.items()):
        found = by_key.get(key)
        if found:
            out[label] = found.pop(0)
    return out


def grouped(records: Keyed, mapping: Mapping[int, int] | None,
             only: np.ndarray | None = None) -> dict[str, set[int]]:
    """set name -> member labels (mapped to the live labels; -label when unmatched)."""
    out: dict[str, set[int]] = {}
    labels = records.labels
    keep = among(labels, only) if only is not None and len(labels) else None
    for i, (slot, label) in enumerate(zip(records.owner.tolist(), labels.tolist(),
                                          strict=True)):
        if keep is not None and not keep[i]:
            continue
        value = label if mapping is None else mapping.get(label, -label)
        out.setdefault(str(records.keys[slot]), set()).add(value)
    return out


def rows_differ(was: PartMesh, at: np.ndarray, now: PartMesh, then: np.ndarray,
                of_nodes: bool) -> np.ndarray:
    """Whether node (or element) ``at[i]`` of ``was`` differs from ``then[i]`` of ``now``,
    exactly: coordinate bits, or shape and connectivity in order."""
    if of_nodes:
        before = np.ascontiguousarray(was.coordinates[at]).view(np.uint64)
        after = np.ascontiguousarray(now.coordinates[then]).view(np.uint64)
        differ: np.ndarray = (before != after).any(axis=1)
        return differ
    shapes = (np.array(was.shape_names, dtype=object)[was.shape_codes[at]]
              != np.array(now.shape_names, dtype=object)[now.shape_codes[then]])
    width_was, width_now = np.diff(was.offsets)[at], np.diff(now.offsets)[then]
    differ = shapes | (width_was != width_now)
    differ |= (_padded(was, at, width_was) != _padded(now, then, width_now)).any(axis=1)
    return differ


def _padded(mesh: PartMesh, at: np.ndarray, widths: np.ndarray) -> np.ndarray:
    """The connectivity rows ``at``, padded with zeros to the widest."""
    width = int(widths.max()) if len(widths) else 0
    out = np.zeros((len(at), width), dtype=np.int64)
    if not len(at) or not width:
        return out
    rows = np.repeat(np.arange(len(at)), widths)
    starts = np.zeros(len(at) + 1, dtype=np.int64)
    np.cumsum(widths, out=starts[1:])
    columns = np.arange(int(starts[-1])) - np.repeat(starts[:-1], widths)
    out[rows, columns] = mesh.connectivity[np.repeat(mesh.offsets[:-1][at], widths) + columns]
    return out
