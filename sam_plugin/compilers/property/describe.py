"""The Property plan: materials, sections and assignments in words, with the elements each
assignment picks on the live part (Property runs never change the geometry)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sam_plugin.compilers.plan import PlanCall, PlanDetail, PlanOperation
from sam_plugin.compilers.plan_words import picked_elements, point, selector_words
from sam_plugin.compilers.protocol import CompileContext, Fragment


def describe(fragments: Sequence[Fragment], ctx: CompileContext) -> PlanDetail:
    calls = [PlanCall(index=i, tool=f.tool, operations=_operations(f, ctx.part),
                      notes=list(f.notes)) for i, f in enumerate(fragments, start=1)]
    return PlanDetail(calls=calls, basis=(
        "counts and names predicted by the compilers; the geometry must stay unchanged"))


def _operations(fragment: Fragment, part: Any) -> list[PlanOperation]:
    args = fragment.normalized
    ops = []
    for material in args.get("materials", ()):
        density = material.get("density")
        ops.append(PlanOperation(text=(
            f"material {material['name']}: E {material['youngs_modulus']:g}, "
            f"nu {material['poisson_ratio']:g}"
            + (f", density {density:g}" if density is not None else ""))))
    for section in args.get("sections", ()):
        if section.get("kind") == "shell":
            what = f"shell, thickness {section['thickness']:g}"
        else:
            profile = dict(section.get("profile") or {})
            shape = profile.pop("shape", "?")
            what = f"beam, {shape} profile " + ", ".join(f"{k} {v:g}" for k, v in profile.items())
        ops.append(PlanOperation(text=f"section {section['name']} ({what}) of material "
                                 f"{section['material']}"))
    for assignment in args.get("assignments", ()):
        literal = assignment["selection"]
        ops.append(PlanOperation(
            text=f"assign section {assignment['section']} to elements {selector_words(literal)}",
            touched=picked_elements(part, literal)))
    for orientation in args.get("beam_orientations", ()):
        literal = orientation["selection"]
        ops.append(PlanOperation(
            text=f"orient beams {selector_words(literal)} with n1 {point(orientation['n1'])}",
            touched=picked_elements(part, literal)))
    if fragment.tool == "audit_property":
        ops.append(PlanOperation(text="audit (read-only); writes property_audit.json"))
    return ops
