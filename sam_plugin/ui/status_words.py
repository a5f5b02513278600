"""The true words the dock shows for each step: proposed ≠ collected ≠ compiled ≠ submitted ≠
executed ≠ verified (docs/architecture.md §8). Nothing here ever says "done" before a
readback verified it.
"""

from __future__ import annotations

from typing import Any, assert_never

from sam_plugin.errors import ProviderFailure
from sam_plugin.runtime import event_types as ev
from sam_plugin.ui.i18n import tr
from sam_plugin.words.phrase import Phrase

# Layers whose failure leaves the model untouched (the script was never submitted).
UNTOUCHED_LAYERS = frozenset({"observation", "design", "provider", "tool_call", "compile"})


def phase_words(phase: str, progress: tuple[int, int] | None = None) -> str:
    """Status text for a phase the controller entered."""
    if phase == "collecting":
        if progress is not None and progress[1]:
            return tr("Collecting tool calls {collected}/{expected}").format(
                collected=progress[0], expected=progress[1])
        return tr("Collecting tool calls")
    words = {
        "idle": tr("Ready"),
        "observing": tr("Observing the model (read-only)"),
        "exploring": tr("Exploring the model (read-only)"),
        "designing": tr("Designing — the model is writing the spec"),
        "review": tr("Review — read the spec, then Confirm or Cancel"),
        "compiling": tr("Compiling"),
        "executing": tr("Submitted to SAM"),
        "verifying": tr("Executed — verifying"),
        "restoring": tr("Restoring — putting the part back as it was"),
        "complete": tr("Executed — verifying"),
        "failed": tr("Failed"),
        "cancelled": tr("Cancelled"),
    }
    return words.get(phase, phase)


def waiting_words() -> str:
    """Designing, before the model's first word (a dead URL never gets further)."""
    return tr("Designing — waiting for the model to answer")


def retry_words(event: ev.ProviderRetry) -> str:
    """The call failed before any answer and is tried again (``provider_retry``)."""
    from sam_plugin.ui.plain_words import error_words, provider_words

    # the reason is the failed call's own words (``failure.said``): said from its data
    reason = (provider_words(event.failure) if event.failure is not None
              else error_words(event.reason, None))
    return tr("Connecting to {host} (try {attempt} of {of}) — the last try: {reason}").format(
        host=event.host, attempt=event.attempt, of=event.of, reason=reason)


def event_words(event: ev.RunEvent) -> str | None:
    """Status text for an event that is a truer word than its phase, if any: the words the
    dock shows for the event itself (the phase's words are ``phase_words``)."""
    match event:
        case ev.ProviderRetry():
            return retry_words(event)
        case ev.RepairRequested(repair=repair, of=of, tool=tool, headline=headline):
            return tr("Repair {repair}/{of}: {tool} — {headline}").format(
                repair=repair, of=of, tool=tool, headline=headline)
        case ev.ToolCallRejected(reason=reason):
            return tr("Tool call rejected: {reason}").format(reason=reason)
        case ev.ExecutionSubmitted():
            return tr("Submitted to SAM")
        case ev.ExecutionCompleted():
            return tr("Executed — verifying")
        case (ev.PhaseChanged() | ev.DesignDelta() | ev.ReasoningDelta()
              | ev.CollectionProgress() | ev.RunCancelled() | ev.ObservationCompleted()
              | ev.ExplorationStarted() | ev.ExplorationQuery() | ev.ExplorationTurn()
              | ev.ExplorationCompleted() | ev.ServerDetected() | ev.DesignReceived()
              | ev.RevisionRequested() | ev.DesignConfirmed() | ev.ToolCallReconstructed()
              | ev.ToolCallCollected() | ev.ConstraintDropped() | ev.ToolCallCompiled()
              | ev.ScriptComposed() | ev.PlanShown() | ev.ApprovalRequested()
              | ev.DecisionForged() | ev.PlanApproved() | ev.PlanDeclined() | ev.SnapshotTaken()
              | ev.ReadbackVerified() | ev.RestoreCompleted() | ev.RestoreFailed()
              | ev.RunUndone() | ev.ReturnedToReview() | ev.RunFailed()):
            return None
        case _:
            assert_never(event)


def layer_name(layer: str) -> str:
    return {
        "observation": tr("observation"),
        "design": tr("design"),
        "provider": tr("provider"),
        "tool_call": tr("tool call"),
        "compile": tr("compile"),
        "execution": tr("execution"),
        "verification": tr("verification"),
        "drift": tr("target changed"),
    }.get(layer, layer)


def error_action(layer: str, back_in_review: bool, part: str | None = None,
                 message: str = "", replay: bool = False,
                 failure: ProviderFailure | None = None) -> str:
    """What the analyst should do next, by the layer that failed and what became of the part
    (``result.json`` ``error.part``: unchanged / restored / may_be_changed); for the provider,
    by who answered (``replay``) and what failed (``failure``; in a run written before it,
    the ``message``)."""
    if back_in_review:
        return tr("Nothing was executed. Edit the request or confirm again.")
    if layer == "execution" and part == "unchanged":
        return tr("The script stopped in its checks before changing the part: fix what the "
                  "check names, then submit a new request.")
    if layer in {"execution", "verification"} and part == "restored":
        return tr("The part was put back exactly as it was: fix what the message names, then "
                  "submit a new request.")
    if layer in {"execution", "verification"}:
        return tr("The part may be partly modified: re-observe before the next run.")
    if layer == "provider":
        return provider_action(message, replay, failure)
    if layer == "observation":
        return tr("Nothing was executed. Check the mode, model and part shown above, then "
                  "submit again.")
    return tr("Nothing was executed. Check the request or the provider settings, then submit "
              "again.")


def provider_action(message: str, replay: bool,
                    failure: ProviderFailure | None = None) -> str:
    """The next step after a provider failure: only the replay is helped by an example."""
    from sam_plugin.ui.plain_words import unreachable

    if replay:
        return tr("Nothing was executed. Pick a request under Examples (the replay answers "
                  "only those), or choose a live model in Settings….")
    if failure is not None:
        return _provider_advice(unreachable(failure), failure.kind == "auth")
    # a run written before its failure was data: the kind and the transport's words
    return _provider_advice("connection: cannot reach " in message
                            or "could not connect to" in message, "auth: " in message)


def _provider_advice(unreachable: bool, refused_key: bool) -> str:
    if unreachable:
        return tr("Nothing was executed. Check the base URL in Settings… and that the model "
                  "server there is running, then submit again.")
    if refused_key:
        return tr("Nothing was executed. Check the API key in Settings…, then submit again.")
    return tr("Nothing was executed. Check the provider in Settings… (URL, model, API key), "
              "then submit again.")


def plan_words(plan: Any) -> str:
    """Status text while a run waits at its plan (contains ``Plan`` in English, §9)."""
    from sam_plugin.ui.plan_text import plan_summary

    return tr("Plan: {summary}, waiting for you to execute").format(summary=plan_summary(plan))


def final_words(result: Any, back_in_review: bool = False, plain: str | None = None) -> str:
    """Status text once a run stops: ``Verified`` / ``Review`` / ``Failed`` / ``Cancelled``.
    ``plain``: better words for the reason, when the dock knows them."""
    status = getattr(result, "status", "")
    error = getattr(result, "error", None)
    if status == "verified":
        return tr("Verified")
    reason = ""
    if plain:
        reason = plain
    elif error is not None:
        summary = _summary(error.message, getattr(error, "provider", None),
                           phrase=getattr(error, "phrase", None))
        reason = f"{layer_name(error.layer)}: {summary}"
    if back_in_review:
        return tr("Review — returned, nothing executed ({reason})").format(reason=reason)
    if status == "cancelled":
        return tr("Cancelled — nothing was executed")
    if status == "unknown":
        return tr("Failed — execution outcome unknown; re-observe before the next run")
    if getattr(result, "restored", False):
        return tr("Failed — part restored as it was; {reason}").format(reason=reason)
    if status == "undone":
        return tr("Undone — the part is back as it was before the run")
    return tr("Failed — {reason}").format(reason=reason) if reason else tr("Failed")


def _summary(text: str, failure: ProviderFailure | None = None, limit: int = 300,
             phrase: Phrase | None = None) -> str:
    """The message on one line in the analyst's words (diagnostic bullets joined); when that
    is long, only a pointer to it: the result view's error label shows it once, whole (a first
    sentence here would be read twice), the tooltip the raw one."""
    from sam_plugin.ui.plain_words import error_words

    plain = error_words(text, failure, phrase)
    parts = [line.strip().lstrip("- ").strip() for line in plain.splitlines()]
    line = " — ".join(p for p in parts if p)
    if len(line) <= limit:
        return line
    return tr("the message is below")
