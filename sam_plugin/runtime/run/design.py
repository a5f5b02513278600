"""Observing → (Exploring) → Designing: read the target, ask the model for the spec with no
tools at all (I1), route it to capabilities (docs/architecture.md §1, §4 "The spec").

What the analyst sees is what is stored and sent as confirmed: the spec is the streamed
content through the same filter as its deltas (``visible_text``).
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

from sam_plugin.compilers.protocol import Route
from sam_plugin.compilers.spec.ir import Spec
from sam_plugin.errors import (
    ExplorationChangedModel,
    FailRun,
    ProviderError,
    ReturnToReview,
    RouteRefused,
)
from sam_plugin.runtime.observe.exploration import explore
from sam_plugin.runtime.observe.observation import Observation, observe, target_fingerprint
from sam_plugin.runtime.observe.regions import region_index
from sam_plugin.runtime.provider.types import ChatResponse, RequestOptions
from sam_plugin.runtime.run import budgets, revision
from sam_plugin.runtime.run.collection import design_messages
from sam_plugin.runtime.run.context import StepContext
from sam_plugin.runtime.run.design_check import unworthy_spec
from sam_plugin.runtime.run.design_context import target_state_note
from sam_plugin.runtime.run.phases import Phase
from sam_plugin.runtime.run.state import RunState
from sam_plugin.runtime.run.target_check import target_problem
from sam_plugin.runtime.text_safety import visible_text

log = logging.getLogger(__name__)


def observe_target(ctx: StepContext, run: RunState) -> None:
    """Observing: the request kept, L0–L3 of the target read (read-only) into
    ``workspace.json``; the values checked after the run are recorded before it."""
    inputs = run.inputs
    ctx.phases.set(Phase.OBSERVING, "Observing the workspace (read-only)")
    run.dir.write_text("request.txt", inputs.request)
    try:
        observation = observe(ctx.host, inputs.mode, inputs.target)
    except Exception as error:  # the host's own failure, reported at its layer
        log.exception("observation failed")
        raise FailRun("observation", f"could not read the workspace: {error}") from None
    _check_target_exists(run, observation)
    run.observation = observation
    run.before = observation.readback
    if not observation.target_is_empty:
        run.regions = region_index(ctx.host.part(inputs.target), observation.fingerprint,
                                   cache=ctx.regions)
    workspace = observation.model_dump(mode="json")
    workspace["regions"] = run.regions.model_dump(mode="json") if run.regions else None
    run.dir.write_json("workspace.json", workspace)
    _record_values(ctx, run)
    ctx.emit("observation_completed", {
        "target_exists": observation.index.target_part_exists,
        "node_count": observation.readback.node_count,
        "element_count": observation.readback.element_count,
        "fingerprint": observation.fingerprint,
    })


def _check_target_exists(run: RunState, observation: Observation) -> None:
    """Fail before any provider call when the target cannot be acted on."""
    target, module = run.target, run.inputs.module
    problem = target_problem({m.name: m.parts for m in observation.index.models}, target,
                             module)
    if problem is not None and problem.missing == "model":
        raise FailRun("observation", f"model {target.model_name!r} does not exist; "
                      f"models: {', '.join(problem.models) or 'none'}")
    if problem is not None:
        raise FailRun(
            "observation",
            f"part {target.part_name!r} does not exist in model {target.model_name!r} "
            f"(parts: {', '.join(problem.parts) or 'none'}); {module.title} mode works "
            "on an existing part: pick one, or build it in Part mode first",
        )


def _record_values(ctx: StepContext, run: RunState) -> None:
    """The values the domain checks after the run, as observed (``DomainModule``)."""
    try:
        run.inputs.module.record_values(run.dir.path, ctx.host.model(run.target.model_name))
    except Exception:  # a host that cannot say: nothing to compare later
        log.debug("values not read before run %s", run.inputs.run_id, exc_info=True)


async def explore_target(ctx: StepContext, run: RunState) -> None:
    """Bounded read-only questions about the target before the spec (docs/architecture.md
    §1): the facts go into the design request as text; it still has no tools (I1)."""
    assert run.observation is not None
    if run.observation.target_is_empty:
        ctx.phases.set(Phase.EXPLORING, "Exploring skipped: the target part is missing or empty")
        return
    ctx.phases.set(Phase.EXPLORING, "Exploring the target (read-only)")
    if ctx.explorer is not None:
        try:
            found = ctx.explorer(ctx.host, run.observation)
            if asyncio.iscoroutine(found):
                found = await found
        except Exception as error:
            raise FailRun("observation", f"exploration failed: {error}") from None
        run.exploration = str(found or "")
        return
    run.exploration = await _explore_with_model(ctx, run)


async def _explore_with_model(ctx: StepContext, run: RunState) -> str:
    assert run.observation is not None
    target, fingerprint = run.target, run.observation.fingerprint
    summary = prompt_observation(run)
    try:
        result = await ctx.calls.task(lambda provider: explore(
            provider,
            request=run.inputs.request,
            observation_summary=summary,
            part=ctx.host.part(target),
            fingerprint_fn=lambda: target_fingerprint(ctx.host.readback(target)),
            fingerprint=fingerprint,
            listener=ctx.emit,
            cache=ctx.regions,
            max_tokens=budgets.design_tokens(ctx.settings),
        ))
    except ExplorationChangedModel as error:
        raise FailRun("observation", str(error)) from None
    except ProviderError as error:
        if error.raw_sse:  # every byte received is evidence, a failed turn's too
            run.dir.write_bytes("provider_exploration_response.failed.sse", error.raw_sse)
        raise FailRun("provider", f"the exploration request failed: {error}") from None
    run.dir.write_json("exploration.json", result)
    for turn, raw in enumerate(result.raw_sse, start=1):
        run.dir.write_bytes(f"provider_exploration_response.{turn}.sse", raw)
    return result.design_context()


def prompt_observation(run: RunState) -> dict[str, Any]:
    """L0/L1 (and L2 when the target has geometry): bounded whatever the model size."""
    assert run.observation is not None
    summary: dict[str, Any] = json.loads(run.observation.prompt_json())
    if run.regions is not None:
        summary["regions"] = run.regions.model_dump(mode="json")
    return summary


async def write_spec(ctx: StepContext, run: RunState, remark: str = "") -> None:
    """The design request (no tools, I1), or a revision of the spec with ``remark``; the
    spec and its route become the run's only when every check holds. A revision that fails
    leaves the standing spec as it was (and ``design.txt`` showing it)."""
    assert run.observation is not None
    if remark:
        messages = revision.revision_messages(run.design_messages, run.spec, remark,
                                              ctx.language)
    else:
        messages = run.design_messages = _design_messages(ctx, run)
    version = run.spec_versions + 1
    sse = ("provider_design_response.sse" if version == 1
           else f"provider_design_response.{version}.sse")
    tokens = budgets.design_tokens(ctx.settings)
    try:
        response = await ctx.calls.stream(messages, None, spec=True, sse=sse,
                                          options=RequestOptions(max_tokens=tokens))
        if response.finish_reason == "length" and visible_text_of(response.content):
            response = await _after_cut(ctx, messages, sse, tokens)
    except ProviderError as error:
        raise FailRun("provider", f"the design request failed: {error}") from None
    spec = visible_text_of(response.content)
    run.dir.write_text("design.txt", spec + "\n" if spec else "")
    run.spec_versions = version
    if remark:
        revision.keep_version(run.dir, version, spec)
        revision.record_remark(run.dir, version, remark)
    else:
        run.spec = spec  # shown even when a check below refuses it
    try:
        route = _route(run, spec, cut_off=response.finish_reason == "length")
    except FailRun:
        if remark:
            run.dir.write_text("design.txt", run.spec + "\n")
        raise
    run.spec, run.route = spec, route
    run.dir.write_json("design_route.json", route)
    ctx.emit("design_received", {
        "method": route.method,
        "capabilities": route.capabilities,
        "tools": route.tools,
        "spec_chars": len(spec),
        "version": version,
        # calls answered to a tool-less design request are ignored, never collected
        "ignored_tool_calls": len(response.tool_calls),
    })


async def _after_cut(ctx: StepContext, messages: list[dict[str, Any]], sse: str,
                     tokens: int) -> ChatResponse:
    """A design answer cut at its bound gets one repair round with twice the bound
    (runtime/run/budgets.py); its answer goes to ``<sse>.repair.sse``."""
    headline = f"the spec was cut off at its limit of {tokens} tokens (max_tokens)"
    ctx.emit("repair_requested", {"repair": 1, "of": 1, "layer": "design", "tool": "",
                                  "headline": headline, "diagnostic": headline})
    note = (f"Your previous answer was cut off at its limit of {tokens} tokens before it was "
            "complete. Write the whole spec again, shorter: only what the request asks for.")
    again = [*messages, {"role": "user", "content": note}]
    return await ctx.calls.stream(again, None, spec=True,
                                  sse=sse.removesuffix(".sse") + ".repair.sse",
                                  options=RequestOptions(max_tokens=2 * tokens))


def given_spec(ctx: StepContext, run: RunState, spec: str | Spec) -> None:
    """A spec the caller confirmed already (``plan_calls``): stored and routed as a written
    one, without a design request. A spec IR is kept as ``spec.json`` (what the calls are
    bound to) and routed by its steps' capabilities."""
    if isinstance(spec, Spec):
        run.spec_ir = spec
        run.dir.write_json("spec.json", spec.as_json())
        spec = _given_words(spec, run.inputs.module.title)
    spec = visible_text_of(spec)
    run.dir.write_text("design.txt", spec + "\n" if spec else "")
    run.spec_versions = 1
    run.spec = spec
    try:
        run.route = _route(run, spec, cut_off=False)
    except FailRun as refused:  # the caller's spec: nothing to go back to but the caller
        raise ReturnToReview(refused.layer, refused.message) from None
    run.dir.write_json("design_route.json", run.route)
    ctx.emit("design_confirmed", {"tools": list(run.route.tools), "given": True})


def _given_words(spec: Spec, title: str) -> str:
    """The words of a given spec IR: its summary, each step's own text, and the capability
    line of its steps (read by the same routing rule as a written spec)."""
    steps = [f"{n}. {step.text or step.action}" for n, step in enumerate(spec.steps, start=1)]
    return "\n".join([spec.summary, "", *steps, "",
                      f"Planned {title} capabilities: {', '.join(spec.capabilities())}"])


def _route(run: RunState, spec: str, *, cut_off: bool) -> Route:
    assert run.observation is not None
    module = run.inputs.module
    if cut_off and spec:
        raise FailRun("design", "the spec was cut off again at its output limit (max_tokens; "
                      "the setting design_max_tokens raises it); shorten the request")
    unworthy = unworthy_spec(spec, module.title)
    if unworthy:
        raise FailRun("design", unworthy)
    try:
        return module.route(spec, run.observation.target_is_empty)
    except RouteRefused as refused:
        raise FailRun("design", str(refused)) from None


def visible_text_of(content: str) -> str:
    return visible_text(content).strip()


def _design_messages(ctx: StepContext, run: RunState) -> list[dict[str, Any]]:
    assert run.observation is not None
    inputs = run.inputs
    return design_messages(
        system_prompt=inputs.module.design_prompt(ctx.language),
        mode=inputs.mode,
        target=inputs.target,
        target_note=target_state_note(run.observation, inputs.target.part_name),
        observation=prompt_observation(run),
        exploration=run.exploration,
        request=inputs.request,
    )
