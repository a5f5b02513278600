"""The Load plan: each step with the step it follows; each load and boundary condition with
its region (the set and the count of its members, and the set the run makes for a selection
that is not one), its step, and its values with their units (a pressure in the model's stress
unit, a force in its force unit). The words are phrases (``phrases.py``), rendered where a
person reads them, in their language and unit system."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import TypeAdapter

from sam_plugin.compilers.load.ir import DefineStep
from sam_plugin.compilers.load.phrases import item_phrase, region_phrase
from sam_plugin.compilers.load.regions import MEMBERS, made_set, picked, region_name
from sam_plugin.compilers.load.tool_compilers import previous_steps, reused_steps
from sam_plugin.compilers.plan import (
    PlanCall,
    PlanDetail,
    PlanOperation,
    Preview,
    Touched,
    call_notes,
    touched,
)
from sam_plugin.compilers.plan_words import picked_elements
from sam_plugin.compilers.predicted_part import before_contents, unchanged
from sam_plugin.compilers.protocol import CompileContext, Fragment
from sam_plugin.compilers.selectors import Selector
from sam_plugin.compilers.units import context_units, unit_table
from sam_plugin.samops.load_audit import AUDIT_FILE
from sam_plugin.samops.load_ops import INITIAL
from sam_plugin.words.phrase import RECORD, Phrase, phrase, render

_SELECTOR: TypeAdapter[Any] = TypeAdapter(Selector)


def region_said(item: Mapping[str, Any], part: Any) -> Phrase:
    """The set the load or condition acts on, with the count of its members."""
    selector = _SELECTOR.validate_python(item["selection"])
    members = MEMBERS[item["kind"]]
    count = len(picked(part, selector, members))
    made = made_set(item["kind"], item["name"], selector) is not None
    return region_phrase(region_name(item["kind"], item["name"], selector), members, count,
                         made)


def _item_line(item: Mapping[str, Any], ctx: CompileContext) -> PlanOperation:
    said = item_phrase(item, region_said(item, ctx.part), item.get("step", INITIAL))
    return PlanOperation(text=render(said, RECORD, unit_table(context_units(ctx))),
                         phrase=said, touched=region_touched(item, ctx.part))


def region_touched(item: Mapping[str, Any], part: Any) -> list[Touched]:
    """The members the load or condition acts on: their labels, or a count and a box."""
    selector = _SELECTOR.validate_python(item["selection"])
    members = MEMBERS[item["kind"]]
    labels = picked(part, selector, members)
    if not labels:
        return []
    if members == "elements":
        return picked_elements(part, {"by": "labels", "labels": labels})
    points = [tuple(n.coordinates) for n in part.nodes.sequenceFromLabels(labels)]
    return [touched("nodes", labels, points)]


def _items(fragment: Fragment) -> list[dict[str, Any]]:
    """The loads or conditions of an ``apply_load`` / ``apply_boundary`` call (else none)."""
    args = fragment.normalized
    return list(args.get("loads") or args.get("conditions") or [])


def _operations(fragment: Fragment, ctx: CompileContext) -> list[PlanOperation]:
    args = fragment.normalized
    if fragment.tool == "define_step":
        ir = DefineStep.model_validate(args)
        reused = reused_steps(ir, ctx)
        return [_said(phrase("load.step_reused" if index in reused else "load.define_step",
                             name=s.name, previous=p))
                for index, (s, p) in enumerate(zip(ir.steps, previous_steps(ir, ctx),
                                                   strict=True))]
    if fragment.tool in ("apply_load", "apply_boundary"):
        return [_item_line(item, ctx) for item in _items(fragment)]
    return [_said(phrase("plan.audit", file=AUDIT_FILE))]


def _said(said: Phrase) -> PlanOperation:
    return PlanOperation(text=render(said), phrase=said)


def describe(fragments: Sequence[Fragment], ctx: CompileContext) -> PlanDetail:
    calls = []
    for index, fragment in enumerate(fragments, start=1):
        # each call sees the steps the calls before it define
        here = CompileContext(request_text=ctx.request_text, target=ctx.target,
                              state=ctx.state, model=ctx.model, part=ctx.part,
                              prior_fragments=tuple(fragments[:index - 1]), extra=ctx.extra)
        calls.append(PlanCall(index=index, tool=fragment.tool,
                              operations=_operations(fragment, here),
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
    return PlanDetail(calls=calls, preview=regions_preview(fragments, ctx.part),
                      basis=render(phrase("load.basis")), basis_phrase=phrase("load.basis"))


def regions_preview(fragments: Sequence[Fragment], part: Any) -> Preview | None:
    """The region of each load and condition, drawn as acted on and left as it is: the
    elements a pressure acts on, the nodes a force or a condition does."""
    found: dict[str, set[int]] = {"elements": set(), "nodes": set()}
    for fragment in fragments:
        for item in _items(fragment):
            members = MEMBERS[item["kind"]]
            found[members].update(picked(part, _SELECTOR.validate_python(item["selection"]),
                                         members))
    if not any(found.values()):
        return None
    return Preview(acted_on=sorted(found["elements"]), acted_on_nodes=sorted(found["nodes"]))
