"""assign_property: sections on elements and beam orientations, checked on the live part."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sam_plugin.compilers.evidence import Range
from sam_plugin.compilers.property import script
from sam_plugin.compilers.property.ir import AssignProperty
from sam_plugin.compilers.protocol import CompileContext, Diagnostic, Fragment
from sam_plugin.compilers.selectors import check_selector, selector_literal
from sam_plugin.errors import SelectionError
from sam_plugin.samops import property_ops, selection
from sam_plugin.samops.property_ops import SHAPES_FOR_KIND, list_labels

TOOL = "assign_property"
DEFINE_TOOL = "define_property"


def known_section_kinds(ctx: CompileContext) -> dict[str, str]:
    """Section name → kind, from the model and from define_property calls earlier in this
    run (``ctx.prior_fragments``, the fragments compiled before this call)."""
    kinds: dict[str, str] = {}
    model = ctx.model
    if model is not None:
        for name in model.sections.keys():
            kind = property_ops.section_kind(model, name)
            if kind:
                kinds[name] = kind
    for fragment in ctx.prior_fragments:
        if fragment.tool == DEFINE_TOOL:
            for section in fragment.normalized.get("sections", ()):
                kinds[section["name"]] = section["kind"]
    return kinds


def _legal_for(shapes: Sequence[str], kinds: Mapping[str, str]) -> str:
    lines = []
    for shape in shapes:
        legal = sorted(name for name, kind in kinds.items()
                       if shape in SHAPES_FOR_KIND.get(kind, ()))
        needed = "beam" if shape == "BEAM" else "shell"
        lines.append(f"legal sections for {shape}: "
                     + (", ".join(legal) if legal else f"none (define a {needed} section)"))
    return "; ".join(lines)


def _fitting_kinds(shapes: Mapping[str, Sequence[int]]) -> list[str]:
    """The section kind that goes on every shape picked (one, or none for a mixed pick)."""
    fits = [kind for kind, legal in SHAPES_FOR_KIND.items() if all(s in legal for s in shapes)]
    return fits if len(fits) == 1 else []


def _shape_summary(shapes: Mapping[str, Sequence[int]]) -> str:
    return ", ".join(f"{shape} ({len(labels)})" for shape, labels in sorted(shapes.items()))


class _Resolved:
    """Selections resolved once against the live part for checks and prediction."""

    def __init__(self) -> None:
        self.assignments: list[tuple[str, list[int]]] = []
        self.orientations: list[tuple[list[int], tuple[float, float, float]]] = []


def _resolve(part: Any, selector: Any) -> list[int] | None:
    try:
        return [e.label for e in selection.select_elements(part, selector_literal(selector))]
    except SelectionError:
        return None


def analyse(ir: AssignProperty, ctx: CompileContext) -> tuple[list[Diagnostic], _Resolved]:
    part = ctx.part
    resolved = _Resolved()
    if part is None:
        return [Diagnostic(path="", message=(
            f"part {ctx.target.part_name!r} does not exist in model {ctx.target.model_name!r}; "
            "build it in Part mode first"))], resolved
    found: list[Diagnostic] = []
    kinds = known_section_kinds(ctx)
    owner: dict[int, int] = {}
    for index, item in enumerate(ir.assignments):
        path = f"assignments[{index}]"
        problems = check_selector(item.selection, part, f"{path}.selection", "elements",
                                  ctx.state)
        labels = _resolve(part, item.selection) if not problems else None
        found.extend(problems)
        if item.section not in kinds and item.section not in ctx.state.sections_present:
            legal = ", ".join(sorted(kinds)) or "none (define sections with define_property)"
            found.append(Diagnostic(path=f"{path}.section",
                                    message=f"unknown section {item.section!r}; existing "
                                    f"sections: {legal}"))
            continue
        if labels is None:
            continue
        if not labels:
            found.append(Diagnostic(path=f"{path}.selection",
                                    message="the selection picks no elements",
                                    needs=("picking_scope",)))
            continue
        shapes = property_ops.shapes_of(part, labels)
        kind = kinds.get(item.section)
        wrong = property_ops.misplaced(kind, shapes) if kind else []
        if wrong:
            found.append(Diagnostic(
                path=f"{path}.section",
                message=f"section {item.section!r} is a {kind} section and cannot go on "
                f"{', '.join(wrong)} elements; the selection holds {_shape_summary(shapes)}; "
                f"{_legal_for(wrong, kinds)}",
                # on no element it picks: the section's kind is the remedy, not the scope
                remedy_in=("sections", item.section) if len(wrong) == len(shapes) else None,
                needs=tuple(f"kind:{k}" for k in _fitting_kinds(shapes))
                if len(wrong) == len(shapes) else (),
            ))
        overlap = sorted(label for label in labels if label in owner)
        if overlap:
            first = owner[overlap[0]]
            found.append(Diagnostic(
                path=f"{path}.selection",
                message=f"overlaps assignments[{first}] on element(s) "
                f"{list_labels(overlap)}; each element takes exactly one section",
            ))
        for label in labels:
            owner.setdefault(label, index)
        resolved.assignments.append((item.section, labels))
    oriented: dict[int, int] = {}
    for index, orientation in enumerate(ir.beam_orientations):
        path = f"beam_orientations[{index}]"
        problems = check_selector(orientation.selection, part, f"{path}.selection", "elements",
                                  ctx.state)
        found.extend(problems)
        labels = _resolve(part, orientation.selection) if not problems else None
        if labels is None:
            continue
        shapes = property_ops.shapes_of(part, labels)
        beams = shapes.get("BEAM", [])
        if not beams:
            found.append(Diagnostic(
                path=f"{path}.selection",
                message="the selection picks no BEAM elements"
                + (f" (it holds {_shape_summary(shapes)})" if shapes else "")
                + "; orientations apply to BEAM elements only",
            ))
            continue
        offending = property_ops.parallel_beams(part, beams, orientation.n1)
        if offending:
            found.append(Diagnostic(
                path=f"{path}.n1",
                message=f"n1 {list(orientation.n1)} is parallel to the axis of beam element(s) "
                f"{list_labels(offending)}; choose an n1 that is not along those beams",
            ))
        overlap = sorted(label for label in beams if label in oriented)
        if overlap:
            found.append(Diagnostic(
                path=f"{path}.selection",
                message=f"overlaps beam_orientations[{oriented[overlap[0]]}] on beam(s) "
                f"{list_labels(overlap)}; each beam takes one orientation",
            ))
        for label in beams:
            oriented.setdefault(label, index)
        resolved.orientations.append((beams, orientation.n1))
    return found, resolved


def domain_checks(ir: AssignProperty, ctx: CompileContext) -> list[Diagnostic]:
    return analyse(ir, ctx)[0]


def _replacement_notes(part: Any, resolved: _Resolved) -> list[str]:
    notes: list[str] = []
    selected = [label for _, labels in resolved.assignments for label in labels]
    for index, covered in property_ops.covering_entries(part.sectionAssignments, selected):
        old = part.sectionAssignments[index].sectionName
        notes.append(f"replaces section {old!r} on {len(covered)} element(s): "
                     f"{list_labels(covered)}")
    beams = [label for labels, _ in resolved.orientations for label in labels]
    for index, covered in property_ops.covering_entries(part.beamOrientations, beams):
        old = tuple(part.beamOrientations[index].n1)
        notes.append(f"replaces orientation n1={old} on {len(covered)} beam(s): "
                     f"{list_labels(covered)}")
    return notes


def compile_assign(ir: AssignProperty, ctx: CompileContext) -> Fragment:
    _, resolved = analyse(ir, ctx)
    part = ctx.part
    assigned = set(property_ops.sections_by_element(part))
    for _, labels in resolved.assignments:
        assigned.update(labels)
    beam_labels = {e.label for e in part.elements if str(e.type) == "BEAM"}
    oriented = property_ops.oriented_labels(part) & beam_labels
    for labels, _ in resolved.orientations:
        oriented.update(labels)
    evidence = ctx.state.model_copy(update={
        "geometry_unchanged": True,
        "assigned_elements": Range.exact(len(assigned)),
        "oriented_beams": Range.exact(len(oriented)),
    })
    assignments = [(item.section, selector_literal(item.selection)) for item in ir.assignments]
    orientations = [(selector_literal(item.selection), list(item.n1))
                    for item in ir.beam_orientations]
    normalized = ir.model_dump(mode="json")
    var = script.variable(TOOL, normalized)
    preflight = (
        script.guard_preflight(ctx.prior_fragments)
        + f"{var} = _property_ops.prepare_assignments(\n"
        f"    _model, {script.PART},\n"
        f"    {script.literal(assignments)},\n"
        f"    {script.literal(orientations)},\n"
        ")\n"
    )
    return Fragment(
        tool=TOOL,
        preflight=preflight,
        mutation=f"{var}_report = _property_ops.apply_assignments(_model, {script.PART}, {var})\n"
        f'print("assign_property:", {var}_report)\n',
        postflight=script.GUARD_POSTFLIGHT
        + f"_property_ops.verify_assignments({script.PART}, {var})\n",
        normalized=normalized,
        evidence=evidence,
        helpers=list(script.HELPERS),
        notes=_replacement_notes(part, resolved),
    )
