"""Executing → Verifying (→ Restoring): the one submission of exactly the approved script
(I8, I11), the readback against the plan's prediction (I9, I13), and on a failure the part
put back and proven so (I12) (docs/architecture.md §1, §5 "Snapshot and restore").

Everything here is synchronous: no await may sit between the last drift check, the one
execution and the readback.
"""

from __future__ import annotations

import hashlib
import json
import logging
import traceback
from typing import Any

from sam_plugin.compilers.evidence import Check, Readback
from sam_plugin.errors import AlreadySubmitted, FailRun
from sam_plugin.runtime.event_types import (
    ExecutionCompleted,
    ExecutionSubmitted,
    RestoreCompleted,
    RestoreFailed,
    SnapshotTaken,
)
from sam_plugin.runtime.observe.observation import target_fingerprint
from sam_plugin.runtime.ports import Receipt, SnapshotHost
from sam_plugin.runtime.run import endings
from sam_plugin.runtime.run.artifacts import ShownPlan
from sam_plugin.runtime.run.context import StepContext
from sam_plugin.runtime.run.phases import Phase
from sam_plugin.runtime.run.restore import (
    NO_RESTORE_NOTE,
    can_restore,
    put_back,
    snapshot_unavailable,
    unavailable_words,
)
from sam_plugin.runtime.run.state import RunState
from sam_plugin.runtime.store.journal import UNKNOWN_ADVICE, SubmissionJournal
from sam_plugin.runtime.store.run_store import ErrorRecord, StateSummary
from sam_plugin.runtime.store.undo import CHANGED_NOTHING, keep_snapshot
from sam_plugin.runtime.verify.verifier import all_passed, verify
from sam_plugin.samops import gc_pause
from sam_plugin.words.phrase import phrase

log = logging.getLogger(__name__)

PREFLIGHT_STOPPED = (
    "It stopped in its preflight checks, before the first change: the part was not modified. "
    "This run is not retried; fix what the check names and submit a new request."
)
SCRIPT_REFUSED = (
    "The script guard refused it before its first line ran: the part was not modified. "
    "This run is not retried; the composed script held a construct scripts may not use."
)


def shown_plan(run: RunState) -> ShownPlan:
    """The plan the analyst approved and its script (``compile.show_plan``)."""
    assert run.shown is not None, "no plan was shown"
    return run.shown


def approved_script(run: RunState) -> str:
    """The script to submit: its bytes must hash to the SHA-256 in plan.json (I11)."""
    try:
        shown = json.loads(run.dir.file("plan.json").read_text(encoding="utf-8"))
        approved = str(shown["script_sha256"])
    except (OSError, ValueError, KeyError) as error:
        raise FailRun("execution", f"plan.json cannot be read ({error}); nothing executed") \
            from None
    script = shown_plan(run).script
    actual = hashlib.sha256(script.encode("utf-8")).hexdigest()
    if not (actual == approved == run.script_sha256):
        raise FailRun("execution",
                      f"the script to submit (sha256 {actual[:12]}) is not the one the plan "
                      f"showed (sha256 {approved[:12]}); nothing executed")
    return script


def execute_once(ctx: StepContext, run: RunState, journal: SubmissionJournal,
                 script: str) -> None:
    """The one submission: journalled first (I8), never retried (I10)."""
    assert run.script_sha256 is not None
    sha, key = run.script_sha256, shown_plan(run).key
    # If the process dies from here on, result.json must not keep saying "nothing executed"
    # (e.g. a "rejected" written by an earlier round): it says "unknown" until the outcome.
    run.dir.write_result(endings.result(
        ctx, run, "unknown", error=ErrorRecord(layer="execution", message=UNKNOWN_ADVICE),
    ).model_copy(update={"submissions": 1}))
    try:
        journal.record_submitted(run.inputs.run_id, sha, key)  # flushed + fsynced first
    except AlreadySubmitted as refused:
        raise FailRun("execution", str(refused)) from None
    run.execution.submissions = 1
    ctx.phases.set(Phase.EXECUTING, "Executing: script submitted once")
    ctx.emit(ExecutionSubmitted(script_sha256=sha))
    if isinstance(ctx.host, SnapshotHost) and run.before is not None:
        # the drift check read the part right before this, with no await since: the
        # script's snapshot takes that read instead of reading the part again
        ctx.host.snapshot_from_read(run.target, run.before.fingerprint)
    receipt: Receipt | None
    try:
        receipt = ctx.host.execute(script, run.target, run.dir.path)
        status, trace = receipt.status, receipt.traceback or ""
    except Exception:
        receipt, status, trace = None, "ERROR", traceback.format_exc()
    run.dir.seal()  # what the host wrote into the run directory, scrubbed and 0600
    journal.record_executed(run.inputs.run_id, status)
    ctx.emit(ExecutionCompleted(status=status))
    _note_snapshot(ctx, run, receipt)
    if status == "PASS":
        return
    try:
        _failed_execution(ctx, run, receipt, status, trace)
    finally:
        gc_pause.release()


def _failed_execution(ctx: StepContext, run: RunState, receipt: Receipt | None, status: str,
                      trace: str) -> None:
    if receipt is not None and receipt.nothing_changed:
        run.execution.stopped_before_change = True
        warning = SCRIPT_REFUSED if receipt.stage == "refused" else PREFLIGHT_STOPPED
    elif _read_only(run):
        warning = _unchanged_after_failure(ctx, run)
    else:
        warning = restore(ctx, run, receipt)
    raise FailRun("execution",
                  f"the script failed in SAM ({status}). {warning}\n{trace}".rstrip())


def verify_readback(ctx: StepContext, run: RunState) -> None:
    """Read the part back and compare it with the plan's prediction; only a readback that
    holds is ``verified`` (I9), a failed one is restored when it can be."""
    try:
        _verify_readback(ctx, run)
    finally:
        gc_pause.release()  # the run's bulk data may be collected again (samops.gc_pause)


def _verify_readback(ctx: StepContext, run: RunState) -> None:
    shown = shown_plan(run)
    prediction = shown.prediction
    assert run.before is not None
    ctx.phases.set(Phase.VERIFYING, "Verifying: reading the part back")
    try:
        # one read: the fingerprint and the comparison with the plan both work on it
        after = ctx.host.readback(run.target, hanging_nodes=prediction.hanging_nodes is not None)
    except Exception as error:
        if can_restore(ctx.host):
            raise FailRun("verification", f"reading the part back failed: {error}. "
                          + restore(ctx, run, None)) from None
        raise FailRun("verification", f"the model WAS changed, but reading it back failed: "
                      f"{error}; re-observe the part") from None
    checks = verify(prediction, run.before, after, run.dir.path, shown.predicted,
                    _part_or_none(ctx, run), _model_or_none(ctx, run))
    checks += _value_checks(ctx, run)
    if all_passed(checks):
        endings.verified(ctx, run, after, checks, lambda: keep_for_undo(ctx, run, after))
        return
    failed = "; ".join(f"{c.name}: expected {c.expected}, actual {c.actual}"
                       for c in checks if not c.ok)
    if _read_only(run):
        message = f"verification failed: {failed}. {_unchanged_after_failure(ctx, run)}"
    elif can_restore(ctx.host):
        message = f"verification failed: {failed}. {restore(ctx, run, None)}"
    else:
        message = (f"the model WAS changed, but verification failed: {failed}. "
                   "Inspect the part before submitting again.")
        if run.execution.restore_unavailable:
            message += " " + NO_RESTORE_NOTE.format(reason=run.execution.restore_unavailable)
    endings.failed(ctx, run, "verification", message, after=after, checks=checks)


def _value_checks(ctx: StepContext, run: RunState) -> list[Check]:
    """The values the calls set, read back by their domain (``DomainModule.value_checks``);
    a readback that fails is a failed check, never a pass."""
    module = run.inputs.module
    try:
        return module.value_checks(run.dir.path, ctx.host.model(run.target.model_name))
    except Exception as error:
        return [Check.said(phrase("check.domain_values", domain=module.title),
                           phrase("check.read_back"),
                           phrase("check.unreadable", error=str(error)), ok=False)]


def _note_snapshot(ctx: StepContext, run: RunState, receipt: Receipt | None) -> None:
    """``snapshot_taken``, or why there is no snapshot (kept for result.json)."""
    if receipt is not None and receipt.snapshot == "taken":
        ctx.emit(SnapshotTaken(part=run.target.part_name))
    run.execution.restore_unavailable = snapshot_unavailable(ctx.host, receipt)


def restore(ctx: StepContext, run: RunState, receipt: Receipt | None) -> str:
    """RESTORING: the target back as it was, proven by reading it back; the words to add
    to the failure (the run still fails at its layer; a restore is never retried)."""
    in_script = receipt.restored if receipt is not None else None
    execution = run.execution
    if execution.restore_unavailable or (in_script is None and not can_restore(ctx.host)):
        execution.restore_unavailable = (execution.restore_unavailable
                                         or "the script kept no snapshot")
        return unavailable_words(execution.restore_unavailable)
    ctx.phases.set(Phase.RESTORING, "Restoring: putting the part back as it was")
    expected = run.observation.fingerprint if run.observation else None
    verdict = put_back(ctx.host, run.target, expected, receipt)
    run.execution.restore_after, run.execution.restored = verdict.after, verdict.restored
    if verdict.restored:
        ctx.emit(RestoreCompleted(fingerprint=verdict.fingerprint))
    else:
        ctx.emit(RestoreFailed(reason=verdict.reason, left=verdict.left,
                               fingerprint=verdict.fingerprint))
    return verdict.words


def keep_for_undo(ctx: StepContext, run: RunState, after: Readback) -> dict[str, Any]:
    """A verified run keeps what undo needs in its run directory (within the undo budget),
    sealed to the run; ``result.after`` then carries the fingerprint an undo checks. A run
    that changed nothing keeps nothing and cannot be undone."""
    summary = StateSummary.from_readback(after)
    if _read_only(run):
        if isinstance(ctx.host, SnapshotHost):
            ctx.host.forget_snapshot()
        return {"after": summary, "undoable": False, "undo_note": CHANGED_NOTHING}
    try:
        before = StateSummary.from_readback(run.before) if run.before else None
        kept = keep_snapshot(ctx.host, run.dir, ctx.policy.undo, target=run.target,
                             before=before, after=summary)
    except Exception as error:  # noqa: BLE001 - the run is verified; only undo is lost
        log.exception("run %s: keeping the undo snapshot failed", run.inputs.run_id)
        return {"undoable": False, "undo_note": f"keeping the undo snapshot failed: {error}"}
    return {"after": summary, "undoable": kept.undoable, "undo_note": kept.note,
            "undo_snapshot": kept.snapshot}


def _read_only(run: RunState) -> bool:
    """The plan's calls change nothing (audits): no snapshot, no restore, no undo."""
    return run.shown is not None and run.shown.plan.read_only


def _unchanged_after_failure(ctx: StepContext, run: RunState) -> str:
    """A read-only script failed: it took no snapshot, so the readback is the proof that the
    part is as it was."""
    expected = run.observation.fingerprint if run.observation else None
    try:
        now = target_fingerprint(ctx.host.readback(run.target))
    except Exception as error:  # noqa: BLE001 - said plainly
        return f"The calls change nothing, but the part could not be read back ({error})."
    if now == expected:
        run.execution.stopped_before_change = True
        return (f"The calls change nothing (read-only) and the part reads back unchanged "
                f"(fingerprint {now}): there is nothing to restore. This run is not retried.")
    return (f"The calls change nothing (read-only), yet the part reads back changed "
            f"(fingerprint {now}, {expected} before); re-observe the part.")


def _model_or_none(ctx: StepContext, run: RunState) -> Any:
    try:
        return ctx.host.model(run.target.model_name)
    except Exception:
        return None


def _part_or_none(ctx: StepContext, run: RunState) -> Any:
    try:
        return ctx.host.part(run.target)
    except Exception:
        return None
