"""Designing: ask the model for the spec with no tools at all (I1), read the answer as the
spec IR and route its steps (docs/architecture.md §1, §4 "The spec"); the target is observed
before (``observing.py``).

What the analyst sees is what is stored and sent as confirmed: the spec rendered in words
from its data (``design.txt``, ``spec.json``), the model's words in it filtered as every
shown text (``visible_text``).
"""

from __future__ import annotations

import dataclasses
import json
import logging
from collections.abc import Mapping
from typing import Any, NoReturn

from sam_plugin.compilers.spec.diff import spec_changes
from sam_plugin.compilers.spec.edit_refresh import refreshed
from sam_plugin.compilers.spec.ir import Spec
from sam_plugin.errors import (
    DesignRefused,
    FailRun,
    ProviderError,
    RefusedByCategory,
    ReturnToReview,
    SpecRejected,
)
from sam_plugin.runtime.event_types import (
    DesignConfirmed,
    DesignDelta,
    DesignReceived,
    RepairRequested,
)
from sam_plugin.runtime.provider.constraint import spec_response_format
from sam_plugin.runtime.provider.types import ChatResponse, RequestOptions
from sam_plugin.runtime.run import (
    budgets,
    design_answer,
    design_inputs,
    design_parts,
    design_repair,
    revision,
)
from sam_plugin.runtime.run.context import StepContext
from sam_plugin.runtime.run.named_places import named_places
from sam_plugin.runtime.run.phases import Phase
from sam_plugin.runtime.run.spec_words import people_words, selection_words
from sam_plugin.runtime.run.state import RunState
from sam_plugin.runtime.text_safety import visible_text

log = logging.getLogger(__name__)


async def revise_spec(ctx: StepContext, run: RunState, remark: str) -> None:
    """Ask for changes: the spec written again with ``remark``; when that fails the spec that
    stood stays and the run returns to Review saying so."""
    try:
        await write_spec(ctx, run, remark=remark)
    except FailRun as failure:  # the standing spec stays (write_spec)
        run.spec_changes = []
        raise ReturnToReview(failure.layer, "the revision failed, the previous spec "
                             f"stands: {failure.message}", provider=failure.provider) from None


async def write_spec(ctx: StepContext, run: RunState, remark: str = "") -> None:
    """The design request (no tools, I1), or a revision with ``remark`` sent with the current
    spec as data; the answer read as the spec (docs/architecture.md §4 "The spec"). Prose or
    JSON that fails the schema gets one design repair round naming the problems, then the
    run fails at design with advice. The spec and its route become the run's only when every
    check holds; a revision that fails leaves the standing spec as it was.

    The request's own words asking for what the mode does not do end the run at design with
    their category (``design_parts.refuse_by_words``): asked in parts, before any request;
    asked whole, once the design's requests are answered, over what the model answered (a
    spec, a refusal or a failure), so that the whole design sends exactly what it sent
    before. With ``calls: model`` the model's calls follow the design (its recordings go on
    past it), and the words do not refuse there."""
    try:
        await _write_spec(ctx, run, remark)
    except FailRun as failure:
        refused = isinstance(failure, RefusedByCategory)  # the words were read for it
        if failure.layer == "design" and not refused and _words_refuse_whole(ctx, remark):
            design_parts.refuse_by_words(run, ctx.language)
        raise


def _model_refused(ctx: StepContext, run: RunState, refused: DesignRefused,
                   remark: str) -> NoReturn:
    """The model answered ``{"refuse"}``: the category the request's words ask for, the
    model's reason quoted after; else ``other``, with the model's reason."""
    if _words_refuse_whole(ctx, remark):
        design_parts.refuse_by_words(run, ctx.language, model_said=refused.reason)
    raise RefusedByCategory("other", design_answer.refusal_message(
        refused, run.inputs.module)) from None


def _words_refuse_whole(ctx: StepContext, remark: str) -> bool:
    """Whether the words refuse after the whole design's requests (see ``write_spec``)."""
    return not remark and ctx.policy.design == "whole" and ctx.policy.calls == "spec"


async def _write_spec(ctx: StepContext, run: RunState, remark: str) -> None:
    assert run.observation is not None
    if remark:
        run.conversation.remarks.append(remark)  # its numbers are the analyst's (shown_numbers)
        previous = design_answer.spec_json_text(run.spec_ir) if run.spec_ir else run.spec
        messages = revision.revision_messages(run.conversation.messages, previous, remark,
                                              ctx.language)
    else:
        messages = run.conversation.messages = design_inputs.design_request(ctx, run)
    version = run.spec_versions + 1
    if not remark and ctx.policy.design == "parts":  # revisions send the whole spec back
        parted = await _write_in_parts(ctx, run, version)
        if isinstance(parted, design_answer.DesignReading):
            _adopted(ctx, run, parted, remark, version, ignored=0)
            return
        # a whole spec answered to a request of the parts: read, and repaired, as ever
        messages, response = parted.messages, parted.response
        held = design_inputs.held_schema(ctx, run)
        tokens = budgets.design_tokens(ctx.settings, held)
    else:
        held = design_inputs.held_schema(ctx, run)  # the grammar the answer is held to, if any
        tokens = budgets.design_tokens(ctx.settings, held)
        response = await _design_round(ctx, run, messages, _design_sse(version), tokens, held)
    run.spec_versions = version
    schema_repairs = 0
    try:
        reading = _read_round(ctx, run, response, tokens, looped=held is not None)
    except SpecRejected as rejected:
        schema_repairs = 1
        ctx.emit(RepairRequested(
            repair=1, of=design_answer.DESIGN_REPAIR_ROUNDS, layer="design",
            tool="", headline=rejected.problems[0], problems=rejected.problems))
        ctx.emit(DesignDelta(text="", reset=True))
        messages = [*messages, {"role": "assistant", "content": response.content},
                    {"role": "user",
                     "content": design_answer.repair_message(
                         [*rejected.problems, *design_answer.named_not_planned(
                             response.content, run.inputs.module.vocabulary,
                             run.inputs.request)], ctx.language)}]
        # a loop under the grammar is not a short budget: the same bound, other words
        bound = budgets.after_design_cut(tokens) if _cut(response) and held is None else tokens
        response = await _design_round(ctx, run, messages, _design_sse(version, repair=True),
                                       bound, held)
        try:
            reading = _read_round(ctx, run, response, bound, looped=held is not None)
        except SpecRejected as again:
            if run.spec_ir is not None:
                _store(ctx, run)  # a revision's standing spec shows again
            if _cut(response):
                raise FailRun("design", _cut_again(bound, looped=held is not None)) from None
            raise FailRun("design", design_answer.failure_message(
                again.problems, response.content)) from None
        except DesignRefused as refused:
            _model_refused(ctx, run, refused, remark)
    except DesignRefused as refused:
        _model_refused(ctx, run, refused, remark)
    if _words_refuse_whole(ctx, remark):
        design_parts.refuse_by_words(run, ctx.language)
    if ctx.policy.design == "whole" and ctx.policy.calls == "spec":
        step_held = design_inputs.held_step_schema(ctx, run)  # a step asked again answers one step
        step_tokens = budgets.design_tokens(ctx.settings, step_held) if step_held else tokens
        reading = await design_repair.compiled_or_repaired(
            ctx, run, reading, messages=messages, response=response, version=version,
            spent=schema_repairs,
            ask=lambda asked, sse, needs: _design_round(
                ctx, run, asked, sse, step_tokens,
                design_inputs.held_step_schema(ctx, run, needs) if needs else step_held),
            read=lambda answer: _read_round(ctx, run, answer, tokens, looped=held is not None))
    _adopted(ctx, run, _parts_warned(ctx, run, reading), remark, version,
             ignored=len(response.tool_calls))


def _adopted(ctx: StepContext, run: RunState, reading: design_answer.DesignReading,
             remark: str, version: int, *, ignored: int) -> None:
    """The reading becomes the run's spec; a revision keeps its version and changes."""
    run.spec_versions = version
    before = run.spec_ir
    _adopt(ctx, run, reading)
    run.spec_changes = []
    if remark:
        revision.keep_version(run.dir, version, people_words(run, ctx.units, ctx.language),
                              reading.spec)
        if before is not None:
            run.spec_changes = spec_changes(before, reading.spec, run.inputs.module.vocabulary,
                                            ctx.language, ctx.units)
        revision.record_remark(run.dir, version, remark, run.spec_changes)
    parted = not remark and ctx.policy.design == "parts"
    ctx.emit(DesignReceived(
        method=reading.route.method,
        capabilities=reading.route.capabilities,
        tools=reading.route.tools,
        steps=len(reading.spec.steps),
        spec_chars=len(reading.text),
        version=version,
        warnings=reading.warnings,
        changes=[c.as_json() for c in run.spec_changes],
        # calls answered to a tool-less design request are ignored, never collected
        ignored_tool_calls=ignored,
        repaired=tuple(r.model_dump() for r in run.conversation.repairs) if not remark else (),
        requests=run.conversation.requests if parted else None,
    ))


async def _write_in_parts(ctx: StepContext, run: RunState, version: int
                          ) -> design_answer.DesignReading | design_parts.WholeAnswer:
    """The design asked in parts (``design_parts.py``): the reading of the spec its parts
    make up, or the whole answer one of its requests was given (read as ever). Steps that
    still do not read after their repair end the run at design, naming the problems."""
    answered = await design_parts.design_in_parts(ctx, run)
    if isinstance(answered, design_parts.WholeAnswer):
        return answered
    run.spec_versions = version
    content = json.dumps(answered, ensure_ascii=False)
    try:
        reading = _read(ctx, run, content)
    except SpecRejected as rejected:
        raise FailRun("design", f"the steps the model wrote make no spec of this mode "
                      f"({'; '.join(rejected.problems)}), after the repairs the design allows. "
                      f"{design_answer.ADVICE}") from None
    return _parts_warned(ctx, run, reading)


def _parts_warned(ctx: StepContext, run: RunState, reading: design_answer.DesignReading
                  ) -> design_answer.DesignReading:
    """With the design asked in parts, the second signal beside the model's: the request's
    words naming what the mode does not do, a Review warning when steps were planned."""
    if ctx.policy.design != "parts":
        return reading
    extra = design_parts.out_of_mode_warnings(run, ctx.language)
    if not extra:
        return reading
    return dataclasses.replace(reading, warnings=[*reading.warnings, *extra])


def analyst_spec(ctx: StepContext, run: RunState, spec: str | Spec | Mapping[str, Any]) -> None:
    """A spec the analyst wrote (``sam-agent run --spec``): read, reviewed against the part
    and routed as a model's, with no model asked; it waits at Review to be confirmed. A spec
    that is not one fails the run at design, naming every problem."""
    ctx.phases.set(Phase.DESIGNING, "Designing: reading the given spec (no model is asked)")
    run.spec_versions = 1
    try:
        reading = _read(ctx, run, _content(spec), checked=False)
    except SpecRejected as refused:
        raise FailRun("design", "the given spec is not a spec of this mode: "
                      + "; ".join(refused.problems)) from None
    _adopt(ctx, run, reading)
    _received(ctx, run, reading, author="analyst")


def edited_spec(ctx: StepContext, run: RunState, spec: str | Spec | Mapping[str, Any]) -> None:
    """The analyst edited the spec at Review: read by the same reader (``SpecRejected``
    names each problem, and the standing spec stays), reviewed against the part again, kept
    as a new version marked as the analyst's, with its changes by path. No model is asked."""
    # the warnings on the model's numbers stay on the values the edit did not change
    checked = run.spec_ir if run.unsourced else None
    reading = _read(ctx, run, _content(spec), keep_answer=False, checked=False, edited=checked)
    before, version = run.spec_ir, run.spec_versions + 1
    fresh = (refreshed(before, reading.spec, run.inputs.module.vocabulary, ctx.language)
             if before is not None else None)
    if fresh is not None and fresh.dropped:  # the model's words the edit made stale
        reading = _read(ctx, run, _content(fresh.spec), keep_answer=False, checked=False)
        reading.warnings[:0] = [_stale_words(ctx.language) + "; ".join(fresh.dropped)]
        run.recount = True
    if run.spec_versions == 1:
        revision.keep_version(run.dir, 1, people_words(run, ctx.units, ctx.language),
                              run.spec_ir)
    _adopt(ctx, run, reading)
    run.spec_versions = version
    run.spec_changes = (spec_changes(before, reading.spec, run.inputs.module.vocabulary,
                                     ctx.language, ctx.units) if before is not None else [])
    revision.keep_version(run.dir, version, people_words(run, ctx.units, ctx.language),
                          reading.spec)
    revision.record_remark(run.dir, version, "edited by the analyst", run.spec_changes,
                           author="analyst")
    _received(ctx, run, reading, author="analyst")


def _stale_words(language: str) -> str:
    return ("您的编辑使模型的这些说法不再成立：" if language.startswith("zh")
            else "your edit made these words of the model stale: ")


def _content(spec: str | Spec | Mapping[str, Any]) -> str:
    if isinstance(spec, Spec):
        spec = spec.as_json()
    text = spec if isinstance(spec, str) else json.dumps(spec, ensure_ascii=False)
    return visible_text_of(text)


def _received(ctx: StepContext, run: RunState, reading: design_answer.DesignReading, *,
              author: str) -> None:
    ctx.emit(DesignReceived(
        method=reading.route.method, capabilities=reading.route.capabilities,
        tools=reading.route.tools, steps=len(reading.spec.steps), spec_chars=len(reading.text),
        version=run.spec_versions, warnings=reading.warnings,
        changes=[c.as_json() for c in run.spec_changes], ignored_tool_calls=0, author=author))


def given_spec(ctx: StepContext, run: RunState, spec: str | Spec | Mapping[str, Any]) -> None:
    """A spec the caller confirmed already (``plan_calls``; the IR, its JSON, or the object):
    read, stored and routed as a written one, without a design request."""
    run.spec_versions = 1
    try:  # an agent's spec is checked as a model's; a rerun's is one the analyst confirmed
        reading = _read(ctx, run, _content(spec), checked=run.inputs.source == "mcp")
    except SpecRejected as refused:  # the caller's spec: nothing to go back to but the caller
        raise ReturnToReview("design", "the given spec is not a spec of this mode: "
                             + "; ".join(refused.problems)) from None
    _adopt(ctx, run, reading)
    ctx.emit(DesignConfirmed(tools=list(reading.route.tools), given=True))


async def _design_round(ctx: StepContext, run: RunState, messages: list[dict[str, Any]],
                        sse: str, tokens: int,
                        held: dict[str, Any] | None) -> ChatResponse:
    """One design request (no tools, I1), bounded by ``tokens`` and, where the profile takes
    it, held to the JSON Schema its answer is read against (``held``: a grammar on local
    profiles, docs/architecture.md §6 "Requests"); the answer with its text made safe to
    show."""
    spec_format = ctx.settings.capabilities.spec_format
    response_format = (spec_response_format(held, spec_format) if held is not None else
                       spec_response_format({}, spec_format) if spec_format == "json_object"
                       else None)
    options = RequestOptions(max_tokens=tokens, response_format=response_format)
    try:
        response = await ctx.calls.stream(messages, None, spec=True, sse=sse, options=options)
    except ProviderError as error:
        raise FailRun("provider", f"the design request failed: {error}",
                      provider=error.failure) from None
    content = visible_text_of(response.content or "")
    if not content:
        raise FailRun("design", "the model returned an empty spec, so there is nothing to "
                                f"review. {design_answer.ADVICE}")
    return response.model_copy(update={"content": content})


def _cut_again(tokens: int, *, looped: bool) -> str:
    if looped:
        return (f"the model's answer repeated itself: it ran to {tokens} tokens twice under "
                "the spec's grammar, which bounds every list and text (no spec needs that "
                f"much); nothing was run. {design_answer.ADVICE}")
    return ("the spec was cut off again at its output limit (max_tokens; the setting "
            "design_max_tokens raises it); shorten the request")


def _cut(response: ChatResponse) -> bool:
    return response.finish_reason == "length"


def _read_round(ctx: StepContext, run: RunState, response: ChatResponse,
                tokens: int, *, looped: bool = False) -> design_answer.DesignReading:
    """A design answer as a spec (raises SpecRejected, or DesignRefused for the refusal
    answer); one cut at its bound is never read as a spec, whatever it holds: without a
    grammar it is repaired with twice the bound (runtime/run/budgets.py); under the grammar
    (``looped``) the cut means the model repeated itself, and its repair round says so."""
    if _cut(response):
        run.dir.write_text("design.txt", response.content + "\n")
        if looped:
            raise SpecRejected([f"the answer repeated itself until it was cut off at "
                                f"{tokens} tokens: write the spec again with only the steps "
                                "the request asks for, each once, and no list longer than "
                                "the part holds"])
        raise SpecRejected([f"the answer was cut off at its limit of {tokens} tokens "
                            "(max_tokens) before the spec was complete: write it shorter, "
                            "only what the request asks for"])
    return _read(ctx, run, response.content)


def _read(ctx: StepContext, run: RunState, content: str, *,
          keep_answer: bool = True, checked: bool = True,
          edited: Spec | None = None) -> design_answer.DesignReading:
    """``content`` as a spec of the run's mode (raises SpecRejected); what the model wrote
    stays in design.txt until a spec replaces it (``keep_answer``; an analyst's edit that
    does not read leaves the standing spec's words there). ``checked``: its numbers are
    checked against what its writer was shown (a model's or an agent's; never the
    analyst's own); ``edited``: the model's spec the analyst edited, whose values the edit
    left as they were are checked still."""
    assert run.observation is not None
    readback, target = run.observation.readback, run.target
    try:
        part = ctx.host.part(target)
    except Exception:  # noqa: BLE001 - a host that cannot say: the review checks skip it
        part = None
    try:
        with selection_words(run):
            return design_answer.read_answer(
                content, run.inputs.module, target_is_empty=run.observation.target_is_empty,
                part=part, counts={"nodes": readback.node_count,
                                   "elements": readback.element_count,
                                   "shapes": dict(readback.shape_counts),
                                   "sets": list(readback.sets)},
                language=ctx.language, part_name=target.part_name,
                sources=design_inputs.shown_numbers(run, named_places(ctx, run)[1], ctx.units)
                if checked or edited is not None else None,
                unchanged_from=edited, said=(run.inputs.request, *run.conversation.remarks),
                units=ctx.units, leave_unasked=checked)
    except SpecRejected:
        if keep_answer:
            run.dir.write_text("design.txt", content + "\n")
        raise


def _adopt(ctx: StepContext, run: RunState, reading: design_answer.DesignReading) -> None:
    run.spec, run.spec_ir, run.route = reading.text, reading.spec, reading.route
    run.review_warnings = list(reading.warnings)
    run.unsourced = list(reading.unsourced)
    _store(ctx, run)


def _store(ctx: StepContext, run: RunState) -> None:
    """design.txt (the words, with the run's units as Review shows them) and spec.json (the
    data): what is shown is what is stored and confirmed."""
    words = people_words(run, ctx.units, ctx.language)
    run.dir.write_text("design.txt", words + "\n" if words else "")
    if run.spec_ir is not None:
        run.dir.write_json("spec.json", run.spec_ir.as_json())
    if run.route is not None:
        run.dir.write_json("design_route.json", run.route)


def _design_sse(version: int, *, repair: bool = False) -> str:
    """provider_design_response.sse, .2.sse per revision; ``.repair`` for its repair round."""
    stem = "provider_design_response" + ("" if version == 1 else f".{version}")
    return stem + (".repair.sse" if repair else ".sse")


def visible_text_of(content: str) -> str:
    return visible_text(content).strip()
