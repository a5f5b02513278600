"""refine_mesh: plan the refinement on the live part (read-only) and predict exact counts.

The prediction runs the very planner the script runs (``samops.mesh_ops``), and the hanging
nodes are counted by the audit's own detector on the planned mesh, so the numbers the
analyst is promised are the numbers ``mesh_audit.json`` will report.
"""

from __future__ import annotations

from typing import Any

from sam_plugin.compilers.codegen import PART, plain_literal, variable
from sam_plugin.compilers.evidence import Prediction, Range
from sam_plugin.compilers.mesh.ir import RefineMesh
from sam_plugin.compilers.mesh.phrases import CATALOGUE as _WORDS  # noqa: F401 (registers)
from sam_plugin.compilers.protocol import CompileContext, Diagnostic, Fragment
from sam_plugin.compilers.selectors import check_selector, selector_literal
from sam_plugin.samops import mesh_audit, mesh_ops, selection
from sam_plugin.words.phrase import Phrase, phrase, render

TOOL = "refine_mesh"
_SHOWN = 20
# Beyond this many elements after refinement, SAM (and the stub) would take minutes and
# gigabytes; refining a 200,000-element part once stays below it.
MAX_ELEMENTS_AFTER = 2_000_000


def _missing_part(ctx: CompileContext) -> Diagnostic:
    return Diagnostic(path="", message=(
        f"part {ctx.target.part_name!r} does not exist in model {ctx.target.model_name!r}; "
        "build it in Part mode first"))


def selected_labels(ir: RefineMesh, part: Any) -> list[int]:
    return [e.label for e in selection.select_elements(part, selector_literal(ir.selection))]


def domain_checks(ir: RefineMesh, ctx: CompileContext) -> list[Diagnostic]:
    if ctx.part is None:
        return [_missing_part(ctx)]
    problems = check_selector(ir.selection, ctx.part, "selection", "elements", ctx.state)
    if problems:
        return problems
    labels = selected_labels(ir, ctx.part)
    if not labels:
        return [Diagnostic(path="selection", message=(
            f"the selection picks no elements; the part has {len(ctx.part.elements)} "
            "elements"), needs=("picking_scope",))]
    after = _elements_after(ctx.part, labels, ir.levels)
    if after > MAX_ELEMENTS_AFTER:
        return [Diagnostic(path="levels", message=(
            f"refining {len(labels)} element(s) {ir.levels} level(s) would leave {after} "
            f"elements; the limit is {MAX_ELEMENTS_AFTER}: refine fewer elements or fewer "
            "levels"))]
    return []


def _elements_after(part: Any, labels: list[int], levels: int) -> int:
    chosen = set(labels)
    beams = sum(1 for e in part.elements if e.label in chosen and str(e.type) == "BEAM")
    shells = len(chosen) - beams
    return int(len(part.elements) - len(chosen) + shells * 4**levels + beams * 2**levels)


def _region_count(entries: Any, plan: mesh_ops.RefinePlan, beams_only: bool,
                  mesh: mesh_ops.MeshData) -> int:
    """How many elements the entries cover after the plan (children replace parents)."""
    covered: set[int] = set()
    for entry in entries:
        covered.update(e.label for e in entry.region.elements)
    if beams_only:
        covered = {lab for lab in covered if mesh.elements[lab][0] == "BEAM"}
    count = len(covered)
    for parent in plan.parents:
        if parent in covered:
            count += len(plan.children[parent]) - 1
    return count


def predict(state: Prediction, part: Any, mesh: mesh_ops.MeshData,
            plan: mesh_ops.RefinePlan, hanging: list[int]) -> Prediction:
    shapes = plan.shape_deltas(mesh)
    return state.model_copy(update={
        "node_count": state.node_count.plus(plan.node_delta()),
        "element_count": state.element_count.plus(plan.element_delta()),
        "shape_counts": {s: r.plus(shapes.get(s, 0)) for s, r in state.shape_counts.items()},
        "geometry_unchanged": False,
        "assigned_elements": Range.exact(
            _region_count(part.sectionAssignments, plan, False, mesh)),
        "oriented_beams": Range.exact(_region_count(part.beamOrientations, plan, True, mesh)),
        "hanging_nodes": Range.exact(len(hanging)),
    })


def _notes(mesh: mesh_ops.MeshData, plan: mesh_ops.RefinePlan,
           after: list[int]) -> dict[str, Phrase]:
    """The refinement's notes, each its record and its phrase (the record is the note)."""
    before = mesh_audit.hanging_nodes(mesh)
    new = [n for n in after if n < 0]
    said = [
        phrase("mesh.refines", parents=len(plan.parents), levels=plan.levels,
               nodes=plan.node_delta(), children=plan.child_count),
        phrase("mesh.hanging", n=len(after), new=len(new), before=len(before)),
    ]
    notes = {render(p): p for p in said}
    if plan.reused_nodes:
        reused = sorted(plan.reused_nodes)
        shown = ", ".join(str(n) for n in reused[:_SHOWN])
        text = f"reuses {len(reused)} existing node(s) at edge midpoints: {shown}"
        notes[text] = phrase("plan.note", text=text)
    return notes


def compile_refine(ir: RefineMesh, ctx: CompileContext) -> Fragment:
    part = ctx.part
    mesh = mesh_ops.read_mesh_data(part)
    plan = mesh_ops.plan_refinement(mesh, selected_labels(ir, part), ir.levels)
    hanging = mesh_audit.hanging_nodes(plan.final_mesh(mesh))
    normalized = ir.model_dump(mode="json")
    var = variable(TOOL, normalized)  # unique per call, identical for identical calls
    preflight = (
        f"{var} = _mesh_ops.prepare_refinement(\n"
        f"    {PART}, {plain_literal(selector_literal(ir.selection))}, "
        f"{plain_literal(ir.levels)},\n"
        f"    node_delta={plain_literal(plan.node_delta())}, "
        f"element_delta={plain_literal(plan.element_delta())},\n"
        ")\n"
    )
    return Fragment(
        tool=TOOL,
        preflight=preflight,
        mutation=f"{var}_report = _mesh_ops.apply_prepared({PART}, {var})\n"
        f'print("refine_mesh:", {var}_report)\n',
        postflight=f"_mesh_ops.verify_refinement({PART}, {var}, hanging_nodes={len(hanging)})\n",
        normalized=normalized,
        evidence=predict(ctx.state, part, mesh, plan, hanging),
        helpers=["mesh_ops"],
        notes=list(notes := _notes(mesh, plan, hanging)),
        note_phrases=notes,
    )
