"""Observing → (Exploring): read the target read-only into ``workspace.json`` (L0–L3), record
the values checked after the run, and ask bounded read-only questions before the spec
(docs/architecture.md §1).
"""

from __future__ import annotations

import asyncio
import logging

from sam_plugin.errors import ExplorationChangedModel, FailRun, ProviderError
from sam_plugin.runtime.event_types import ObservationCompleted
from sam_plugin.runtime.observe.exploration import explore
from sam_plugin.runtime.observe.observation import Observation, observe, target_fingerprint
from sam_plugin.runtime.observe.regions import region_index
from sam_plugin.runtime.run import budgets
from sam_plugin.runtime.run.context import StepContext
from sam_plugin.runtime.run.phases import Phase
from sam_plugin.runtime.run.prompt_observation import prompt_observation
from sam_plugin.runtime.run.state import RunState
from sam_plugin.runtime.run.target_check import building_module, target_problem

log = logging.getLogger(__name__)


def observe_target(ctx: StepContext, run: RunState) -> None:
    """Observing: the request kept, L0–L3 of the target read (read-only) into
    ``workspace.json``; the values checked after the run are recorded before it."""
    inputs = run.inputs
    ctx.phases.set(Phase.OBSERVING, "Observing the workspace (read-only)")
    run.dir.write_text("request.txt", inputs.request)
    if inputs.selection is not None:  # what the request acts on, frozen with the target
        run.dir.write_json("selection.json", inputs.selection.model_dump(mode="json"))
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
    ctx.emit(ObservationCompleted(
        target_exists=observation.index.target_part_exists,
        node_count=observation.readback.node_count,
        element_count=observation.readback.element_count,
        fingerprint=observation.fingerprint,
    ))


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
            "on an existing part: pick one, or build it in "
            f"{building_module().title} mode first",
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
        raise FailRun("provider", f"the exploration request failed: {error}",
                      provider=error.failure) from None
    run.dir.write_json("exploration.json", result)
    for turn, raw in enumerate(result.raw_sse, start=1):
        run.dir.write_bytes(f"provider_exploration_response.{turn}.sse", raw)
    return result.design_context()
