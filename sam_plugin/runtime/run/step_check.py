"""The first step of a design that does not compute or compile, checked before Review, with
the compiler's diagnostic in its words (docs/architecture.md §4 "One repair before Review"):
what a repair request names. The steps the request's own words contradict are read first
(``request_check.py``), and where every step computes and compiles, those its domain reads
(``DomainModule.request_contradictions``). Nothing is run; the host is only read."""

from __future__ import annotations

import dataclasses
import json
import logging
from collections.abc import Mapping
from typing import Any

from sam_plugin.compilers.chain import CompileChain
from sam_plugin.compilers.evidence import Prediction
from sam_plugin.compilers.protocol import DomainModule
from sam_plugin.compilers.spec.computed import step_said
from sam_plugin.compilers.spec.ir import Spec
from sam_plugin.compilers.spec.reading import spec_from_json
from sam_plugin.compilers.spec.request_places import box_words
from sam_plugin.errors import CompileError, StepsNotComputable
from sam_plugin.runtime.run.context import StepContext
from sam_plugin.runtime.run.failing import FailingStep
from sam_plugin.runtime.run.named_places import region_boxes
from sam_plugin.runtime.run.plan_attention import asks_to_empty
from sam_plugin.runtime.run.request_check import contradicted_by_words
from sam_plugin.runtime.run.state import RunState

log = logging.getLogger(__name__)


def failing_step(ctx: StepContext, run: RunState,
                 document: Mapping[str, Any]) -> FailingStep | None:
    """The first step that does not compute or compile, with the diagnostic in its words,
    else the first the request's words contradict; None when none (or the spec does not
    read: the reader says so after). A step asked again for its scope is told the places
    the request names, as boxes."""
    found = _first_failing(ctx, run, document)
    if found is None or not {"scope", "picking_scope", "partial_scope"} & set(found.needs):
        return found
    boxes = [b for b in region_boxes(ctx, run) if box_words(b[1], b[2]) not in found.reason]
    if not boxes:
        return found
    places = "; ".join(f"“{words}” = {box_words(low, high)}" for words, low, high in boxes)
    return dataclasses.replace(found, reason=f"{found.reason} (the request's places on this "
                               f"part: {places})")


def _first_failing(ctx: StepContext, run: RunState,
                   document: Mapping[str, Any]) -> FailingStep | None:
    module = run.inputs.module
    try:
        spec = spec_from_json(dict(document), module.vocabulary)
    except Exception:  # noqa: BLE001 - the reader names what does not read, after this
        return None
    changing = contradicted_by_words(ctx, run, spec)
    if changing is not None:
        return changing
    try:
        route = module.route_steps(spec.capabilities(), run.observation is None
                                   or run.observation.target_is_empty)
        computed = module.calls_from_steps(spec, route.tools)
    except StepsNotComputable as refused:
        return FailingStep(refused.step, refused.message, refused.joins, refused.needs)
    except Exception:  # noqa: BLE001 - the reader names what does not read, after this
        return None
    assert run.before is not None
    try:
        chain = CompileChain(module, request=run.inputs.request, target=run.target,
                             start=Prediction.from_readback(run.before),
                             model=ctx.host.model(run.target.model_name),
                             part=ctx.host.part(run.target), spec=spec,
                             # judged on the part as observed, as the compile after Confirm
                             # judges it (runtime/run/compile.py): its box is known already
                             extra={"before_fingerprint": run.before.fingerprint})
        emptying = None
        for call in computed:
            try:
                chain.add(call.tool, json.dumps(call.arguments, ensure_ascii=False))
            except CompileError as error:
                return _compile_step(call, error, spec, module.vocabulary)
            if emptying is None and chain.state.element_count.max == 0:
                emptying = call
        if emptying is not None and chain.state.element_count.max == 0 \
                and run.before.element_count > 0 and not asks_to_empty(run.inputs.request):
            return _emptying_step(emptying, spec, module.vocabulary, run.before.element_count)
    except Exception:  # noqa: BLE001 - a host or compiler fault: the compile after Confirm
        log.debug("design check of the steps failed", exc_info=True)
    return _contradicted_step(module, spec, run.inputs.request)


def _contradicted_step(module: DomainModule, spec: Spec, request: str) -> FailingStep | None:
    """The first step the request's own words contradict, where every step computes and
    compiles: its domain reads the words (a shell section where the request names a beam
    profile) and says the diagnostic and what the step asked again is held to."""
    for found in module.request_contradictions(spec, request):
        return FailingStep(found.step, found.diagnostic.message,
                           needs=found.diagnostic.needs)
    return None


def _emptying_step(call: Any, spec: Spec, vocabulary: Any, elements: int) -> FailingStep:
    """A spec that leaves the part with no elements, when the request does not ask to
    delete everything: "tidy it up" answered by deleting every element. The plan would warn
    (``plan_attention.py``); said here, the step is asked again before Review. Of the
    steps one call carries, the first whose scope is the whole part ("delete all nodes"
    takes every element with it), else the last. Asked again, its scope cannot take every
    element (``partial_scope``)."""
    whole = [i for i in call.steps if (scope := spec.steps[i].scope) is not None
             and scope.model_dump(mode="json").get("by") == "all"]
    step = whole[0] if whole else call.steps[-1]
    return FailingStep(step, f"{step_said(spec, step, vocabulary)} leaves the part with no "
                       f"elements ({elements} → 0), and the request does not ask to delete "
                       "everything: write the step the request asks for, on the elements or "
                       "nodes it names", needs=("partial_scope",))


def _compile_step(call: Any, error: CompileError, spec: Spec,
                  vocabulary: Any) -> FailingStep | None:
    for diagnostic in error.diagnostics:
        step = call.step_of(diagnostic.path)
        if step is None:
            continue
        defining = _defining_step(spec, vocabulary, diagnostic.remedy_in)
        if defining is not None and defining != step:
            return FailingStep(defining, f"{step_said(spec, defining, vocabulary)}: "
                               f"{diagnostic.message} (step {step + 1} assigns it)",
                               needs=diagnostic.needs)
        return FailingStep(step, f"{step_said(spec, step, vocabulary)}: {diagnostic}",
                           needs=diagnostic.needs)
    return None


def _defining_step(spec: Spec, vocabulary: Any, remedy_in: tuple[str, str] | None
                   ) -> int | None:
    """The step of the spec that defines what a diagnostic's remedy changes (a section
    defined with the wrong kind), if one does: that step is the one asked again."""
    if remedy_in is None:
        return None
    for index, step in enumerate(spec.steps):
        action = vocabulary.action(step.action)
        if action is not None and action.defines is not None and \
                action.defines[0] == remedy_in[0] and \
                step.values.get(action.defines[1]) == remedy_in[1]:
            return index
    return None
