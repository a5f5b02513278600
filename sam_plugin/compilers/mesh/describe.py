"""The Mesh plan: which elements are refined, how many levels, what the parents become."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sam_plugin.compilers.mesh.phrases import times
from sam_plugin.compilers.mesh.preview import refine_preview
from sam_plugin.compilers.plan import PlanCall, PlanDetail, PlanOperation, call_notes
from sam_plugin.compilers.plan_phrases import selector_phrase
from sam_plugin.compilers.plan_words import picked_elements
from sam_plugin.compilers.predicted_part import (
    NEW_ENTITIES,
    PredictedPart,
    before_contents,
    scoped,
    sorted_labels,
    unchanged,
)
from sam_plugin.compilers.protocol import CompileContext, Fragment
from sam_plugin.samops import selection
from sam_plugin.samops.mesh_read import mesh_of
from sam_plugin.samops.part_contents import PartContents
from sam_plugin.samops.part_scope import Scope, labels_array
from sam_plugin.words.phrase import phrase, render


def describe(fragments: Sequence[Fragment], ctx: CompileContext) -> PlanDetail:
    calls = []
    parents: set[int] = set()
    levels = 1
    for index, fragment in enumerate(fragments, start=1):
        args = fragment.normalized
        ops = []
        if fragment.tool == "refine_mesh":
            literal = args["selection"]
            levels = int(args.get("levels", 1))
            said = phrase("mesh.refine", which=selector_phrase(literal), levels=levels,
                          times=times(levels), quad=4 ** levels, beam=2 ** levels)
            ops.append(PlanOperation(text=render(said), phrase=said,
                                     touched=picked_elements(ctx.part, literal)))
            parents.update(_picked(ctx.part, literal))
        else:
            audit = phrase("plan.audit", file="mesh_audit.json")
            ops.append(PlanOperation(text=render(audit), phrase=audit))
        calls.append(PlanCall(index=index, tool=fragment.tool, operations=ops,
                              notes=list(fragment.notes),
                              note_phrases=call_notes(fragment.notes, fragment.note_phrases)))
    if ctx.part is None:
        return PlanDetail(calls=calls, basis="counts predicted by the compilers",
                          basis_phrase=phrase("basis.compilers"))
    fingerprint = str(ctx.extra.get("before_fingerprint", ""))
    before = before_contents(ctx.model, ctx.part, fingerprint)
    if all(f.read_only for f in fragments):
        return PlanDetail(calls=calls, predicted=unchanged(before, fingerprint),
                          basis="read-only: the part stays as it is (fingerprint unchanged)",
                          basis_phrase=phrase("basis.read_only"))
    return PlanDetail(calls=calls, predicted=_refined(before, parents),
                      preview=refine_preview(ctx.part, sorted(parents), levels),
                      basis=render(phrase("mesh.basis")), basis_phrase=phrase("mesh.basis"))


def _picked(part: Any, literal: Any) -> list[int]:
    try:
        return [e.label for e in selection.select_elements(part, literal)]
    except Exception:  # the compile reported an unresolvable selector already
        return []


def _refined(before: PartContents, parents: set[int]) -> PredictedPart:
    """The parents leave the part (with their memberships, sections and orientations); what
    replaces them is new, counted by the compilers' ranges, not predicted one by one."""
    scope = Scope(prior_nodes=sorted_labels(before.mesh.node_labels),
                  prior_elements=sorted_labels(before.mesh.element_labels),
                  elements=labels_array(parents))
    return scoped(before, scope, PartContents(mesh=mesh_of((), ())),
                  unpredicted=(NEW_ENTITIES,))
