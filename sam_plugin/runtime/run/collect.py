"""Collecting: the model fills in the tool calls the route expects, nothing executed
(docs/architecture.md §1). Only routed tools are offered and accepted (I4), in the catalog's
canonical order (I5); a rejected answer gets a repair round while the budget lasts
(``repair.py``), else the run returns to Review.

Calls given by the caller (``plan_calls``) pass the same rules without any round, and so
do calls computed from the confirmed steps (``calls: spec``, docs/architecture.md §4 "Calls
from the steps"): the model is not asked for them at all.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, NoReturn

from sam_plugin.errors import (
    CollectionViolation,
    ProviderError,
    ReturnToReview,
    RoundRejected,
    StepsNotComputable,
)
from sam_plugin.runtime.event_types import (
    CollectionProgress,
    ConstraintDropped,
    RepairRequested,
    ToolCallCollected,
    ToolCallReconstructed,
    ToolCallRejected,
)
from sam_plugin.runtime.provider.constraint import RoundShape
from sam_plugin.runtime.run import budgets, constrained, design_answer
from sam_plugin.runtime.run.call_guard import check_calls
from sam_plugin.runtime.run.collection import (
    CallSource,
    CollectedCall,
    RoundAnswer,
    RoundCall,
    call_format_rejection,
    is_call_format_error,
    max_rounds,
    offered_tools,
    round_messages,
)
from sam_plugin.runtime.run.context import StepContext
from sam_plugin.runtime.run.phases import Phase
from sam_plugin.runtime.run.repair import Rejection, RepairBudget
from sam_plugin.runtime.run.run_phrases import in_round
from sam_plugin.runtime.run.state import RunState
from sam_plugin.runtime.store.run_store import tool_response_name
from sam_plugin.words.phrase import Phrase, phrase, render

# a call handed to ``plan_calls``: (tool name, arguments as an object or as JSON text)
GivenCall = tuple[str, Mapping[str, Any] | str]


def collecting_label(run: RunState, collected: int) -> str:
    expected = len(run.route.tools) if run.route else 0
    return f"Collecting tool calls {collected}/{expected} (collected, not executed)"


async def collect_calls(ctx: StepContext, run: RunState) -> list[CollectedCall]:
    """Rounds until every expected call is collected (I6: nothing touches SAM before)."""
    expected = run.expected_tools()
    remaining = list(expected)
    collected: list[CollectedCall] = []
    run.collection.rounds, run.collection.repairs = 0, RepairBudget(ctx.policy.repair_rounds)
    run.collection.one_call = ctx.settings.capabilities.one_call_per_round
    bound = max_rounds(expected, one_call_per_round=run.collection.one_call)
    first_answers = 0
    repair: Rejection | None = None
    while remaining:
        if repair is None:
            if first_answers >= bound:
                raise ReturnToReview("tool_call", f"the model did not deliver "
                                     f"{', '.join(remaining)} within {bound} rounds")
            first_answers += 1
        offered = offered_tools(remaining, one_call_per_round=run.collection.one_call)
        try:
            taken = await _round(ctx, run, collected, offered, repair)
        except RoundRejected as rejected:
            repair = grant_repair(ctx, run, rejected.rejection)
            continue
        repair = None
        collected += taken
        remaining = remaining[len(taken):]
        ctx.emit(CollectionProgress(collected=len(collected), expected=len(expected)))
        ctx.phases.relabel(collecting_label(run, len(collected)))
    run.collection.calls = collected
    return collected


async def recollect(ctx: StepContext, run: RunState, collected: list[CollectedCall],
                    index: int, refused: Rejection) -> CollectedCall:
    """A repair round for the one call a compile diagnostic named; the other calls stay
    collected as they are (they are shown, never re-opened)."""
    others = collected[:index] + collected[index + 1:]
    repair = grant_repair(ctx, run, refused)
    while True:
        try:
            taken = await _round(ctx, run, others, [refused.tool], repair)
        except RoundRejected as rejected:
            repair = grant_repair(ctx, run, rejected.rejection)
            continue
        return taken[0]


def given_calls(ctx: StepContext, run: RunState,
                calls: Sequence[GivenCall]) -> list[CollectedCall]:
    """Calls the caller wrote (``plan_calls``): exactly the routed tools in their canonical
    order (I4, I5), under the same size, secret and strict-JSON guard as a model's."""
    expected = run.expected_tools()
    tools = [tool for tool, _ in calls]
    if tools != expected:
        raise ReturnToReview("tool_call", f"the calls name {', '.join(tools) or 'no tool'}; "
                             f"the spec routes to {', '.join(expected)}, in that order")
    source: CallSource = "mcp" if run.inputs.source == "mcp" else "given"
    return _taken(ctx, run, [(tool, args if isinstance(args, str) else json.dumps(args))
                             for tool, args in calls], source)


def computed_calls(ctx: StepContext, run: RunState) -> list[CollectedCall]:
    """The calls computed from the confirmed steps (``calls: spec``): one per routed tool,
    in the canonical order, no model asked. A step that does not state enough sends the run
    back to Review in its words; there is no repair round, since no model wrote the call."""
    assert run.spec_ir is not None, "calls are computed from a spec IR"
    try:
        computed = run.inputs.module.calls_from_steps(run.spec_ir, run.expected_tools())
    except StepsNotComputable as refused:
        raise ReturnToReview("compile", f"the calls cannot be computed from the spec: "
                             f"{refused.message}") from None
    run.collection.computed = computed
    return _taken(ctx, run, [(c.tool, json.dumps(c.arguments, ensure_ascii=False))
                             for c in computed], "spec")


def _taken(ctx: StepContext, run: RunState, calls: Sequence[tuple[str, str]],
           source: CallSource) -> list[CollectedCall]:
    """Calls no round delivered, under the size, secret and strict-JSON guard of a model's."""
    round_calls = [RoundCall(index=i, id=f"{source}_{i + 1}", name=tool, arguments=arguments)
                   for i, (tool, arguments) in enumerate(calls)]
    try:
        check_calls(round_calls, scrubber=ctx.scrubber, max_bytes=ctx.settings.max_argument_bytes)
    except CollectionViolation as refused:
        raise ReturnToReview("tool_call", str(refused)) from None
    run.collection.calls = [CollectedCall(round=0, call_id=c.id, tool=c.name, arguments=c.arguments,
                                   source=source) for c in round_calls]
    for call in run.collection.calls:
        ctx.emit(ToolCallCollected(round=0, tool=call.tool, source=call.source))
    return list(run.collection.calls)


def grant_repair(ctx: StepContext, run: RunState, refused: Rejection) -> Rejection:
    """Grant a repair round for ``refused`` (status, event), or return to Review with the
    last diagnostic when the budget is spent."""
    repairs = run.collection.repairs
    if not repairs.spend(refused):
        raise ReturnToReview(refused.layer, repairs.exhausted_message(refused),
                             phrase=repairs.exhausted_phrase(refused))
    refused = repairs.numbered(refused)
    label = repairs.label(refused)
    ctx.emit(RepairRequested(repair=repairs.used, of=repairs.limit, layer=refused.layer,
                             tool=refused.tool, headline=refused.headline,
                             diagnostic=refused.diagnostic))
    if ctx.phases.phase != Phase.COLLECTING:
        ctx.phases.set(Phase.COLLECTING, label)
    else:
        ctx.phases.relabel(label)
    return refused


async def _round(ctx: StepContext, run: RunState, collected: list[CollectedCall],
                 offered: list[str], repair: Rejection | None) -> list[CollectedCall]:
    """One round: the calls it delivered, checked (I4, I5); raises RoundRejected for an
    answer that breaks the rules."""
    run.collection.rounds += 1
    round_number = run.collection.rounds
    module, caps = run.inputs.module, ctx.settings.capabilities
    messages = round_messages(
        system_prompt=module.collection_prompt(ctx.language),
        request=run.inputs.request,
        spec=design_answer.collection_spec(run.spec, run.spec_ir),
        collected=collected,
        remaining=offered,
        repair=repair,
    )
    definitions = module.tool_definitions(offered, strict=caps.strict_tools)
    cut = repair.cut_tokens if repair is not None else None
    shape = constrained.shape_for(
        ctx.settings, definitions, entities=_entities(run), dropped=run.collection.dropped,
        max_tokens=budgets.after_cut(cut, ctx.settings) if cut else None)
    answer = await _ask(ctx, run, messages, definitions, shape, offered, round_number)
    for call in answer.calls:
        ctx.emit(ToolCallReconstructed(
            round=round_number, tool=call.name, call_id=call.id,
            arguments_chars=len(call.arguments), source=call.source,
            recovered_from_text=call.source == "text",
        ))
    if answer.refused is not None:
        _reject(ctx, round_number, answer.refused)
    taken = []
    for call in answer.calls:
        taken.append(CollectedCall(round=round_number, call_id=call.id, tool=call.name,
                                   arguments=call.arguments, source=call.source,
                                   repair=run.collection.repairs.used if repair is not None else 0))
        ctx.emit(ToolCallCollected(round=round_number, tool=call.name, source=call.source))
    return taken


async def _ask(ctx: StepContext, run: RunState, messages: list[dict[str, Any]],
               definitions: list[dict[str, Any]], shape: RoundShape, offered: list[str],
               round_number: int) -> RoundAnswer:
    """One round's request and its answer, read as its shape asked; a constrained request
    the server refuses or breaks is read as the unconstrained answer it is, else asked
    again once, unconstrained (``constrained.py``)."""
    caps = ctx.settings.capabilities
    known = set(run.inputs.module.tool_names.values())

    def guard(calls: Sequence[RoundCall]) -> None:
        check_calls(calls, scrubber=ctx.scrubber, max_bytes=ctx.settings.max_argument_bytes)

    for attempt in (shape, constrained.retry_shape(shape, definitions)):
        run.collection.sse_count += 1
        try:
            response = await ctx.calls.stream(
                constrained.with_call_note(messages, attempt, definitions), attempt.tools,
                spec=False, sse=tool_response_name(run.collection.sse_count),
                options=attempt.options)
        except ProviderError as error:
            if constrained.refused(error, attempt):
                _drop_constraint(ctx, run, attempt, round_number, str(error))
                continue
            if not is_call_format_error(error.message):
                raise ReturnToReview("provider", f"round {round_number}: {error}",
                                     provider=error.failure,
                                     phrase=in_round(round_number, phrase(
                                         "run.provider_call", said=str(error)))) from None
            run.collection.one_call = True  # the server takes one call per answer: ask for one
            _reject(ctx, round_number,
                    call_format_rejection(error.message, offered, round_number))
        answer = constrained.read_answer(response, attempt, offered, known,
                                         text_calls=caps.text_tool_calls,
                                         round_number=round_number, guard=guard)
        if answer is not None:
            return answer
        _drop_constraint(ctx, run, attempt, round_number,
                         "the answer was not the JSON the constraint asked for")
        answer = constrained.read_broken(response, offered, known,
                                         text_calls=caps.text_tool_calls,
                                         round_number=round_number, guard=guard)
        if answer is not None:
            return answer
    raise AssertionError("unreachable: an unconstrained answer is always read")


def _drop_constraint(ctx: StepContext, run: RunState, shape: RoundShape, round_number: int,
                     reason: str) -> None:
    run.collection.dropped.add(shape.tool)
    ctx.emit(ConstraintDropped(round=round_number, tool=shape.tool,
                               constraint=shape.constraint, reason=reason))


def _entities(run: RunState) -> int:
    """Nodes and elements of the observed target (a call's output bound, budgets.py)."""
    part = run.observation.part if run.observation is not None else None
    return part.node_count + part.element_count if part is not None else 0


def round_reason(refused: Rejection) -> str:
    """Why a round was refused, without its round (``tool_call_rejected``'s ``reason``):
    the English of its phrase's reason."""
    said = refused.phrase
    reason = said.values.get("reason") if said is not None and said.key == "run.round" else None
    return render(reason) if isinstance(reason, Phrase) else refused.diagnostic


def _reject(ctx: StepContext, round_number: int, refused: Rejection) -> NoReturn:
    ctx.emit(ToolCallRejected(round=round_number, reason=round_reason(refused)))
    raise RoundRejected(refused)
