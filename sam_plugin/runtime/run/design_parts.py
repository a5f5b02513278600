"""Designing, asked in parts (docs/architecture.md §4 "The design, asked in parts"): first the
actions the request needs, each with the words it answers, or the one category the mode does
not do; then each action's values under that action's own grammar, showing the model only
what that action needs of the part; then, for a step that does not read, compute or compile,
one repair request for that step alone, naming the diagnostic (at most
:data:`DESIGN_STEP_REPAIRS` in a run). The design phase offers no tools (I1).

The steps make up the one spec the analyst confirms, read by the same reader as a whole
answer. A whole spec (or ``{"refuse": ...}``) answered to any of these requests is taken as
the design answer, so providers and scripted tests that answer in one object keep working.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from sam_plugin.compilers.schema_common import SHAPE_VALUES
from sam_plugin.compilers.spec import parts
from sam_plugin.compilers.spec.model_json import model_json
from sam_plugin.compilers.spec.out_of_mode import (
    out_of_mode,
    out_of_mode_warning,
    refused_by_words,
    words_refusal,
)
from sam_plugin.compilers.spec.reading import json_object_of, spec_from_json
from sam_plugin.compilers.spec.refusal_words import refusal_sentence
from sam_plugin.compilers.spec.schema import ScopeBounds, picking
from sam_plugin.compilers.spec.vocabulary import ActionDef
from sam_plugin.compilers.units import DEFAULT as DEFAULT_UNITS
from sam_plugin.compilers.units import UnitSystem
from sam_plugin.errors import (
    FailRun,
    ProviderError,
    RefusedByCategory,
    RouteRefused,
    SpecRejected,
)
from sam_plugin.runtime.event_types import RepairRequested
from sam_plugin.runtime.observe.place_words import names_a_place
from sam_plugin.runtime.provider.constraint import spec_response_format
from sam_plugin.runtime.provider.types import ChatResponse, RequestOptions
from sam_plugin.runtime.run import budgets
from sam_plugin.runtime.run.context import StepContext
from sam_plugin.runtime.run.design_answer import ADVICE
from sam_plugin.runtime.run.design_context import target_state_note
from sam_plugin.runtime.run.state import RunState
from sam_plugin.runtime.run.step_check import failing_step
from sam_plugin.runtime.run.step_repair import StepRepair
from sam_plugin.runtime.text_safety import visible_text

log = logging.getLogger(__name__)

DESIGN_STEP_REPAIRS = 2  # repair requests of the design in a run (the first question's too)
STEP_TOKENS_MIN = 256


@dataclass
class WholeAnswer:
    """A request of the parts answered with a whole spec (or a refusal): read as ever."""

    messages: list[dict[str, Any]]
    response: ChatResponse
    tokens: int
    held: dict[str, Any] | None


@dataclass
class PartsDesign:
    """The parts of one design: the plan, each step's answer, the repairs spent."""

    planned: list[parts.PlannedAction] = field(default_factory=list)
    answers: list[dict[str, Any]] = field(default_factory=list)
    examples: list[dict[str, Any]] = field(default_factory=list)
    repaired: list[StepRepair] = field(default_factory=list)


async def design_in_parts(ctx: StepContext, run: RunState) -> WholeAnswer | dict[str, Any]:
    """The spec document the parts make up; or the whole answer a request was given, or the
    first answer when it is no plan (the caller reads it as a whole design answer). Raises
    :class:`RefusedByCategory` for a category: the request's own words asking for what the
    mode does not do (before any request), or the model's first answer planning nothing."""
    refuse_by_words(run, ctx.language)
    state = PartsDesign(repaired=run.conversation.repairs)
    first = await _ask_actions(ctx, run, state)
    if isinstance(first, WholeAnswer):
        return first
    state.planned = list(first.actions)
    for index in range(len(state.planned)):
        answered = await _ask_step(ctx, run, state, index)
        if isinstance(answered, WholeAnswer):
            return answered
    return await _repaired(ctx, run, state)


# -- the first question -------------------------------------------------------------------


def _head(run: RunState) -> str:
    """What every request of the parts shares: target, its state, the request."""
    assert run.observation is not None
    inputs = run.inputs
    selection = inputs.selection.prompt_line() if inputs.selection is not None else ""
    note = target_state_note(run.observation, inputs.target.part_name)
    explored = f"Exploration (read-only): {run.exploration}\n" if run.exploration else ""
    return (f"Mode: {inputs.mode}. Target: model {inputs.target.model_name!r}, part "
            f"{inputs.target.part_name!r}.\n{note}\n{explored}Request:\n{inputs.request}"
            + (f"\n{selection}" if selection else ""))


def _actions_messages(ctx: StepContext, run: RunState) -> list[dict[str, Any]]:
    return [{"role": "system", "content": _system(ctx, run)},
            {"role": "user", "content": _head(run)}]


def _system(ctx: StepContext, run: RunState) -> str:
    vocabulary = run.inputs.module.vocabulary
    intro = (f"You are the design assistant of SAM Agent, working on ONE part of a SAM "
             f"(Abaqus-like) model in its {vocabulary.title} mode. First decide which actions "
             "of this mode the analyst's request needs, or that the mode does not do it; then "
             "write each action's values.")
    return parts.parts_prompt(vocabulary, intro, ctx.language)


async def _ask_actions(ctx: StepContext, run: RunState, state: PartsDesign
                       ) -> parts.ActionsAnswer | WholeAnswer:
    """The actions, or a category (raises); any other answer (a whole spec, the refusal
    answer, prose, an answer cut at its bound) is a design answer read as ever, with its
    one design repair round."""
    vocabulary = run.inputs.module.vocabulary
    messages = _actions_messages(ctx, run)
    held = _held(ctx, parts.actions_schema(vocabulary, legal_actions(run)))
    tokens = budgets.design_tokens(ctx.settings, held)
    response = await _ask(ctx, run, messages, "provider_design_response.sse", tokens, held)
    answer = None if _cut(response) else parts.read_actions(_document(response), vocabulary)
    if answer is None:
        return WholeAnswer(messages, response, tokens, held)
    if answer.category is not None:
        raise RefusedByCategory(answer.category, _refused(run, answer, ctx.language))
    return answer


def legal_actions(run: RunState) -> list[str]:
    """The actions the target as observed allows, each alone: the route says which (an empty
    part can only be built, an existing one is edited), so the first answer cannot plan a
    build on a part that has nodes, or an edit of a part that has none."""
    module = run.inputs.module
    empty = run.observation is None or run.observation.target_is_empty
    legal = []
    for action in module.vocabulary.actions:
        try:
            routed = module.route_steps([action.capability], empty).capabilities
        except RouteRefused:
            continue
        if action.capability in routed:  # as the reader holds a spec (design_answer)
            legal.append(action.name)
    return legal


def _refused(run: RunState, answer: parts.ActionsAnswer, language: str) -> str:
    assert answer.category is not None
    zh = language.lower().startswith("zh")
    said = (f"模型引用的原话：“{answer.words}”。" if zh else
            f" The model quoted: “{answer.words}”.") if answer.words else ""
    return refusal_sentence(answer.category, run.inputs.mode, language) + said


# -- then each action's values ------------------------------------------------------------


async def _ask_step(ctx: StepContext, run: RunState, state: PartsDesign,
                    index: int) -> WholeAnswer | None:
    """Step ``index``'s answer into ``state.answers`` (asked only when the action has
    something to ask); a whole answer given instead is handed back."""
    action = _action(run, state, index)
    facts = step_facts(run, state, index)
    example = parts.example_answer(action, facts)
    state.examples.append(example)
    if not parts.asks_values(action):
        state.answers.append({"values": {}})
        return None
    messages = _values_messages(ctx, run, state, index, facts, example)
    held = _held(ctx, parts.step_grammar(action, facts))
    tokens = max(STEP_TOKENS_MIN, budgets.design_tokens(ctx.settings, held))
    response = await _ask(ctx, run, messages, f"provider_design_response.step{index + 1}"
                          ".sse", tokens, held)
    document = _document(response)
    if _is_whole(document):
        return WholeAnswer(messages, response, tokens, held)
    state.answers.append(document if isinstance(document, dict) else {})
    problems = _step_problems(run, state, index, facts)
    if problems and _spend(ctx, run, state, index + 1, action.name, "; ".join(problems)):
        return await _ask_again(ctx, run, state, index, messages, response, problems, held,
                                tokens)
    return None


async def _ask_again(ctx: StepContext, run: RunState, state: PartsDesign, index: int,
                     messages: list[dict[str, Any]], response: ChatResponse | None,
                     problems: Sequence[str], held: dict[str, Any] | None,
                     tokens: int) -> WholeAnswer | None:
    """The one repair request of step ``index``, naming its diagnostic."""
    said = model_json(state.answers[index])
    repair = [*messages, {"role": "assistant", "content": response.content if response
                          else said},
              {"role": "user", "content": "SAM Agent cannot use this step:\n"
               + "\n".join(f"- {p}" for p in problems)
               + "\nAnswer again with this step only, as one JSON object."}]
    again = await _ask(ctx, run, repair,
                       f"provider_design_response.step{index + 1}.repair.sse", tokens, held)
    document = _document(again)
    if _is_whole(document):
        return WholeAnswer(repair, again, tokens, held)
    if isinstance(document, dict):
        state.answers[index] = document
    return None


def _action(run: RunState, state: PartsDesign, index: int) -> ActionDef:
    action = run.inputs.module.vocabulary.action(state.planned[index].action)
    assert action is not None  # read_actions keeps only the vocabulary's actions
    return action


def _step_problems(run: RunState, state: PartsDesign, index: int,
                   facts: parts.StepFacts) -> list[str]:
    """What is wrong with step ``index`` alone: its grammar, the reader, a copied example."""
    action = _action(run, state, index)
    answer = state.answers[index]
    if not answer:
        return ['the answer is not one JSON object {"scope":...,"values":...}']
    found = parts.step_problems(action, answer, facts)
    if parts.copied_example(answer, state.examples[index]):
        found.append("this is the example's answer, with its made-up numbers, not this "
                     "request's: write the values the request states")
    document = parts.assembled([state.planned[index]], [answer], run.inputs.module.vocabulary)
    try:
        spec_from_json(parts.one_step_spec(document["steps"][0]),
                       run.inputs.module.vocabulary)
    except SpecRejected as rejected:
        found += [p.replace("steps[0].", "").replace("steps[0]", "the step")
                  for p in rejected.problems]
    return found


def shape_counts(run: RunState) -> dict[str, int]:
    """The observed part's elements by shape, in the schema's order."""
    counts = {str(shape): n for shape, n in run.before.shape_counts.items()} \
        if run.before is not None else {}
    return {shape: n for shape in SHAPE_VALUES if (n := counts.get(shape, 0)) > 0}


def step_facts(run: RunState, state: PartsDesign, index: int) -> parts.StepFacts:
    """What the part and the steps before this one let it name."""
    part = run.observation.part if run.observation is not None else None
    readback = run.before
    regions = run.regions
    top = 0
    first: tuple[int, ...] = ()
    if regions is not None:
        spans = [r for r in (regions.element_labels, regions.node_labels) if r]
        top = max((r[1] for r in spans), default=0)
        if regions.element_labels:
            low = regions.element_labels[0]
            first = tuple(range(low, min(low + 2, regions.element_labels[1] + 1)))
    bounds = ScopeBounds(sets=tuple(readback.sets) if readback else (), max_label=top,
                         entities=(readback.node_count + readback.element_count)
                         if readback else 0)
    names: dict[str, list[str]] = {
        "sections": list(part.sections) if part else [],
        "materials": list(part.materials) if part else [],
    }
    for earlier in range(index):
        defined = parts.defined_names(_action(run, state, earlier), state.answers[earlier])
        if defined is not None:
            names.setdefault(defined[0], []).append(defined[1])
    extent = (0.0, 0.0, 0.0)
    if part is not None and part.bounding_box is not None:
        low_corner, high_corner = part.bounding_box
        extent = (high_corner[0] - low_corner[0], high_corner[1] - low_corner[1],
                  high_corner[2] - low_corner[2])
    return parts.StepFacts(bounds=bounds,
                           names={k: tuple(dict.fromkeys(v)) for k, v in names.items()},
                           first_labels=first, extent=extent)


def _values_messages(ctx: StepContext, run: RunState, state: PartsDesign, index: int,
                     facts: parts.StepFacts, example: Mapping[str, Any]
                     ) -> list[dict[str, Any]]:
    module = run.inputs.module
    written = []
    for earlier in range(index):
        document = parts.assembled([state.planned[earlier]], [state.answers[earlier]],
                                   module.vocabulary)
        try:
            written += list(spec_from_json(document, module.vocabulary).steps)
        except SpecRejected:
            continue
    return parts.values_messages(
        system=_system(ctx, run), head=_head(run),
        facts_text=_with_readings(_facts_text(run, _action(run, state, index), facts),
                                  run, ctx.units or DEFAULT_UNITS),
        planned=state.planned, index=index, written=written, vocabulary=module.vocabulary,
        example=example)


def _with_readings(facts_text: str, run: RunState, system: UnitSystem) -> str:
    """The facts, then the request's quantities converted into ``system`` (the model's
    units; the product's default, mm-N-t-s, where none is known) and its indirect counts in
    the mode's values."""
    request = run.inputs.request
    readings = parts.readings_words(request, system, run.inputs.module.request_counts(request))
    return f"{facts_text}\n{readings}" if readings else facts_text


def _facts_text(run: RunState, action: ActionDef, facts: parts.StepFacts) -> str:
    """Only what this action needs of the observation: the part's size; its labels and sets
    for a scope; the regions where the request names a place; names for a step naming
    them."""
    part = run.observation.part if run.observation is not None else None
    if part is None or (part.node_count == 0 and part.element_count == 0):
        return "The part is empty or missing."
    shown: dict[str, Any] = {"nodes": part.node_count, "elements": part.element_count,
                             "shapes": dict(part.shape_counts),
                             "bounding_box": part.bounding_box}
    if action.scope != "none" or any(v.kind == "labels" for v in action.values.values()):
        regions = run.regions
        if regions is not None:
            shown["node_labels"] = regions.node_labels
            shown["element_labels"] = regions.element_labels
            if names_a_place(run.inputs.request):
                shown["regions"] = regions.model_dump(mode="json")
        shown["sets"] = [s.model_dump(mode="json") for s in part.sets]
    # in a fixed order (what it refers to, then what it defines): a set's order would change
    # with the interpreter's hash seed, and with it the bytes a model is sent
    for kind in dict.fromkeys([*action.refers.values(),
                               *([action.defines[0]] if action.defines else [])]):
        shown[kind] = list(facts.names.get(kind, ()))
    return ("The part (JSON): "
            + model_json(shown))


# -- the steps together: read, computed, compiled; one repair a step ------------------------


async def _repaired(ctx: StepContext, run: RunState, state: PartsDesign) -> dict[str, Any]:
    """The assembled document after the steps that do not compute or compile were asked
    again (once each, within the run's budget)."""
    vocabulary = run.inputs.module.vocabulary
    asked_again = {r.step for r in state.repaired}
    while True:
        document = parts.assembled(state.planned, state.answers, vocabulary, ctx.language)
        failing = failing_step(ctx, run, document)
        if failing is None:
            return document
        index, reason = failing.index, failing.reason
        action = _action(run, state, index)
        if failing.other_action:
            return document  # its action was planned: a values question cannot unmake it
        if index + 1 in asked_again or not parts.asks_values(action) \
                or not _spend(ctx, run, state, index + 1, action.name, reason):
            return document
        asked_again.add(index + 1)
        facts = step_facts(run, state, index)
        messages = _values_messages(ctx, run, state, index, facts, state.examples[index])
        bounds, needs = picking(facts.bounds, failing.needs, shape_counts(run))
        held = _held(ctx, parts.step_grammar(action, dataclasses.replace(facts, bounds=bounds),
                                             needs))
        tokens = max(STEP_TOKENS_MIN, budgets.design_tokens(ctx.settings, held))
        whole = await _ask_again(ctx, run, state, index, messages, None, [reason], held,
                                 tokens)
        if whole is not None:  # a whole spec in a repair: its steps are the answer
            document = _document(whole.response)
            return document if isinstance(document, dict) else {}


# -- the requests ---------------------------------------------------------------------------


def _held(ctx: StepContext, schema: dict[str, Any]) -> dict[str, Any] | None:
    return schema if ctx.settings.capabilities.spec_format == "json_schema" else None


async def _ask(ctx: StepContext, run: RunState, messages: list[dict[str, Any]], sse: str,
               tokens: int, held: dict[str, Any] | None) -> ChatResponse:
    """One request of the parts (no tools, I1), held to its grammar where the profile takes
    one; the answer's text made safe to show."""
    spec_format = ctx.settings.capabilities.spec_format
    response_format = (spec_response_format(held, spec_format) if held is not None else
                       spec_response_format({}, spec_format) if spec_format == "json_object"
                       else None)
    options = RequestOptions(max_tokens=tokens, response_format=response_format)
    run.conversation.requests += 1
    try:
        response = await ctx.calls.stream(messages, None, spec=True, sse=sse, options=options)
    except ProviderError as error:
        raise FailRun("provider", f"the design request failed: {error}",
                      provider=error.failure) from None
    content = visible_text(response.content or "").strip()
    if not content:
        raise FailRun("design", "the model returned an empty spec, so there is nothing to "
                      f"review. {ADVICE}")
    return response.model_copy(update={"content": content})


def _cut(response: ChatResponse) -> bool:
    return response.finish_reason == "length"


def _document(response: ChatResponse) -> Any:
    try:
        return json_object_of(response.content or "")
    except SpecRejected:
        return None


def _is_whole(document: Any) -> bool:
    """A whole spec, or the refusal answer: the design answer as ever."""
    return isinstance(document, dict) and ("steps" in document or list(document) == ["refuse"])


def _spend(ctx: StepContext, run: RunState, state: PartsDesign, step: int, action: str,
           reason: str) -> bool:
    return spend_repair(ctx, state.repaired, step, action, reason)


def spend_repair(ctx: StepContext, repaired: list[StepRepair], step: int, action: str,
                 reason: str, *, spent: int = 0) -> bool:
    """One repair of the run's design budget (``repaired``: the run's repairs so far;
    ``spent``: other design repair requests it made), kept and said as an event; False when
    the budget is spent. The design asked whole spends from the same budget."""
    if spent + len(repaired) >= DESIGN_STEP_REPAIRS:
        return False
    repaired.append(StepRepair(step=step, action=action, reason=reason))
    ctx.emit(RepairRequested(repair=len(repaired), of=DESIGN_STEP_REPAIRS,
                             layer="design", tool="", headline=reason, problems=[reason],
                             stage="design", step=step))
    return True


def refuse_by_words(run: RunState, language: str, model_said: str = "") -> None:
    """The second signal as a refusal: the request's words ask for a category the mode does
    not do and name nothing it does (``out_of_mode.refused_by_words``); ``model_said``: the
    reason of a model that refused too, quoted after."""
    asked = refused_by_words(run.inputs.request, run.inputs.mode)
    if asked is None:
        return
    message = words_refusal(asked, run.inputs.mode, language)
    if model_said:
        message += (f"模型的回答：“{model_said}”。" if language.lower().startswith("zh")
                    else f" The model answered: “{model_said}”.")
    raise RefusedByCategory(asked.category, message)


def out_of_mode_warnings(run: RunState, language: str) -> list[str]:
    """The second signal: the request's words naming what the mode does not do, said at
    Review when actions were planned anyway."""
    return [out_of_mode_warning(finding, run.inputs.mode, language)
            for finding in out_of_mode(run.inputs.request, run.inputs.mode)]
