"""define_property: materials and sections, checked against the live model."""

from __future__ import annotations

from typing import Any

from sam_plugin.compilers.property import script
from sam_plugin.compilers.property.ir import DefineProperty
from sam_plugin.compilers.protocol import CompileContext, Diagnostic, Fragment
from sam_plugin.samops import property_ops

TOOL = "define_property"


def plain(ir: DefineProperty) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Materials and sections as the plain dicts the script receives (absent = omitted)."""
    data = ir.model_dump(mode="json", exclude_none=True)
    return data.get("materials", []), data.get("sections", [])


def _names(container: Any) -> set[str]:
    return set(container.keys()) if container is not None else set()


def domain_checks(ir: DefineProperty, ctx: CompileContext) -> list[Diagnostic]:
    model = ctx.model
    found: list[Diagnostic] = []
    existing_materials = _names(model.materials if model is not None else None)
    known = existing_materials | set(ctx.state.materials_present) | {m.name for m in ir.materials}
    for index, section in enumerate(ir.sections):
        if section.material not in known:
            legal = ", ".join(sorted(known)) or "none yet (add it under materials)"
            found.append(Diagnostic(
                path=f"sections[{index}].material",
                message=f"unknown material {section.material!r} for section "
                f"{section.name!r}; legal materials: {legal}",
            ))
    if model is None:
        return found
    materials, sections = plain(ir)
    for index, material in enumerate(materials):
        conflicts, _ = property_ops.definition_conflicts(model, [material], [])
        found.extend(
            Diagnostic(path=f"materials[{index}].name",
                       message=f"{text}; choose a new name or repeat the existing definition",
                       needs=("removable",))
            for text in conflicts
        )
    for index, plain_section in enumerate(sections):
        conflicts, _ = property_ops.definition_conflicts(model, [], [plain_section])
        found.extend(
            Diagnostic(path=f"sections[{index}].name",
                       message=f"{text}; choose a new name or repeat the existing definition",
                       needs=("removable",))
            for text in conflicts
        )
    return found


def compile_define(ir: DefineProperty, ctx: CompileContext) -> Fragment:
    materials, sections = plain(ir)
    identical: list[str] = []
    if ctx.model is not None:
        _, identical = property_ops.definition_conflicts(ctx.model, materials, sections)
    notes = [f"{what} already exists with the identical definition: left as it is (no-op)"
             for what in identical]
    state = ctx.state
    evidence = state.model_copy(update={
        "geometry_unchanged": True,
        "materials_present": sorted({*state.materials_present, *(m["name"] for m in materials)}),
        "sections_present": sorted({*state.sections_present, *(s["name"] for s in sections)}),
    })
    args = f"_model, {script.literal(materials)}, {script.literal(sections)}"
    normalized = ir.model_dump(mode="json", exclude_none=True)
    var = script.variable(TOOL, normalized)
    return Fragment(
        tool=TOOL,
        preflight=script.guard_preflight(ctx.prior_fragments)
        + f"_property_ops.check_definitions({args})\n",
        mutation=f"{var} = _property_ops.define({args})\n"
        f'print("define_property:", {var})\n',
        postflight=script.GUARD_POSTFLIGHT + f"_property_ops.verify_definitions({args})\n",
        normalized=normalized,
        evidence=evidence,
        helpers=list(script.HELPERS),
        notes=notes,
    )
