"""edit_part: clear_all → delete elements → delete nodes → move → coordinate table → add → sets."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sam_plugin.compilers import codegen
from sam_plugin.compilers.evidence import SHAPES, Prediction, Range
from sam_plugin.compilers.part.authorization import (
    SETS_UNASKED,
    asks_for_duplicates,
    asks_for_sets,
    asks_to_clear_all,
)
from sam_plugin.compilers.part.duplicates import duplicate_elements, existing_lookup
from sam_plugin.compilers.part.ir import EditPartIR, EditSetIR
from sam_plugin.compilers.part.mesh_checks import (
    MeshFields,
    MeshInput,
    check_ids,
    check_patches_and_lines,
    plan_checked,
)
from sam_plugin.compilers.part.predict import changed, merged_sets
from sam_plugin.compilers.part.simulate import tightened
from sam_plugin.compilers.protocol import CompileContext, Diagnostic, Fragment
from sam_plugin.compilers.selectors import (
    LabelsSelector,
    SetSelector,
    ShapeSelector,
    check_selector,
    selector_literal,
)
from sam_plugin.errors import CompileError, SelectionError
from sam_plugin.samops import selection
from sam_plugin.samops.geometry import PointIndex, size_tolerance
from sam_plugin.samops.mesh_plan import MeshPlan, plan_mesh

TOOL = "edit_part"
FIELDS = MeshFields(nodes="nodes", elements="add_elements", patches="add_patches",
                    lines="add_lines")


# free nodes one call may add (an add_nodes step states their points; binding holds them)
MAX_FREE_NODES = 64


def _mesh(ir: EditPartIR) -> MeshInput:
    return MeshInput(ir.nodes, ir.add_elements, ir.add_patches, ir.add_lines, FIELDS,
                     free_nodes_allowed=MAX_FREE_NODES)


def _asks_nothing(ir: EditPartIR) -> bool:
    return not (ir.clear_all or ir.nodes or ir.add_elements or ir.add_patches or ir.add_lines
                or ir.delete_elements or ir.delete_nodes or ir.move_nodes or ir.element_sets)


def domain_checks(ir: EditPartIR, ctx: CompileContext) -> list[Diagnostic]:
    part = ctx.part
    if part is None:
        return [Diagnostic(path="", message=(
            f"edit_part needs an existing part; part {ctx.target.part_name!r} does not exist "
            "(use build_part)"))]
    if _asks_nothing(ir):
        return [Diagnostic(path="", message="edit_part asks for nothing; give at least one "
                           "of clear_all, delete_elements, delete_nodes, move_nodes, nodes, "
                           "add_elements, add_patches, add_lines, element_sets")]
    found: list[Diagnostic] = []
    found.extend(_check_clear_all(ir, ctx))
    mesh = _mesh(ir)
    found.extend(check_ids(mesh))
    if ir.delete_elements is not None:
        found.extend(check_selector(ir.delete_elements, part, "delete_elements", "elements",
                                    ctx.state))
    if ir.delete_nodes is not None:
        found.extend(check_selector(ir.delete_nodes, part, "delete_nodes", "nodes", ctx.state))
    found.extend(_check_moves(ir, part))
    found.extend(_check_sets(ir, part, mesh.owner_ids()))
    found.extend(_check_set_selections(ir, part))
    return found


def _doomed_elements(ir: EditPartIR, part: Any) -> set[int]:
    """Element labels this call may delete (a superset: node picks are taken on the live part)."""
    doomed: set[int] = set()
    try:
        if ir.delete_elements is not None:
            doomed |= {e.label for e in selection.select_elements(
                part, selector_literal(ir.delete_elements))}
        if ir.delete_nodes is not None:
            nodes = {n.label for n in selection.select_nodes(
                part, selector_literal(ir.delete_nodes))}
            doomed |= {e.label for e in part.elements if nodes.intersection(e.connectivity)}
    except SelectionError:
        pass  # reported by the selector checks
    return doomed


def _check_set_selections(ir: EditPartIR, part: Any) -> list[Diagnostic]:
    found = []
    doomed = None
    for i, item in enumerate(ir.element_sets):
        chosen = item.selection
        here = f"element_sets[{i}].selection"
        if ir.clear_all and isinstance(chosen, LabelsSelector | SetSelector):
            found.append(Diagnostic(path=here, message=(
                "clear_all deletes every existing element and set first; pick the new "
                "elements with element_ids, or by shape, box or all")))
        elif isinstance(chosen, LabelsSelector):
            doomed = _doomed_elements(ir, part) if doomed is None else doomed
            gone = [label for label in chosen.labels if label in doomed]
            if gone:
                found.append(Diagnostic(path=f"{here}.labels", message=(
                    f"element(s) {', '.join(map(str, gone[:10]))} are deleted earlier in "
                    "this call; a set cannot hold them")))
    return found


def _check_clear_all(ir: EditPartIR, ctx: CompileContext) -> list[Diagnostic]:
    if not ir.clear_all:
        return []
    found = []
    if not asks_to_clear_all(ctx.request_text):
        found.append(Diagnostic(path="clear_all", message=(
            "clear_all deletes every node, element and set, but the request does not "
            "explicitly ask to delete or replace everything; remove clear_all")))
    for field in ("delete_elements", "delete_nodes", "move_nodes"):
        if getattr(ir, field):
            found.append(Diagnostic(path=field, message=(
                "clear_all already deletes everything; remove it")))
    return found


def _check_moves(ir: EditPartIR, part: Any) -> list[Diagnostic]:
    if not ir.move_nodes:
        return []
    existing = _existing(part, [move.label for move in ir.move_nodes])
    doomed: set[int] = set()
    if ir.delete_nodes is not None:
        try:
            doomed = {n.label for n in selection.select_nodes(
                part, selector_literal(ir.delete_nodes))}
        except SelectionError:
            doomed = set()
    found, seen = [], set()
    for i, move in enumerate(ir.move_nodes):
        here = f"move_nodes[{i}].label"
        if move.label not in existing:
            found.append(Diagnostic(path=here, message=(
                f"unknown node label {move.label}; "
                f"{selection.label_range(existing, 'node')}")))
        elif move.label in doomed:
            found.append(Diagnostic(path=here, message=(
                f"node {move.label} is deleted by delete_nodes first; it cannot be moved")))
        if move.label in seen:
            found.append(Diagnostic(path=here, message=f"node {move.label} is moved twice"))
        seen.add(move.label)
    return found


def _existing(part: Any, labels: list[int]) -> Any:
    """Which of ``labels`` are nodes of the part: asked of the host label by label (a move
    names a few nodes), the whole label set only when one is missing (the diagnostic names
    the legal range)."""
    get = part.nodes.getFromLabel
    try:
        for label in labels:
            get(label)
    except Exception:  # a missing label: the host says so its own way
        return {n.label for n in part.nodes}
    return set(labels)


def _check_sets(ir: EditPartIR, part: Any, owner_ids: Sequence[str]) -> list[Diagnostic]:
    found = []
    taken = set() if ir.clear_all else set(part.sets.keys())
    names: list[str] = []
    for i, item in enumerate(ir.element_sets):
        here = f"element_sets[{i}]"
        if item.name in taken:
            found.append(Diagnostic(path=f"{here}.name", message=(
                f"set {item.name!r} already exists; {selection.describe_sets(part)}; "
                "choose a new name")))
        if item.name in names:
            found.append(Diagnostic(path=f"{here}.name",
                                    message=f"duplicate set name {item.name!r}"))
        names.append(item.name)
        if not item.element_ids and item.selection is None:
            found.append(Diagnostic(path=here, message=(
                "a set needs element_ids (elements added in this call) or a selection")))
        for k, owner in enumerate(item.element_ids):
            if owner not in owner_ids:
                found.append(Diagnostic(path=f"{here}.element_ids[{k}]", message=(
                    f"unknown element id {owner!r}; ids added in this call: "
                    f"{', '.join(owner_ids) or 'none'}")))
        if item.selection is not None:
            found.extend(check_selector(item.selection, part, f"{here}.selection",
                                        "elements"))
    return found


def _authorized_sets(ir: EditPartIR, ctx: CompileContext,
                     notes: list[str]) -> tuple[EditSetIR, ...]:
    if ir.element_sets and not asks_for_sets(ctx.request_text):
        notes.append(
            f"element_sets dropped ({', '.join(s.name for s in ir.element_sets)}): "
            f"{SETS_UNASKED}")
        return ()
    return ir.element_sets


def _deletions(ir: EditPartIR, part: Any) -> tuple[Range, dict[str, Range], Range]:
    """(elements removed, per shape, nodes removed), evaluated on the live part."""
    removed_elements: set[int] = set()
    shapes: dict[str, int] = {shape: 0 for shape in SHAPES}
    if ir.delete_elements is not None:
        for e in selection.select_elements(part, selector_literal(ir.delete_elements)):
            removed_elements.add(e.label)
            shapes[str(e.type)] += 1
    if ir.delete_nodes is None:
        return (Range.exact(len(removed_elements)),
                {s: Range.exact(shapes[s]) for s in SHAPES}, Range.exact(0))
    selector = ir.delete_nodes
    doomed = {n.label for n in selection.select_nodes(part, selector_literal(selector))}
    # Node picks through elements (shape, element-only sets) see the part after the element
    # deletions; picks by label, box or all do not depend on them.
    depends = isinstance(selector, ShapeSelector) or (
        isinstance(selector, SetSelector) and not part.sets[selector.name].nodes)
    dependents = shapes.copy()  # explicit deletions plus the elements using a doomed node
    dependent_count = 0
    by_label = {e.label: e for e in part.elements}  # read only when nodes are deleted
    for label, element in by_label.items():
        if label not in removed_elements and doomed.intersection(element.connectivity):
            dependents[str(element.type)] += 1
            dependent_count += 1
    if not depends:
        return (Range.exact(len(removed_elements) + dependent_count),
                {s: Range.exact(dependents[s]) for s in SHAPES}, Range.exact(len(doomed)))
    # Picked on the live part, the doomed nodes (and so their elements) are a superset.
    return (Range(min=len(removed_elements), max=len(removed_elements) + dependent_count),
            {s: Range(min=shapes[s], max=dependents[s]) for s in SHAPES},
            Range(min=0, max=len(doomed)))


def _reusable(points: Sequence[Any], part: Any, ir: EditPartIR, tolerance: float) -> int:
    """New points that may resolve to an existing node (live now, or a move target)."""
    if ir.clear_all or not points:
        return 0
    index = PointIndex(tolerance)
    for node in part.nodes:
        index.add(node.coordinates)
    for move in ir.move_nodes:
        index.add(move.coordinates)
    return sum(1 for p in points if index.find(p) is not None)


def predict(ir: EditPartIR, ctx: CompileContext, plan: MeshPlan, tolerance: float,
            set_names: Sequence[str]) -> Prediction:
    part = ctx.part
    state = ctx.state
    new_points = plan.points
    reusable = _reusable(new_points, part, ir, tolerance)
    added = plan.shape_counts()
    if ir.clear_all:
        nodes = Range(min=len(new_points), max=len(new_points))
        elements = Range.exact(len(plan.cells))
        shapes = {s: Range.exact(added[s]) for s in SHAPES}
        sets = sorted(set_names)
    else:
        removed, removed_shapes, removed_nodes = _deletions(ir, part)
        base_nodes = state.node_count
        nodes = Range(min=max(0, base_nodes.min - removed_nodes.max + len(new_points)
                              - reusable),
                      max=max(0, base_nodes.max - removed_nodes.min + len(new_points)))
        elements = Range(min=max(0, state.element_count.min - removed.max + len(plan.cells)),
                         max=max(0, state.element_count.max - removed.min + len(plan.cells)))
        shapes = {s: Range(min=max(0, state.shape_counts[s].min - removed_shapes[s].max
                                   + added[s]),
                           max=max(0, state.shape_counts[s].max - removed_shapes[s].min
                                   + added[s]))
                  for s in SHAPES}
        sets = merged_sets(state.sets_present, set_names)
    return changed(state, node_count=nodes, element_count=elements, shape_counts=shapes,
                   sets_present=sets, assigned_elements=None, oriented_beams=None)


def _duplicates(ir: EditPartIR, part: Any, mesh: MeshInput, plan: MeshPlan,
                tolerance: float) -> list[Diagnostic]:
    """New elements on the node set of another new one, or of an element that survives the
    call's deletions, planned over the surviving nodes as the script's ``add_mesh`` does."""
    if ir.clear_all:
        return duplicate_elements(mesh, plan)
    doomed_nodes: set[int] = set()
    if ir.delete_nodes is not None:
        doomed_nodes = {n.label for n in selection.select_nodes(
            part, selector_literal(ir.delete_nodes))}
    moved = {m.label: m.coordinates for m in ir.move_nodes}
    survivors = [n for n in part.nodes if n.label not in doomed_nodes]
    labels = [n.label for n in survivors]
    points = [moved.get(n.label, tuple(n.coordinates)) for n in survivors]
    specs = mesh.specs()
    over_part = plan_mesh(specs["nodes"], specs["elements"], specs["patches"], specs["lines"],
                          tolerance, points)

    def surviving() -> dict[int, tuple[int, ...]]:
        doomed = _doomed_elements(ir, part)
        return {e.label: tuple(e.connectivity) for e in part.elements if e.label not in doomed}

    return duplicate_elements(mesh, over_part, labels, existing_lookup(surviving))


def _preflight(ir: EditPartIR, sets: Sequence[EditSetIR]) -> str:
    lines = ["_part_ops.require_part(_model, _part_name)\n"]
    part = codegen.PART
    for field in ("delete_elements", "delete_nodes"):
        selector = getattr(ir, field)
        if isinstance(selector, LabelsSelector | SetSelector):
            kind = "elements" if field == "delete_elements" else "nodes"
            lines.append(codegen.call("_part_ops.require_selection", [part],
                                      literal_args=[selector_literal(selector), field, kind]))
    if ir.move_nodes:
        lines.append(codegen.call("_part_ops.require_node_labels", [part], literal_args=[
            tuple(m.label for m in ir.move_nodes), "move_nodes"]))
    if sets and not ir.clear_all:
        lines.append(codegen.call("_part_ops.require_new_set_names", [part], literal_args=[
            tuple(s.name for s in sets), "element_sets"]))
        for i, item in enumerate(sets):
            if isinstance(item.selection, SetSelector):
                lines.append(codegen.call("_part_ops.require_selection", [part], literal_args=[
                    selector_literal(item.selection), f"element_sets[{i}].selection",
                    "elements"]))
    return "".join(lines)


def _mutation(ir: EditPartIR, mesh: MeshInput, sets: Sequence[EditSetIR],
              tolerance: float) -> str:
    lines = [f"_part = {codegen.PART}\n"]
    if ir.clear_all:
        lines.append("_part_ops.clear_all(_part)\n")
    if ir.delete_elements is not None:
        lines.append(codegen.call("_part_ops.delete_elements", ["_part"],
                                  literal_args=[selector_literal(ir.delete_elements)]))
    if ir.delete_nodes is not None:
        lines.append(codegen.call("_part_ops.delete_nodes", ["_part"],
                                  literal_args=[selector_literal(ir.delete_nodes)]))
    if ir.move_nodes:
        lines.append(codegen.call("_part_ops.move_nodes", ["_part"], literal_args=[
            tuple((m.label, m.coordinates) for m in ir.move_nodes)]))
    specs = mesh.specs()
    if any(specs.values()):
        lines.append("_added = " + codegen.call(
            "_part_ops.add_mesh", ["_part"],
            {"nodes": specs["nodes"], "elements": specs["elements"],
             "patches": specs["patches"], "lines": specs["lines"], "tolerance": tolerance,
             "reuse_existing": True}))
    else:
        lines.append("_added = {}\n")
    if sets:
        set_specs = tuple(
            (s.name, s.element_ids,
             selector_literal(s.selection) if s.selection is not None else None)
            for s in sets)
        lines.append(codegen.call("_part_ops.make_sets", ["_part"], literal_args=[set_specs],
                                  tail_args=["_added"]))
    return "".join(lines)


def compile_edit(ir: EditPartIR, ctx: CompileContext) -> Fragment:
    notes: list[str] = []
    sets = _authorized_sets(ir, ctx, notes)
    mesh = _mesh(ir)
    new_points = mesh.coordinates()
    live_points = [] if ir.clear_all or not new_points else [
        tuple(n.coordinates) for n in ctx.part.nodes]
    tolerance = size_tolerance([*live_points, *new_points])
    problems = check_patches_and_lines(mesh, tolerance)
    if problems:
        raise CompileError(TOOL, problems)
    plan, problems = plan_checked(mesh, tolerance)
    if not problems and plan.cells and not asks_for_duplicates(ctx.request_text):
        problems = _duplicates(ir, ctx.part, mesh, plan, tolerance)
    if problems:
        raise CompileError(TOOL, problems)
    normalized = ir.model_dump(mode="json")
    normalized["element_sets"] = [s.model_dump(mode="json") for s in sets]
    return tightened(Fragment(
        tool=TOOL,
        preflight=_preflight(ir, sets),
        mutation=_mutation(ir, mesh, sets, tolerance),
        normalized=normalized,
        evidence=predict(ir, ctx, plan, tolerance, [s.name for s in sets]),
        helpers=["part_ops"],
        notes=notes,
    ), ctx)
