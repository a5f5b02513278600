"""repair_part: merge coincident nodes, delete duplicate elements, delete free nodes."""

from __future__ import annotations

from typing import Any

from sam_plugin.compilers import codegen
from sam_plugin.compilers.evidence import SHAPES, Prediction, Range, ShapeName
from sam_plugin.compilers.part import scale_checks
from sam_plugin.compilers.part.ir import RepairPartIR
from sam_plugin.compilers.part.predict import changed, part_expected, state_is_live
from sam_plugin.compilers.part.simulate import tightened
from sam_plugin.compilers.protocol import CompileContext, Diagnostic, Fragment
from sam_plugin.samops import part_inspect
from sam_plugin.samops.selection import part_tolerance

TOOL = "repair_part"


def domain_checks(ir: RepairPartIR, ctx: CompileContext) -> list[Diagnostic]:
    found = []
    if not (ir.merge_coincident_nodes or ir.delete_duplicate_elements or ir.delete_free_nodes):
        found.append(Diagnostic(path="", message=(
            "repair_part asks for nothing; give merge_coincident_nodes, "
            "delete_duplicate_elements: true or delete_free_nodes: true")))
    if not part_expected(ctx):
        found.append(Diagnostic(path="", message=(
            f"part {ctx.target.part_name!r} does not exist; there is nothing to repair")))
    elif ir.merge_coincident_nodes is not None:
        found.extend(scale_checks.check_merge_tolerance(
            ir.merge_coincident_nodes.tolerance, scale_checks.part_met(ctx),
            "merge_coincident_nodes.tolerance"))
    return found


def range_prediction(
    ir: RepairPartIR, part: Any
) -> tuple[Range, Range, dict[ShapeName, Range]]:
    """Bounds for the repair of ``part`` (the live part, or a shadow of it before this call).

    Honest whatever the host does with chained coincident nodes or collapsing elements: at
    most all coincident nodes but one go (and, with free-node deletion, every node an affected
    element used), at least one node per coincident group and the free nodes outside the
    groups; elements lose the duplicates found now and at most every element touching a
    merged node.
    """
    nodes = len(part.nodes)
    merge = ir.merge_coincident_nodes
    merging: set[int] = set()
    groups = 0
    if merge is not None:
        tol = merge.tolerance if merge.tolerance is not None else part_tolerance(part)
        for group in part_inspect.coincident_groups(part, tol):
            merging.update(group)
            groups += 1
    free = set(part_inspect.free_node_labels(part)) if ir.delete_free_nodes else set()
    shapes: dict[str, int] = {shape: 0 for shape in SHAPES}
    for element in part.elements:
        shapes[str(element.type)] += 1
    by_label = {e.label: e for e in part.elements} if merging or ir.delete_duplicate_elements \
        else {}
    extra: dict[str, int] = {shape: 0 for shape in SHAPES}
    if ir.delete_duplicate_elements:
        for group in part_inspect.duplicate_groups(part):
            extra[str(by_label[group[0]].type)] += len(group) - 1
    touched: dict[str, int] = {shape: 0 for shape in SHAPES}
    orphaned: set[int] = set()
    if merging:
        for element in by_label.values():
            if merging.intersection(element.connectivity):
                touched[str(element.type)] += 1
                orphaned.update(element.connectivity)
    may_free = free | orphaned if ir.delete_free_nodes else set()
    node_low = nodes - max(len(merging) - 1, 0) - len(may_free)
    # a group is a kept node and nodes within reach of it: whatever the host's grouping, at
    # most all but one of its nodes survive (survivors are never within reach of each other)
    node_high = nodes - groups - len(free - merging)
    elements_now = sum(shapes.values())
    all_extra, all_touched = sum(extra.values()), sum(touched.values())
    return (Range(min=max(0, node_low), max=max(0, node_high)),
            Range(min=max(0, elements_now - all_extra - all_touched),
                  max=max(0, elements_now - all_extra)),
            {s: Range(min=max(0, shapes[s] - extra[s] - touched[s]),
                      max=max(0, shapes[s] - extra[s])) for s in SHAPES})


def _evidence(state: Prediction,
              counts: tuple[Range, Range, dict[ShapeName, Range]]) -> Prediction:
    nodes, elements, shapes = counts
    return changed(state, node_count=nodes, element_count=elements, shape_counts=shapes,
                   assigned_elements=None, oriented_beams=None)


def compile_repair(ir: RepairPartIR, ctx: CompileContext) -> Fragment:
    state = ctx.state
    chained = (Range(min=0, max=state.node_count.max), Range(min=0, max=state.element_count.max),
               {s: Range(min=0, max=state.shape_counts[s].max) for s in SHAPES})
    merge = ir.merge_coincident_nodes
    mutation = codegen.call("_part_repair.repair", [codegen.PART], {
        "merge": merge is not None,
        "tolerance": merge.tolerance if merge is not None else None,
        "delete_duplicates": ir.delete_duplicate_elements,
        "delete_free": ir.delete_free_nodes,
    })
    preflight = "_part_ops.require_part(_model, _part_name)\n" if ctx.part is not None else ""
    fragment = Fragment(
        tool=TOOL,
        preflight=preflight,
        mutation=mutation,
        normalized=ir.model_dump(mode="json"),
        evidence=_evidence(state, chained),
        helpers=["part_repair", "part_ops"] if preflight else ["part_repair"],
    )
    # Without a simulation: bounds from the live part when nothing ran before, else chained.
    fallback = None
    if state_is_live(ctx):
        def fallback() -> Prediction:
            return _evidence(state, range_prediction(ir, ctx.part))
    return tightened(fragment, ctx, on_doubt=lambda before: _evidence(
        state, range_prediction(ir, before)), fallback=fallback)
