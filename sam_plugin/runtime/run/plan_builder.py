"""Build the plan of a run from its compiled calls (docs/architecture.md §5 "Plan"); generic
over modules.

The domain module describes its calls (``DomainModule.describe``); this adds the before →
after summary, the destructive lines, each call against the step it carries out, and one
warning per disagreement between the spec's own expected results and the prediction. Which
plans wait for the analyst is the ``plan_wait`` policy: ``always``, ``destructive`` (only a
destructive or warned plan), ``never``; a plan with a warning waits whatever the policy
(docs/architecture.md §5 "Plan").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Literal

from sam_plugin.compilers.evidence import SHAPES, Prediction, Readback
from sam_plugin.compilers.plan import Plan, PlanDetail, PlanState, PlanStep, Touched, touched
from sam_plugin.compilers.plan_phrases import NOUNS, text_phrase, tool_phrase
from sam_plugin.compilers.protocol import CompileContext, DomainModule, Fragment
from sam_plugin.compilers.spec.binding import BoundStep
from sam_plugin.compilers.spec.ir import Expected, Spec
from sam_plugin.compilers.spec.render import step_phrase, step_said
from sam_plugin.compilers.units import UnitSystem, unit_table
from sam_plugin.runtime.config.policy import PLAN_WAITS
from sam_plugin.runtime.run.plan_attention import attention
from sam_plugin.words.phrase import RECORD, Phrase, Value, phrase, render

# operations describing a shadow difference (not a selection)
_CHANGE_WORDS = ("adds", "removes", "removes, beyond what the call names")


def build_plan(
    *,
    run_id: str,
    module: DomainModule,
    fragments: Sequence[Fragment],
    ctx: CompileContext,
    prediction: Prediction,
    before: Readback,
    spec: Spec | None,
    script_sha256: str,
    bound: Sequence[tuple[int, BoundStep]] = (),
    sources: Sequence[str] = (),
    units: UnitSystem | None = None,
) -> tuple[Plan, PlanDetail]:
    """The plan and the module's detail (its predicted part); CompileError propagates (I7).
    ``bound`` pairs each call (0-based) with the step it carries out; ``sources`` says where
    each call came from (``spec``: computed from the steps); ``units``: the unit system the
    plan's words say (the module's describe finds it in ``ctx.extra["units"]``)."""
    # the part as observed is kept by its fingerprint: the plan reads no part again
    ctx = replace(ctx, extra={**ctx.extra, "before_fingerprint": before.fingerprint})
    detail = module.describe(fragments, ctx)
    expectations = spec.expected if spec is not None else Expected()
    read_only = bool(fragments) and all(f.read_only for f in fragments)
    after = _after_state(prediction, detail)
    length = units.length if units is not None else ""
    attention_found = attention(ctx.request_text, before, prediction, read_only,
                                detail.empty_sets)
    mismatches = _mismatches(expectations, prediction, detail)
    destructive = _destructive(detail, before, prediction)
    table = unit_table(units)
    plan = Plan(
        run_id=run_id,
        module=module.mode,
        target={"model_name": ctx.target.model_name, "part_name": ctx.target.part_name},
        script_sha256=script_sha256,
        calls=[call.model_copy(update={"source": sources[i]}) if i < len(sources) else call
               for i, call in enumerate(detail.calls)],
        before=_before_state(before),
        after=after,
        destructive=[render(p, RECORD, table) for p in destructive],
        warnings=[*(found.words() for found in attention_found),
                  *(render(p, RECORD, table) for p in mismatches), *detail.warnings],
        expectations=expectations.as_json(),
        prediction=detail.basis,
        preview=detail.preview,
        read_only=read_only,
        steps=_steps(module, spec, bound, units),
        length_unit=length,
        destructive_phrases=destructive,
        warning_phrases=[*(found.phrase() for found in attention_found), *mismatches,
                         *_domain_warnings(detail)],
        prediction_phrase=detail.basis_phrase or (
            phrase("basis.other", text=detail.basis) if detail.basis else None),
        units=table or {},
    )
    return plan, detail


def _steps(module: DomainModule, spec: Spec | None,
           bound: Sequence[tuple[int, BoundStep]],
           units: UnitSystem | None = None) -> list[PlanStep]:
    if spec is None:
        return []
    vocabulary = module.vocabulary
    return sorted((PlanStep(step=b.step + 1, call=call + 1, path=b.operation.path,
                            text=step_phrase(spec.steps[b.step], vocabulary, "en", units),
                            phrase=step_said(module.mode, spec.steps[b.step]),
                            picked=_picked(b))
                   for call, b in bound), key=lambda s: (s.call, s.step))


def _picked(bound: BoundStep) -> Touched | None:
    """What the bound operation's scope picked, for the plan's step line."""
    if bound.resolved is None:
        return None
    kind: Literal["nodes", "elements"] = ("nodes" if bound.resolved.kind == "nodes"
                                          else "elements")
    return touched(kind, sorted(bound.resolved.labels))


def plan_waits(plan: Plan, policy: str) -> bool:
    if policy not in PLAN_WAITS:
        raise ValueError(f"plan_wait: {policy!r} is not one of {', '.join(PLAN_WAITS)}")
    if plan.warnings:
        return True  # a warned plan is never approved by a setting, only by a person
    if policy == "never":
        return False
    if policy == "destructive":
        return plan.needs_attention
    return True


def _before_state(readback: Readback) -> PlanState:
    if not readback.part_exists:  # the model's sections are not the new part's
        return PlanState(nodes="0", elements="0", shapes=dict.fromkeys(SHAPES, "0"),
                         exists=False)
    return PlanState(
        nodes=str(readback.node_count),
        elements=str(readback.element_count),
        shapes={s: str(readback.shape_counts.get(s, 0)) for s in SHAPES},
        sets=list(readback.sets),
        sections=list(readback.sections),
        assigned_elements=str(readback.assigned_elements),
        bounding_box=readback.bounding_box,
    )


def _after_state(prediction: Prediction, detail: PlanDetail) -> PlanState:
    box = detail.predicted.bounding_box() if detail.predicted is not None else None
    return PlanState(
        nodes=prediction.node_count.describe(),
        elements=prediction.element_count.describe(),
        shapes={s: prediction.shape_counts[s].describe() for s in SHAPES},
        sets=list(prediction.sets_present),
        sections=list(prediction.sections_present),
        assigned_elements=(prediction.assigned_elements.describe()
                           if prediction.assigned_elements is not None else None),
        bounding_box=box,
    )


def _domain_warnings(detail: PlanDetail) -> list[Phrase]:
    """The domain's warnings as phrases; one it gave no phrase for is said as it is."""
    if len(detail.warning_phrases) == len(detail.warnings):
        return list(detail.warning_phrases)
    return [text_phrase(text) for text in detail.warnings]


def _destructive(detail: PlanDetail, before: Readback, prediction: Prediction) -> list[Phrase]:
    lines = []
    for call in detail.calls:
        for op in call.operations:
            if op.destructive:
                lines.append(phrase("plan.destructive.call", n=call.index,
                                    tool=tool_phrase(call.tool), what=op.words()))
    if not lines:
        # whatever the module said, fewer entities after the run than before is a removal
        for noun, now, then in (("nodes", before.node_count, prediction.node_count),
                                ("elements", before.element_count, prediction.element_count)):
            if then.min < now:
                lines.append(phrase("plan.destructive.fewer", n=now - then.min, total=now,
                                    noun=phrase(NOUNS[noun])))
    return lines


def _mismatches(expect: Expected, prediction: Prediction, detail: PlanDetail) -> list[Phrase]:
    if expect.empty:
        return []
    found = []
    for noun, wanted, predicted in (("nodes", expect.nodes, prediction.node_count),
                                    ("elements", expect.elements, prediction.element_count)):
        if wanted is not None and not predicted.contains(wanted):
            found.append(_differs(
                phrase("plan.count", count=wanted, noun=phrase(NOUNS[noun])),
                phrase("plan.count", count=predicted.describe(), noun=phrase(NOUNS[noun]))))
    for shape, wanted in expect.shapes.items():
        shape_count = prediction.shape_counts.get(shape)
        if shape_count is not None and not shape_count.contains(wanted):
            found.append(_differs(
                phrase("plan.shape_count", count=wanted, shape=shape),
                phrase("plan.shape_count", count=shape_count.describe(), shape=shape)))
    for name in expect.sets:
        if name not in prediction.sets_present:
            sets: Value = (", ".join(prediction.sets_present) if prediction.sets_present
                           else phrase("plan.none"))
            found.append(_differs(phrase("plan.set_missing", name=name),
                                  phrase("plan.no_set", name=name, sets=sets)))
    if expect.selected is not None:
        wanted = expect.selected
        counts = [(call, op, t) for call in detail.calls for op in call.operations
                  if op.text not in _CHANGE_WORDS for t in op.touched]
        if counts and all(t.count != wanted for _, _, t in counts):
            call, op, touched = counts[0]
            found.append(phrase("plan.spec_acts_on", wanted=wanted, count=touched.count,
                                kind=phrase(NOUNS[touched.kind]), n=call.index,
                                tool=call.tool, text=op.phrase or text_phrase(op.text)))
    return found


def _differs(expected: Phrase, predicted: Phrase) -> Phrase:
    return phrase("plan.spec_differs", expected=expected, predicted=predicted)
