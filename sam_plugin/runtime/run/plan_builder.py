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

from sam_plugin.compilers.evidence import SHAPES, Prediction, Range, Readback
from sam_plugin.compilers.plan import Plan, PlanDetail, PlanState, PlanStep, Touched, touched
from sam_plugin.compilers.protocol import CompileContext, DomainModule, Fragment
from sam_plugin.compilers.spec.binding import BoundStep
from sam_plugin.compilers.spec.ir import Expected, Spec
from sam_plugin.compilers.spec.render import step_phrase
from sam_plugin.compilers.units import UnitSystem
from sam_plugin.runtime.config.policy import PLAN_WAITS
from sam_plugin.runtime.run.plan_attention import attention_warnings

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
    plan = Plan(
        run_id=run_id,
        module=module.mode,
        target={"model_name": ctx.target.model_name, "part_name": ctx.target.part_name},
        script_sha256=script_sha256,
        calls=[call.model_copy(update={"source": sources[i]}) if i < len(sources) else call
               for i, call in enumerate(detail.calls)],
        before=_before_state(before),
        after=after,
        destructive=_destructive(detail, before, prediction,
                                 units.length if units is not None else ""),
        warnings=[*attention_warnings(ctx.request_text, before, prediction, read_only,
                                      detail.empty_sets),
                  *_mismatches(expectations, prediction, detail), *detail.warnings],
        expectations=expectations.as_json(),
        prediction=detail.basis,
        preview=detail.preview,
        read_only=read_only,
        steps=_steps(module, spec, bound, units),
        length_unit=units.length if units is not None else "",
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
                            text_zh=step_phrase(spec.steps[b.step], vocabulary, "zh", units),
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


def _destructive(detail: PlanDetail, before: Readback, prediction: Prediction,
                 length_unit: str = "") -> list[str]:
    lines = []
    for call in detail.calls:
        for op in call.operations:
            if op.destructive:
                lines.append(f"call {call.index} {call.tool}: {op.describe(length_unit)}")
    if not lines:
        # whatever the module said, fewer entities after the run than before is a removal
        for noun, now, then in (("nodes", before.node_count, prediction.node_count),
                                ("elements", before.element_count, prediction.element_count)):
            if then.min < now:
                lines.append(f"the calls may remove up to {now - then.min} of the {now} {noun}")
    return lines


def _mismatches(expect: Expected, prediction: Prediction, detail: PlanDetail) -> list[str]:
    if expect.empty:
        return []
    found = []
    for noun, wanted, predicted in (("nodes", expect.nodes, prediction.node_count),
                                    ("elements", expect.elements, prediction.element_count)):
        if wanted is not None and not predicted.contains(wanted):
            found.append(_differs(f"{wanted} {noun}", predicted, noun))
    for shape, wanted in expect.shapes.items():
        shape_count = prediction.shape_counts.get(shape)
        if shape_count is not None and not shape_count.contains(wanted):
            found.append(_differs(f"{wanted} {shape} elements", shape_count,
                                  f"{shape} elements"))
    for name in expect.sets:
        if name not in prediction.sets_present:
            sets = ", ".join(prediction.sets_present) or "none"
            found.append(f"the spec expects a set {name}; the calls leave no set {name} "
                         f"(sets after: {sets})")
    if expect.selected is not None:
        wanted = expect.selected
        counts = [(call, op, t) for call in detail.calls for op in call.operations
                  if op.text not in _CHANGE_WORDS for t in op.touched]
        if counts and all(t.count != wanted for _, _, t in counts):
            call, op, touched = counts[0]
            found.append(f"the spec expects its steps to act on {wanted}; the calls act on "
                         f"{touched.count} {touched.kind} (call {call.index} {call.tool}: "
                         f"{op.text})")
    return found


def _differs(expected: str, predicted: Range, noun: str) -> str:
    return f"the spec expects {expected}; the calls leave {predicted.describe()} {noun}"
