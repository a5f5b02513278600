"""build_part: a whole mesh on an empty or missing part, as one ``add_mesh`` helper call."""

from __future__ import annotations

from sam_plugin.compilers import codegen
from sam_plugin.compilers.evidence import Prediction, Range
from sam_plugin.compilers.part.authorization import (
    SETS_UNASKED,
    asks_for_duplicates,
    asks_for_sets,
)
from sam_plugin.compilers.part.duplicates import duplicate_elements
from sam_plugin.compilers.part.ir import BuildPartIR
from sam_plugin.compilers.part.mesh_checks import (
    MeshFields,
    MeshInput,
    check_ids,
    check_patches_and_lines,
    mesh_counts,
)
from sam_plugin.compilers.part.predict import exact_shapes
from sam_plugin.compilers.protocol import CompileContext, Diagnostic, Fragment
from sam_plugin.errors import CompileError
from sam_plugin.samops.geometry import size_tolerance

TOOL = "build_part"


def _mesh(ir: BuildPartIR) -> MeshInput:
    return MeshInput(ir.nodes, ir.elements, ir.patches, ir.lines, MeshFields())


def domain_checks(ir: BuildPartIR, ctx: CompileContext) -> list[Diagnostic]:
    found: list[Diagnostic] = []
    part = ctx.part
    if part is not None and (len(part.nodes) or len(part.elements)):
        found.append(Diagnostic(path="", message=(
            f"build_part needs an empty or missing part, but part {ctx.target.part_name!r} "
            f"has {len(part.nodes)} nodes and {len(part.elements)} elements; use edit_part")))
    mesh = _mesh(ir)
    if mesh.is_empty():
        found.append(Diagnostic(path="", message=(
            "build_part needs at least one element, patch or line; give patches for plates "
            "and lines for beams")))
    found.extend(check_ids(mesh))
    owners = set(mesh.owner_ids())
    for i, element_set in enumerate(ir.element_sets):
        for k, owner in enumerate(element_set.element_ids):
            if owner not in owners:
                found.append(Diagnostic(path=f"element_sets[{i}].element_ids[{k}]", message=(
                    f"unknown element id {owner!r}; declared element, patch and line ids: "
                    f"{', '.join(mesh.owner_ids()) or 'none'}")))
    names = [s.name for s in ir.element_sets]
    for i, name in enumerate(names):
        if names.index(name) != i:
            found.append(Diagnostic(path=f"element_sets[{i}].name",
                                    message=f"duplicate set name {name!r}"))
    return found


def compile_build(ir: BuildPartIR, ctx: CompileContext) -> Fragment:
    notes: list[str] = []
    sets = ir.element_sets
    if sets and not asks_for_sets(ctx.request_text):
        notes.append(
            f"element_sets dropped ({', '.join(s.name for s in sets)}): {SETS_UNASKED}")
        sets = ()
    mesh = _mesh(ir)
    tolerance = size_tolerance(mesh.coordinates())
    problems = check_patches_and_lines(mesh, tolerance)
    if problems:
        raise CompileError(TOOL, problems)
    counts, problems, plan = mesh_counts(mesh, tolerance)
    if plan is not None and not problems and not asks_for_duplicates(ctx.request_text):
        problems = duplicate_elements(mesh, plan)
    if problems:
        raise CompileError(TOOL, problems)
    specs = mesh.specs()
    set_specs = tuple((s.name, s.element_ids) for s in sets)
    mutation = "_part = _part_ops.ensure_part(_model, _part_name)\n" + codegen.call(
        "_part_ops.add_mesh", ["_part"],
        {"nodes": specs["nodes"], "elements": specs["elements"], "patches": specs["patches"],
         "lines": specs["lines"], "element_sets": set_specs, "tolerance": tolerance},
    )
    normalized = ir.model_dump(mode="json")
    normalized["element_sets"] = [s.model_dump(mode="json") for s in sets]
    evidence = Prediction(
        node_count=Range.exact(counts.points),
        element_count=Range.exact(counts.cells),
        shape_counts=exact_shapes(counts.shapes),
        sets_present=sorted(s.name for s in sets),
        geometry_unchanged=False,
        materials_present=list(ctx.state.materials_present),
        sections_present=list(ctx.state.sections_present),
        assigned_elements=Range.exact(0),
        oriented_beams=Range.exact(0),
        files=list(ctx.state.files),
    )
    return Fragment(
        tool=TOOL,
        preflight="_part_ops.require_empty_or_missing(_model, _part_name)\n",
        mutation=mutation,
        normalized=normalized,
        evidence=evidence,
        helpers=["part_ops"],
        notes=notes,
    )
