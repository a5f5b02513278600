"""repair_part: merge coincident nodes, delete duplicate elements, delete free nodes."""

from __future__ import annotations

from math import ceil

from sam_plugin.compilers import codegen
from sam_plugin.compilers.evidence import SHAPES, Range
from sam_plugin.compilers.part.ir import RepairPartIR
from sam_plugin.compilers.part.predict import changed, part_expected, state_is_live
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
    return found


def _live_prediction(ir: RepairPartIR, ctx: CompileContext):
    part = ctx.part
    nodes, elements = len(part.nodes), len(part.elements)
    merge = ir.merge_coincident_nodes
    merging: set[int] = set()
    if merge is not None:
        tol = merge.tolerance if merge.tolerance is not None else part_tolerance(part)
        for group in part_inspect.coincident_groups(part, tol):
            merging.update(group)
    free = set(part_inspect.free_node_labels(part)) if ir.delete_free_nodes else set()
    duplicates = part_inspect.duplicate_groups(part) if ir.delete_duplicate_elements else []
    extra = sum(len(g) - 1 for g in duplicates)
    touched = 0
    if merging:
        touched = sum(1 for e in part.elements if merging.intersection(e.connectivity))
    c = len(merging)
    node_low = nodes - max(c - 1, 0) - len(free)
    node_high = nodes - ceil(c / 2) - len(free - merging)
    element_low = elements - extra - touched
    element_high = elements - extra
    node_range = Range(min=max(0, node_low), max=max(0, node_high))
    element_range = Range(min=max(0, element_low), max=max(0, element_high))
    shapes = {}
    for shape in SHAPES:
        now = ctx.state.shape_counts[shape].max
        shapes[shape] = Range(min=max(0, now - extra - touched) if (extra or touched) else now,
                              max=now)
    return node_range, element_range, shapes


def compile_repair(ir: RepairPartIR, ctx: CompileContext) -> Fragment:
    state = ctx.state
    if state_is_live(ctx):
        nodes, elements, shapes = _live_prediction(ir, ctx)
    else:
        nodes = Range(min=0, max=state.node_count.max)
        elements = Range(min=0, max=state.element_count.max)
        shapes = {s: Range(min=0, max=state.shape_counts[s].max) for s in SHAPES}
    merge = ir.merge_coincident_nodes
    mutation = codegen.call("_part_repair.repair", [codegen.PART], {
        "merge": merge is not None,
        "tolerance": merge.tolerance if merge is not None else None,
        "delete_duplicates": ir.delete_duplicate_elements,
        "delete_free": ir.delete_free_nodes,
    })
    preflight = "_part_ops.require_part(_model, _part_name)\n" if ctx.part is not None else ""
    return Fragment(
        tool=TOOL,
        preflight=preflight,
        mutation=mutation,
        normalized=ir.model_dump(mode="json"),
        evidence=changed(state, node_count=nodes, element_count=elements, shape_counts=shapes,
                         assigned_elements=None, oriented_beams=None),
        helpers=["part_repair", "part_ops"] if preflight else ["part_repair"],
    )
