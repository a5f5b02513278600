"""Resolve a Selector dict (docs/architecture.md §4) against the live part: host API only.

Used by generated Part, Property and Mesh scripts (selectors arrive as literal dicts) and by
the compilers to predict how many entities a selector picks now.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from operator import attrgetter
from typing import Any

from sam_plugin.errors import SelectionError
from sam_plugin.samops.geometry import box_tolerance, size_tolerance
from sam_plugin.samops.mesh_read import column_box, coordinate_array

_LABEL = attrgetter("label")


def part_tolerance(part: Any) -> float:
    """``size_tolerance`` of the part's nodes (their box in numpy: a Python loop over the
    coordinates of a 188,356-node part measured 3x slower)."""
    nodes = tuple(part.nodes)
    if len(nodes) < 64:
        return size_tolerance(n.coordinates for n in nodes)
    xyz = coordinate_array([n.coordinates for n in nodes])
    return box_tolerance(*column_box(xyz))


def label_range(labels: Iterable[int], noun: str) -> str:
    ordered = sorted(labels)
    if not ordered:
        return f"the part has no {noun}s"
    return f"existing {noun} labels: {ordered[0]}..{ordered[-1]} ({len(ordered)} {noun}s)"


def describe_sets(part: Any) -> str:
    names = sorted(part.sets.keys())
    return f"existing sets: {', '.join(names)}" if names else "the part has no sets"


def _by_labels(array: Any, labels: Iterable[int], noun: str) -> list[Any]:
    wanted = sorted(set(labels))
    existing = {item.label: item for item in array}
    missing = [label for label in wanted if label not in existing]
    if missing:
        shown = ", ".join(str(m) for m in missing[:10])
        more = f" (+{len(missing) - 10} more)" if len(missing) > 10 else ""
        raise SelectionError(
            f"unknown {noun} label(s) {shown}{more}; {label_range(existing, noun)}"
        )
    return [existing[label] for label in wanted]


def _set(part: Any, name: str) -> Any:
    if name not in part.sets.keys():
        raise SelectionError(f"unknown set {name!r}; {describe_sets(part)}")
    return part.sets[name]


def _box_node_labels(part: Any, selector: Mapping[str, Any], tolerance: float | None) -> set[int]:
    tol = part_tolerance(part) if tolerance is None else tolerance
    lo, hi = selector["min"], selector["max"]
    inside = part.nodes.getByBoundingBox(
        lo[0] - tol, lo[1] - tol, lo[2] - tol, hi[0] + tol, hi[1] + tol, hi[2] + tol
    )
    return {n.label for n in inside}


def _members(region: Any, attribute: str) -> list[Any]:
    members = getattr(region, attribute, None)
    return list(members) if members is not None else []


def select_elements(part: Any, selector: Mapping[str, Any],
                    tolerance: float | None = None) -> list[Any]:
    """Elements picked by ``selector``, in label order."""
    kind = selector["by"]
    if kind == "all":
        picked = list(part.elements)
    elif kind == "labels":
        picked = _by_labels(part.elements, selector["labels"], "element")
    elif kind == "set":
        region = _set(part, selector["name"])
        picked = _members(region, "elements")
        if not picked:
            node_labels = {n.label for n in _members(region, "nodes")}
            picked = [e for e in part.elements
                      if node_labels and set(e.connectivity) <= node_labels]
    elif kind == "shape":
        picked = [e for e in part.elements if str(e.type) == selector["shape"]]
    elif kind == "box":
        inside = _box_node_labels(part, selector, tolerance)
        picked = [e for e in part.elements if all(n in inside for n in e.connectivity)]
    else:
        raise SelectionError(f"unknown selector kind {kind!r}; legal: all, labels, set, shape, box")
    return sorted(picked, key=_LABEL)


def select_nodes(part: Any, selector: Mapping[str, Any],
                 tolerance: float | None = None) -> list[Any]:
    """Nodes picked by ``selector`` (for element-style selectors: the nodes of those elements)."""
    kind = selector["by"]
    if kind == "all":
        return sorted(part.nodes, key=_LABEL)
    if kind == "labels":
        return _by_labels(part.nodes, selector["labels"], "node")
    if kind == "box":
        inside = _box_node_labels(part, selector, tolerance)
        return sorted((n for n in part.nodes if n.label in inside), key=_LABEL)
    if kind == "set":
        region = _set(part, selector["name"])
        nodes = _members(region, "nodes")
        if nodes:
            return sorted(nodes, key=_LABEL)
    return nodes_of(part, select_elements(part, selector, tolerance))


def nodes_of(part: Any, elements: Iterable[Any]) -> list[Any]:
    """The nodes of ``elements``, in label order, asked of the host by label (a pass over
    every node of a big part cost more than the few a set of elements uses)."""
    labels: set[int] = set()
    for element in elements:
        labels.update(element.connectivity)
    if not labels:
        return []
    return list(part.nodes.sequenceFromLabels(sorted(labels)))


def select_transform_nodes(part: Any, selector: Mapping[str, Any],
                           tolerance: float | None = None) -> tuple[list[Any], list[Any]]:
    """(elements, nodes) a transform acts on: ``all`` includes free nodes too."""
    elements = select_elements(part, selector, tolerance)
    if selector["by"] == "all":
        return elements, sorted(part.nodes, key=_LABEL)
    return elements, nodes_of(part, elements)


def transform_nodes(part: Any, selector: Mapping[str, Any]) -> list[Any]:
    """The nodes of ``select_transform_nodes``, for a transform that only moves nodes: ``all``
    takes every node without going through the elements (a pass over each of them)."""
    if selector["by"] == "all":
        return sorted(part.nodes, key=_LABEL)
    return nodes_of(part, select_elements(part, selector))
