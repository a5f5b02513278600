"""How a run ends, each ending written to ``result.json`` with its event
(docs/architecture.md §1, §7): verified, failed (at a layer, with what became of the part),
returned to Review, rejected (a run from given calls that did not compile), cancelled.

A step ends a run early by raising ``ReturnToReview`` or ``FailRun`` (``sam_plugin.errors``);
the controller turns those into the endings here.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import traceback
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

from sam_plugin.compilers.evidence import Check, Readback
from sam_plugin.compilers.spec.refusal_category import REFUSAL_CATEGORIES, RefusalCategory
from sam_plugin.errors import FailRun, ProviderFailure, RefusedByCategory, ReturnToReview
from sam_plugin.runtime.event_types import (
    ReadbackVerified,
    ReturnedToReview,
    RunCancelled,
    RunFailed,
)
from sam_plugin.runtime.run.context import StepContext
from sam_plugin.runtime.run.drift import DRIFT_MESSAGE
from sam_plugin.runtime.run.phases import TERMINAL, Phase
from sam_plugin.runtime.run.run_phrases import said
from sam_plugin.runtime.run.state import RunState
from sam_plugin.runtime.store.outcome_seal import seal_outcome
from sam_plugin.runtime.store.run_store import (
    ErrorLayer,
    ErrorRecord,
    PartOutcome,
    RunResult,
    RunStatus,
    StateSummary,
)
from sam_plugin.words.phrase import Phrase, render

_T = TypeVar("_T")
log = logging.getLogger(__name__)

# the layer an unexpected error is reported at, by the phase it happened in
PHASE_LAYER: dict[Phase, ErrorLayer] = {
    Phase.OBSERVING: "observation",
    Phase.EXPLORING: "observation",
    Phase.DESIGNING: "design",
    Phase.REVIEW: "observation",
    Phase.COLLECTING: "tool_call",
    Phase.COMPILING: "compile",
    Phase.PLAN: "compile",
    Phase.EXECUTING: "execution",
    Phase.VERIFYING: "verification",
    Phase.RESTORING: "execution",
}


def result(ctx: StepContext, run: RunState, status: RunStatus, *,
           error: ErrorRecord | None = None, after: Readback | None = None,
           checks: list[Check] | None = None) -> RunResult:
    """The run as ``result.json`` says it, at the phase it is in now."""
    inputs = run.inputs
    return RunResult(
        run_id=inputs.run_id,
        status=status,
        phase=str(ctx.phases.phase),
        module=inputs.mode,
        target=inputs.target,
        source=inputs.source,
        source_run=inputs.source_run,
        tools=list(run.route.tools) if run.route else [],
        submissions=run.execution.submissions,
        script_sha256=run.script_sha256,
        repairs=run.collection.repairs.used,
        before=StateSummary.from_readback(
            run.before, run.observation.domain if run.observation else None)
        if run.before else None,
        after=StateSummary.from_readback(after, _domain_lines(ctx, run)) if after else None,
        checks=list(checks or []),
        error=_scrubbed(ctx, error) if error is not None else None,
        restored=run.execution.restored,
        restore_unavailable=run.execution.restore_unavailable,
        provider=run.usage.usage if run.usage else None,
        spec_versions=max(1, run.spec_versions),
        **(run.detection.result_fields() if run.detection else {}),
    )


def _scrubbed(ctx: StepContext, error: ErrorRecord) -> ErrorRecord:
    """``error`` as written: its message scrubbed, and its phrase kept only when its English
    is that message and no value of it holds the key (else the message itself, as said)."""
    message = ctx.scrubber.text(error.message)
    kept = (error.phrase is not None and render(error.phrase) == message
            and not ctx.scrubber.holds(error.phrase.model_dump(mode="json")))
    return error.model_copy(update={"message": message,
                                    "phrase": error.phrase if kept else said(message)})


def _domain_lines(ctx: StepContext, run: RunState) -> dict[str, Any] | None:
    """What the mode's observation adds about the model, read now (``result.json``'s
    ``after``); None when the mode adds nothing or the model cannot be read."""
    if not (run.observation and run.observation.domain):
        return None
    try:
        return run.inputs.module.observation_lines(ctx.host.model(run.target.model_name))
    except Exception:  # noqa: BLE001 - result.json says what it read; the lines are additive
        return None


def write(run: RunState, ending: RunResult) -> None:
    run.result = ending
    run.dir.write_result(ending)


def verified(ctx: StepContext, run: RunState, after: Readback, checks: list[Check],
             keep_for_undo: Callable[[], dict[str, Any]]) -> None:
    """Only a readback that held is ``verified`` (I9); ``keep_for_undo``: what undo keeps of
    it (the snapshot, the after-fingerprint)."""
    ctx.emit(ReadbackVerified(ok=True, checks=len(checks)))
    ctx.phases.set(Phase.COMPLETE, "Verified")
    ending = result(ctx, run, "verified", after=after, checks=checks)
    kept = keep_for_undo()
    extra = ending.after.model_extra if ending.after is not None else None
    if extra and isinstance(kept.get("after"), StateSummary):  # the mode's own lines stay
        kept["after"] = StateSummary.model_validate({**kept["after"].model_dump(), **extra})
    write(run, ending.model_copy(update=kept))
    assert run.result is not None
    try:  # what a rerun may start from (docs/architecture.md §7 ``outcome_seal.json``)
        seal_outcome(run.dir, run.result)
    except Exception as error:  # noqa: BLE001 - the run stays verified; it cannot be rerun
        log.warning("run %s: its verified outcome could not be sealed (%s); it cannot be "
                    "rerun", run.inputs.run_id, error)


def failed(ctx: StepContext, run: RunState, layer: ErrorLayer, message: str, *,
           after: Readback | None = None, checks: list[Check] | None = None,
           category: RefusalCategory | None = None,
           provider: ProviderFailure | None = None, phrase: Phrase | None = None) -> None:
    if run.execution.restore_after is not None:
        after = run.execution.restore_after  # the live part after the restore (the proof)
    if after is None and run.execution.submissions:
        after = _try(lambda: ctx.host.readback(run.target))
    words = f"Failed at {layer}; part restored" if run.execution.restored else f"Failed at {layer}"
    ctx.phases.set(Phase.FAILED, words)
    error = ErrorRecord(layer=layer, message=message, part=part_outcome(run),
                        category=category, provider=provider, phrase=phrase)
    write(run, result(ctx, run, "failed", error=error, after=after, checks=checks))
    ctx.emit(RunFailed(layer=layer, message=message))


def returned(ctx: StepContext, run: RunState, layer: ErrorLayer, message: str,
             provider: ProviderFailure | None = None, phrase: Phrase | None = None) -> None:
    """Back to Review, nothing executed: the analyst may confirm again or cancel."""
    ctx.phases.set(Phase.REVIEW, f"Review: returned, nothing executed ({layer})")
    write(run, result(ctx, run, "rejected", error=ErrorRecord(
        layer=layer, message=message, provider=provider, phrase=phrase)))
    ctx.emit(ReturnedToReview(layer=layer, message=message))


def rejected(ctx: StepContext, run: RunState, layer: ErrorLayer, message: str,
             provider: ProviderFailure | None = None, phrase: Phrase | None = None) -> None:
    """A run from given calls that did not reach its plan: it ends ``rejected`` with the
    diagnostics (there is no Review to go back to: no model wrote the calls)."""
    ctx.phases.set(Phase.FAILED, f"Rejected at {layer}: nothing executed")
    write(run, result(ctx, run, "rejected", error=ErrorRecord(
        layer=layer, message=message, provider=provider, phrase=phrase)))
    ctx.emit(RunFailed(layer=layer, message=message))


def cancelled(ctx: StepContext, run: RunState,
              label: str = "Cancelled: nothing was executed") -> None:
    if ctx.phases.phase in TERMINAL:
        return
    ctx.phases.set(Phase.CANCELLED, label)
    write(run, result(ctx, run, "cancelled"))
    ctx.emit(RunCancelled())


def internal_error(ctx: StepContext, run: RunState, error: BaseException,
                   restore: Callable[[], str] | None) -> None:
    """A bug or an unexpected host or file error ends the run Failed (never stuck busy), at
    the layer of its phase; ``restore`` puts the part back when it may have been changed."""
    phase = ctx.phases.phase
    log.error("run %s: internal error while %s\n%s", run.inputs.run_id, phase,
              ctx.scrubber.text(traceback.format_exc()))
    message = f"internal error while {phase}: {ctx.scrubber.text(repr(error))}."
    executed = run.execution.submissions
    if executed and restore is not None and phase in (Phase.EXECUTING, Phase.VERIFYING):
        message += f" {restore()}"
    elif executed:
        message += " The script was submitted: the part may have been modified; re-observe it."
    else:
        message += " Nothing was executed."
    failed(ctx, run, PHASE_LAYER.get(phase, "observation"), message)


def refusal_category(name: str) -> RefusalCategory:
    """A refusal's category as ``result.json`` holds it (``other`` for a name it lacks)."""
    return next((c for c in REFUSAL_CATEGORIES if c == name), "other")


def part_outcome(run: RunState) -> PartOutcome:
    """What became of the target part in a failed run (``result.json`` ``error.part``)."""
    if not run.execution.submissions or run.execution.stopped_before_change:
        return "unchanged"
    return "restored" if run.execution.restored else "may_be_changed"


def _try(read: Callable[[], _T]) -> _T | None:
    try:
        return read()
    except Exception:
        return None


@contextlib.contextmanager
def outcome(ctx: StepContext, run: RunState, *, rejects: bool,
            restore: Callable[[], str] | None,
            cancel_requested: Callable[[], bool]) -> Iterator[None]:
    """How a public call of the controller ended becomes the run's ending (each writes
    result.json); ``rejects``: a run from given calls has no Review to return to; a task
    cancelled without Cancel asked for is cancelled still, and re-raised."""
    try:
        yield
    except ReturnToReview as back:
        (rejected if rejects else returned)(ctx, run, back.layer, back.message, back.provider,
                                            back.phrase)
    except RefusedByCategory as refusal:
        failed(ctx, run, refusal.layer, refusal.message,
               category=refusal_category(refusal.category))
    except FailRun as failure:
        failed(ctx, run, failure.layer, failure.message, provider=failure.provider,
               phrase=failure.phrase)
    except asyncio.CancelledError:
        cancelled(ctx, run)
        if not cancel_requested():
            raise
    except Exception as error:  # a bug or an unexpected host or file error
        internal_error(ctx, run, error, restore)


def invalidated(ctx: StepContext, run: RunState, phase: Phase, reason: str) -> None:
    """The GUI's mode or target changed: a run in Review or Plan fails now; one collecting or
    compiling fails before execution (``run.invalidated``)."""
    if phase in (Phase.REVIEW, Phase.PLAN):
        failed(ctx, run, "observation", f"{DRIFT_MESSAGE} ({reason})")
    elif phase in (Phase.COLLECTING, Phase.COMPILING):
        run.invalidated = reason
