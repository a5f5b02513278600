"""Part repair called by generated ``repair_part`` scripts: merge coincident nodes (the
host's linear ``mergeNodes``), delete duplicate elements, delete free nodes — in that order."""

from __future__ import annotations

from typing import Any

from samConstants import OFF

from sam_plugin.samops import part_inspect as inspect
from sam_plugin.samops.selection import part_tolerance


def repair(part: Any, merge: bool, tolerance: float | None, delete_duplicates: bool,
           delete_free: bool) -> dict[str, int]:
    """Apply the requested repairs; returns how many nodes/elements each step removed."""
    removed = {"merged_nodes": 0, "duplicate_elements": 0, "free_nodes": 0}
    if merge and len(part.nodes):
        tol = part_tolerance(part) if tolerance is None else tolerance
        before_nodes, before_elements = len(part.nodes), len(part.elements)
        part.mergeNodes(nodes=part.nodes, tolerance=tol,
                        removeDuplicateElements=delete_duplicates)
        removed["merged_nodes"] = before_nodes - len(part.nodes)
        removed["duplicate_elements"] = before_elements - len(part.elements)
    if delete_duplicates:
        doomed_labels = [label for group in inspect.duplicate_groups(part) for label in group[1:]]
        if doomed_labels:
            doomed = part.elements.sequenceFromLabels(doomed_labels)
            part.deleteElement(elements=doomed, deleteUnreferencedNodes=OFF)
            removed["duplicate_elements"] += len(doomed_labels)
    if delete_free:
        free = inspect.free_node_labels(part)
        if free:
            part.deleteNode(nodes=part.nodes.sequenceFromLabels(free))
            removed["free_nodes"] = len(free)
    return removed
