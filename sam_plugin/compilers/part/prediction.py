"""The Part plan's predicted part, from what the shadow run touched (docs/architecture.md §5).

The shadow (``samops.part_shadow``) records the nodes and elements the calls moved,
re-pointed, created or deleted, and the sets they wrote. The scope is those, the elements
whose section assignments or orientations follow a written set, and every new label. The
image is what the shadow leaves there: touched and new entities as they end, the members of
the written sets, the memberships of touched entities in the other sets, and the sections
and orientations of the touched elements as the host's regions resolve them after the run.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from sam_plugin.compilers.predicted_part import PredictedPart, scoped, sorted_labels
from sam_plugin.samops.mesh_read import mesh_of
from sam_plugin.samops.part_contents import Keyed, PartContents
from sam_plugin.samops.part_scope import Scope, among, labels_array, unique
from sam_plugin.samops.part_shadow import ShadowEntry, ShadowPart


def predicted_from_shadow(shadow: ShadowPart, before: PartContents) -> PredictedPart:
    nodes = labels_array(shadow.changed_nodes | shadow.created_nodes)
    elements = labels_array(shadow.changed_elements | shadow.created_elements)
    written = frozenset(shadow.sets.written)
    follow = _following_written_sets(shadow, before, written)
    scope = Scope(
        prior_nodes=sorted_labels(before.mesh.node_labels),
        prior_elements=sorted_labels(before.mesh.element_labels),
        nodes=labels_array(shadow.changed_nodes), elements=labels_array(shadow.changed_elements),
        sets=written, assigned=follow(shadow.assignments), oriented=follow(shadow.orientations))
    alive_nodes = shadow.alive(nodes.tolist(), True)
    alive_elements = shadow.alive(elements.tolist(), False)
    in_scope = np.concatenate([elements, scope.assigned, scope.oriented])
    image = PartContents(
        mesh=mesh_of(alive_nodes, alive_elements),
        set_names=tuple(name for name in shadow.sets if name in written),
        set_nodes=_members(shadow, before.set_nodes, written, shadow.changed_nodes,
                           shadow.deleted_nodes, True),
        set_elements=_members(shadow, before.set_elements, written, shadow.changed_elements,
                              shadow.deleted_elements, False),
        assignments=_entries(shadow, shadow.assignments, in_scope),
        orientations=_entries(shadow, shadow.orientations, in_scope),
    )
    return scoped(before, scope, image)


def _following_written_sets(shadow: ShadowPart, before: PartContents,
                            written: frozenset[str]) -> Any:
    """For entries whose region is a written set: the set's members before and after."""
    def labels(entries: list[ShadowEntry]) -> np.ndarray:
        found: set[int] = set()
        for entry in entries:
            if entry.set_name is None or entry.set_name not in written:
                continue
            found.update(_before_members(before.set_elements, entry.set_name))
            found.update(shadow.entry_labels(entry))
        return labels_array(found)
    return labels


def _before_members(records: Keyed, name: str) -> list[int]:
    if name not in records.keys:
        return []
    slot = records.keys.index(name)
    members: list[int] = records.labels[records.owner == slot].tolist()
    return members


def _members(shadow: ShadowPart, before: Keyed, written: frozenset[str], changed: set[int],
             deleted: set[int], of_nodes: bool) -> Keyed:
    """Memberships inside the scope after the run: every member of a written set, and the
    memberships a touched entity keeps in the other sets (none once it was deleted: the
    host's sets drop a deleted entity, even one re-created under its label)."""
    entries: list[tuple[str, list[int]]] = []
    for name in shadow.sets:
        if name in written:
            region = shadow.sets[name]
            members = region.nodes if of_nodes else region.elements
            entries.append((name, [m.label for m in members]))
    if len(before) and changed:
        kept = labels_array(changed - deleted)
        mask = among(before.labels, kept)
        if mask.any():
            for slot, label in zip(before.owner[mask].tolist(), before.labels[mask].tolist(),
                                   strict=True):
                name = before.keys[slot]
                if name not in written:
                    entries.append((name, [label]))
    return Keyed.of(entries)


def _entries(shadow: ShadowPart, entries: list[ShadowEntry], in_scope: np.ndarray) -> Keyed:
    """(value, element) records of the assignments or orientations over scoped elements."""
    if not entries or not len(in_scope):
        return Keyed()
    pool = unique(in_scope)
    found: list[tuple[Any, list[int]]] = []
    for entry in entries:
        labels = np.fromiter(shadow.entry_labels(entry), dtype=np.int64)
        chosen = labels[among(labels, pool)] if len(labels) else labels
        if len(chosen):
            found.append((entry.value, chosen.tolist()))
    return Keyed.of(found)
