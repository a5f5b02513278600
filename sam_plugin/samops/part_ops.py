"""Part mutations called by generated ``build_part``/``edit_part`` scripts: host API only.

Arguments arrive as literals of validated values. Node creation goes through the same
``plan_mesh`` the compiler used to predict counts.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from samConstants import BEAM, OFF, QUAD, TRI

from sam_plugin.errors import PreflightError, SelectionError
from sam_plugin.samops.mesh_plan import ElementSpec, LineSpec, NodeSpec, PatchSpec, plan_mesh
from sam_plugin.samops.selection import describe_sets, label_range, select_elements, select_nodes

SHAPE_CONSTANTS = {"QUAD": QUAD, "TRI": TRI, "BEAM": BEAM}


def existing_part(model: Any, part_name: str) -> Any | None:
    return model.parts[part_name] if part_name in model.parts.keys() else None


def require_empty_or_missing(model: Any, part_name: str) -> None:
    part = existing_part(model, part_name)
    if part is not None and (len(part.nodes) or len(part.elements)):
        raise PreflightError(
            f"build_part needs an empty or missing part, but part {part_name!r} has "
            f"{len(part.nodes)} nodes and {len(part.elements)} elements; use edit_part"
        )


def require_part(model: Any, part_name: str) -> Any:
    part = existing_part(model, part_name)
    if part is None:
        parts = ", ".join(sorted(model.parts.keys())) or "none"
        raise PreflightError(f"part {part_name!r} does not exist; parts: {parts}")
    return part


def require_selection(part: Any, selector: Mapping[str, Any], what: str, kind: str) -> None:
    try:
        if kind == "nodes":
            select_nodes(part, selector)
        else:
            select_elements(part, selector)
    except SelectionError as exc:
        raise PreflightError(f"{what}: {exc}") from None


def require_node_labels(part: Any, labels: Iterable[int], what: str) -> None:
    wanted = list(labels)
    get = part.nodes.getFromLabel
    try:  # label by label (a move names a few nodes); the whole set only to word a miss
        for label in wanted:
            get(label)
    except Exception:  # noqa: BLE001 - the host's own way of saying "no such label"
        pass
    else:
        return
    existing = {n.label for n in part.nodes}
    missing = sorted(set(wanted) - existing)
    if missing:
        raise PreflightError(f"{what}: unknown node label(s) {missing[:10]}; "
                             f"{label_range(existing, 'node')}")


def require_new_set_names(part: Any, names: Iterable[str], what: str) -> None:
    taken = sorted(set(names) & set(part.sets.keys()))
    if taken:
        raise PreflightError(f"{what}: set(s) {', '.join(taken)} already exist; "
                             f"{describe_sets(part)}; choose new names")


def ensure_part(model: Any, part_name: str) -> Any:
    part = existing_part(model, part_name)
    return part if part is not None else model.Part(name=part_name)


def add_mesh(
    part: Any,
    nodes: Sequence[NodeSpec] = (),
    elements: Sequence[ElementSpec] = (),
    patches: Sequence[PatchSpec] = (),
    lines: Sequence[LineSpec] = (),
    element_sets: Sequence[tuple[str, Sequence[str]]] = (),
    tolerance: float = 1e-6,
    reuse_existing: bool = False,
) -> dict[str, list[Any]]:
    """Create the planned nodes and elements; returns local id -> created elements."""
    existing_nodes = list(part.nodes) if reuse_existing else []
    plan = plan_mesh(nodes, elements, patches, lines, tolerance,
                     existing=[tuple(n.coordinates) for n in existing_nodes])
    make_node = part.Node
    node_objects: list[Any] = list(existing_nodes)
    node_objects.extend([make_node(coordinates=p) for p in plan.points[plan.existing_count:]])
    by_owner: dict[str, list[Any]] = {}
    for owner, (first, end) in plan.owners.items():
        if first < end:
            by_owner[owner] = _make_elements(part, plan.shapes[first], plan.cells[first:end],
                                             node_objects)
        else:
            by_owner[owner] = []
    for name, owner_ids in element_sets:
        members = [e for owner in owner_ids for e in by_owner[owner]]
        part.Set(name=name, elements=members)
    return by_owner


def _make_elements(part: Any, shape: str, cells: Sequence[tuple[int, ...]],
                   nodes: list[Any]) -> list[Any]:
    """Elements of one owner (a patch, a line or one element: a single shape each).

    One comprehension per node count: this loop is the whole cost of a big build.
    """
    make = part.Element
    constant = SHAPE_CONSTANTS[shape]
    if shape == "QUAD":
        return [make(nodes=(nodes[a], nodes[b], nodes[c], nodes[d]), elemShape=constant)
                for a, b, c, d in cells]
    if shape == "TRI":
        return [make(nodes=(nodes[a], nodes[b], nodes[c]), elemShape=constant)
                for a, b, c in cells]
    return [make(nodes=(nodes[a], nodes[b]), elemShape=constant) for a, b in cells]


def clear_all(part: Any) -> None:
    """Delete every element, node and set of the part (an explicit full replacement)."""
    if len(part.elements):
        part.deleteElement(elements=list(part.elements), deleteUnreferencedNodes=OFF)
    if len(part.nodes):
        part.deleteNode(nodes=list(part.nodes))
    for name in list(part.sets.keys()):
        del part.sets[name]


def delete_elements(part: Any, selector: Mapping[str, Any]) -> int:
    doomed = select_elements(part, selector)
    if doomed:
        part.deleteElement(elements=doomed, deleteUnreferencedNodes=OFF)
    return len(doomed)


def delete_nodes(part: Any, selector: Mapping[str, Any]) -> int:
    doomed = select_nodes(part, selector)
    if doomed:
        part.deleteNode(nodes=doomed)
    return len(doomed)


def move_nodes(part: Any, moves: Sequence[tuple[int, Sequence[float]]]) -> None:
    if not moves:
        return
    nodes = [part.nodes.getFromLabel(label) for label, _ in moves]
    part.editNode(nodes=nodes, coordinates=[tuple(c) for _, c in moves])


def make_sets(part: Any, sets: Sequence[tuple[str, Sequence[str], Mapping[str, Any] | None]],
              by_owner: Mapping[str, list[Any]]) -> None:
    """Edit sets: elements added in this call (by local id) plus a selection of existing ones."""
    for name, owner_ids, selector in sets:
        members = {e.label: e for owner in owner_ids for e in by_owner[owner]}
        if selector is not None:
            for element in select_elements(part, selector):
                members.setdefault(element.label, element)
        part.Set(name=name, elements=[members[k] for k in sorted(members)])
