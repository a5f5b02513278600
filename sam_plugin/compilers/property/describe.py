"""The Property plan: materials, sections and assignments in words, with the elements each
assignment picks on the live part (Property runs never change the geometry).

The predicted part is the live one with the assignments the calls leave: an element keeps
exactly one section, so an assignment takes its elements from any section they had — marked
destructive, with the elements named. The verifier compares every element's sections (I13).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sam_plugin.compilers.plan import (
    PREDICTION_LIMIT,
    PlanCall,
    PlanDetail,
    PlanOperation,
    PredictedPart,
    touched,
)
from sam_plugin.compilers.plan_words import picked_elements, point, selector_words
from sam_plugin.compilers.protocol import CompileContext, Fragment
from sam_plugin.samops import property_ops


def describe(fragments: Sequence[Fragment], ctx: CompileContext) -> PlanDetail:
    part = ctx.part
    small = part is not None and max(len(part.nodes), len(part.elements)) <= PREDICTION_LIMIT
    sections = ({k: tuple(v) for k, v in property_ops.sections_by_element(part).items()}
                if small else None)
    calls = [PlanCall(index=i, tool=f.tool, operations=_operations(f, part, sections),
                      notes=list(f.notes)) for i, f in enumerate(fragments, start=1)]
    if sections is None:
        return PlanDetail(calls=calls, basis=(
            "counts and names predicted by the compilers; the geometry must stay unchanged"))
    predicted = PredictedPart.of(part)
    predicted.prior_nodes = frozenset(predicted.nodes)
    predicted.prior_elements = frozenset(predicted.elements)
    predicted.assignments = sections
    return PlanDetail(calls=calls, predicted=predicted, basis=(
        "exact: the live part, unchanged, with the sections the calls assign"))


def _operations(fragment: Fragment, part: Any,
                sections: dict[int, tuple[str, ...]] | None) -> list[PlanOperation]:
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
        name = assignment["section"]
        ops.append(PlanOperation(
            text=f"assign section {name} to elements {selector_words(literal)}",
            touched=picked_elements(part, literal)))
        if sections is not None:
            ops += _reassigned(part, literal, name, sections)
    for orientation in args.get("beam_orientations", ()):
        literal = orientation["selection"]
        ops.append(PlanOperation(
            text=f"orient beams {selector_words(literal)} with n1 {point(orientation['n1'])}",
            touched=picked_elements(part, literal)))
    if fragment.tool == "audit_property":
        ops.append(PlanOperation(text="audit (read-only); writes property_audit.json"))
    return ops


def _reassigned(part: Any, literal: Any, name: str,
                sections: dict[int, tuple[str, ...]]) -> list[PlanOperation]:
    """Record the assignment in ``sections``; an element that had another section loses it."""
    try:
        labels = property_ops.resolve_elements(part, literal)
    except Exception:  # the compile reported an unresolvable selector already
        return []
    taken = sorted(k for k in labels if sections.get(k) not in (None, (name,)))
    lost = sorted({s for k in taken for s in sections[k]} - {name})
    for label in labels:
        sections[label] = (name,)
    if not taken:
        return []
    return [PlanOperation(text=f"replaces section {', '.join(lost)} on", destructive=True,
                          touched=[touched("elements", taken)])]
