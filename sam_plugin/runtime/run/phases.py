"""The controller's phases and the only transitions allowed between them (docs/architecture.md §1).

An illegal transition raises: the gate between "the human read the spec" and "SAM is
touched" is this table, not a convention spread over the controller.
"""

from __future__ import annotations

from enum import StrEnum

from sam_plugin.errors import IllegalTransition


class Phase(StrEnum):
    IDLE = "idle"
    OBSERVING = "observing"
    EXPLORING = "exploring"
    DESIGNING = "designing"
    REVIEW = "review"
    COLLECTING = "collecting"
    COMPILING = "compiling"
    PLAN = "plan"
    EXECUTING = "executing"
    VERIFYING = "verifying"
    RESTORING = "restoring"  # a failed execution or verification: putting the target back
    COMPLETE = "complete"
    FAILED = "failed"
    CANCELLED = "cancelled"


TERMINAL: frozenset[Phase] = frozenset({Phase.COMPLETE, Phase.FAILED, Phase.CANCELLED})

# Phases in which the controller is working and a new submit is refused.
BUSY: frozenset[Phase] = frozenset(
    {
        Phase.OBSERVING,
        Phase.EXPLORING,
        Phase.DESIGNING,
        Phase.COLLECTING,
        Phase.COMPILING,
        Phase.EXECUTING,
        Phase.VERIFYING,
        Phase.RESTORING,
    }
)

# Phases in which a provider stream may be open: Cancel closes it.
STREAMING: frozenset[Phase] = frozenset(
    {Phase.OBSERVING, Phase.EXPLORING, Phase.DESIGNING, Phase.COLLECTING}
)

_START = frozenset({Phase.OBSERVING})

TRANSITIONS: dict[Phase, frozenset[Phase]] = {
    Phase.IDLE: _START,
    # Observing -> Compiling: a run from a confirmed spec and given calls (``plan_calls``):
    # no design request, no collection, the same compile chain and plan
    Phase.OBSERVING: frozenset(
        {Phase.EXPLORING, Phase.DESIGNING, Phase.COMPILING, Phase.FAILED, Phase.CANCELLED}
    ),
    Phase.EXPLORING: frozenset({Phase.DESIGNING, Phase.FAILED, Phase.CANCELLED}),
    Phase.DESIGNING: frozenset({Phase.REVIEW, Phase.FAILED, Phase.CANCELLED}),
    # Review -> Designing: the analyst asked for changes to the spec (still no tools);
    # Review -> Compiling: the calls computed from the confirmed steps (no collection)
    Phase.REVIEW: frozenset({Phase.COLLECTING, Phase.COMPILING, Phase.DESIGNING, Phase.FAILED,
                             Phase.CANCELLED}),
    Phase.COLLECTING: frozenset({Phase.COMPILING, Phase.REVIEW, Phase.FAILED, Phase.CANCELLED}),
    # Every execution passes the plan (I11): the analyst (or the plan-wait policy) approves it.
    # Compiling -> Collecting: a repair round for the call a compile diagnostic named.
    Phase.COMPILING: frozenset(
        {Phase.PLAN, Phase.COLLECTING, Phase.REVIEW, Phase.FAILED, Phase.CANCELLED}
    ),
    Phase.PLAN: frozenset({Phase.EXECUTING, Phase.FAILED, Phase.CANCELLED}),
    # Once the script is submitted there is no way back to Review and no cancel: SAM has no
    # undo, so the only honest exits are a readback or a failure.
    Phase.EXECUTING: frozenset({Phase.VERIFYING, Phase.RESTORING, Phase.FAILED}),
    Phase.VERIFYING: frozenset({Phase.COMPLETE, Phase.RESTORING, Phase.FAILED}),
    # a restore is never retried and never turns into success: it ends the run as Failed
    Phase.RESTORING: frozenset({Phase.FAILED}),
    Phase.COMPLETE: _START,
    Phase.FAILED: _START,
    Phase.CANCELLED: _START,
}


def check_transition(source: Phase, target: Phase) -> None:
    """Raise :class:`IllegalTransition` unless ``source -> target`` is in the table."""
    if target not in TRANSITIONS[source]:
        raise IllegalTransition(source, target, TRANSITIONS[source])
