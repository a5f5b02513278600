"""The records outside a run's scope, compared exactly between the read before the run and
the live part (``part_comparison.py``): what must not have changed, named where it did."""

from __future__ import annotations

from typing import Any

import numpy as np

from sam_plugin.runtime.verify.comparison_words import SHOWN, element_words, point_words
from sam_plugin.runtime.verify.entity_matching import rows_differ
from sam_plugin.samops.part_contents import Keyed, PartContents
from sam_plugin.samops.part_scope import among, sub_mesh


def differing_entities(base: PartContents, live: PartContents, scope: Any,
                        of_nodes: bool) -> list[str]:
    """Untouched nodes (or elements) that differ between the before read and the live one,
    aligned by label and compared exactly, in numpy (any size)."""
    was, now = (sub_mesh(c.mesh, ~scope.node_mask(c.mesh.node_labels), _none(c.mesh, False))
                if of_nodes else
                sub_mesh(c.mesh, _none(c.mesh, True), ~scope.element_mask(c.mesh.element_labels))
                for c in (base, live))
    was_labels, now_labels = (m.node_labels if of_nodes else m.element_labels
                              for m in (was, now))
    was_order, now_order = np.argsort(was_labels), np.argsort(now_labels)
    was_sorted, now_sorted = was_labels[was_order], now_labels[now_order]
    kept, still = among(was_sorted, now_sorted), among(now_sorted, was_sorted)
    changed = rows_differ(was, was_order[kept], now, now_order[still], of_nodes)
    noun = "node" if of_nodes else "element"
    out = []
    for label in was_sorted[kept][changed][: SHOWN + 1].tolist():
        i, j = (int(np.nonzero(labels == label)[0][0]) for labels in (was_labels, now_labels))
        if of_nodes:
            out.append(f"node {label} at {point_words(now.coordinates[j])}, "
                       f"was {point_words(was.coordinates[i])}")
        else:
            out.append(f"element {label} is {element_words(now.element(j))}, "
                       f"was {element_words(was.element(i))}")
    out += [f"{noun} {k} missing" for k in was_sorted[~kept][: SHOWN + 1].tolist()]
    return out + [f"{noun} {k} not in the plan" for k in now_sorted[~still][: SHOWN + 1].tolist()]


def _none(mesh: Any, of_nodes: bool) -> np.ndarray:
    return np.zeros(mesh.node_count if of_nodes else mesh.element_count, dtype=bool)


def outside(contents: PartContents, scope: Any, what: str) -> set[tuple[Any, ...]]:
    """The records of one kind outside ``scope`` (tagged tuples, for naming differences)."""
    inside = scope.inside(contents)
    if what == "members":
        out: set[tuple[Any, ...]] = set()
        for tag, attribute in (("nodes", "set_nodes"), ("elements", "set_elements")):
            out |= {(tag, key, label) for key, label in getattr(contents, attribute).pairs()} \
                - {(tag, key, label) for key, label in getattr(inside, attribute).pairs()}
        return out
    pairs: set[tuple[Any, ...]] = set(getattr(contents, what).pairs())
    return pairs - set(getattr(inside, what).pairs())


def outside_by_element(contents: PartContents, scope: Any,
                        what: str) -> dict[int, tuple[Any, ...]]:
    records: Keyed = getattr(contents, what)
    if not len(records):
        return {}
    inside = scope.element_mask(records.labels)
    extra = scope.assigned if what == "assignments" else scope.oriented
    if len(extra):
        inside |= among(records.labels, extra)
    return records.take(~inside).by_label()
