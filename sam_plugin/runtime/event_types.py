"""The run's events as types: one frozen dataclass per event of docs/architecture.md §8, and
their union ``RunEvent``.

A step emits the typed event (only a typed event can be emitted); ``events.jsonl`` keeps the
form it always had, ``{run_id, event, timestamp, ...fields}`` with the fields in the order
declared here. ``event_from`` builds the typed event from a name and its dict (the log read
back, a listener's record); a field left out or unknown is refused by name. Consumers turn
events into words with one ``match`` over ``RunEvent`` ending in ``assert_never``, so a new
event is a type error until each of them says what it shows.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import MISSING, dataclass, field, fields
from typing import Any, ClassVar, cast

from sam_plugin.errors import ProviderFailure


def _omitted(default: Any) -> Any:
    """A field written only when it is not ``default`` (the events that had the key only
    sometimes: ``design_confirmed.given``, ``design_delta.reset``, …)."""
    return field(default=default, metadata={"omit_default": True})


@dataclass(frozen=True)
class _Event:
    name: ClassVar[str]
    persisted: ClassVar[bool] = True

    def data(self) -> dict[str, Any]:
        """The event's fields as ``events.jsonl`` writes them, in declared order."""
        return {key: value for key, value in vars(self).items()
                if not (key in _OMIT_DEFAULT.get(self.name, {}) and
                        value == _OMIT_DEFAULT[self.name][key])}


# -- observation and design ---------------------------------------------------------------


@dataclass(frozen=True)
class ObservationCompleted(_Event):
    name: ClassVar[str] = "observation_completed"
    target_exists: bool
    node_count: int
    element_count: int
    fingerprint: str


@dataclass(frozen=True)
class ExplorationStarted(_Event):
    name: ClassVar[str] = "exploration_started"
    max_turns: int
    max_queries_per_turn: int
    tools: Sequence[str]


@dataclass(frozen=True)
class ExplorationQuery(_Event):
    name: ClassVar[str] = "exploration_query"
    turn: int
    index: int
    tool: str
    arguments: Mapping[str, Any]
    ok: bool
    error: str | None
    result_chars: int


@dataclass(frozen=True)
class ExplorationTurn(_Event):
    name: ClassVar[str] = "exploration_turn"
    turn: int
    queries: int
    failed: int
    finish_reason: str | None


@dataclass(frozen=True)
class ExplorationCompleted(_Event):
    name: ClassVar[str] = "exploration_completed"
    exit_reason: str
    turns: int
    facts: int
    checkpoint: bool


@dataclass(frozen=True)
class ServerDetected(_Event):
    """The server at the provider's URL and the profile it implies (runtime/provider)."""
    name: ClassVar[str] = "server_detected"
    server: Mapping[str, Any]
    profile: str
    profile_from: str
    note: str
    text: str


@dataclass(frozen=True)
class DesignReceived(_Event):
    name: ClassVar[str] = "design_received"
    method: str
    capabilities: Sequence[str]
    tools: Sequence[str]
    steps: int
    spec_chars: int
    version: int
    warnings: Sequence[str]
    changes: Sequence[Mapping[str, Any]]
    ignored_tool_calls: int
    # who wrote this version: the model, or the analyst (an edited or a given spec)
    author: str = _omitted("model")
    # the design asked in parts: its steps asked again, each {step, action, reason}
    repaired: Sequence[Mapping[str, Any]] = _omitted(())
    requests: int | None = _omitted(None)  # the provider requests it took


@dataclass(frozen=True)
class RevisionRequested(_Event):
    """Ask for changes: the spec's next ``version`` and the analyst's ``remark``."""
    name: ClassVar[str] = "revision_requested"
    version: int
    remark: str


@dataclass(frozen=True)
class DesignConfirmed(_Event):
    name: ClassVar[str] = "design_confirmed"
    tools: Sequence[str]
    given: bool = _omitted(False)  # the spec came with the calls (``plan_calls``)


# -- collection and compile ---------------------------------------------------------------


@dataclass(frozen=True)
class ToolCallReconstructed(_Event):
    name: ClassVar[str] = "tool_call_reconstructed"
    round: int
    tool: str
    call_id: str
    arguments_chars: int
    source: str
    recovered_from_text: bool


@dataclass(frozen=True)
class ToolCallCollected(_Event):
    name: ClassVar[str] = "tool_call_collected"
    round: int
    tool: str
    source: str


@dataclass(frozen=True)
class ToolCallRejected(_Event):
    name: ClassVar[str] = "tool_call_rejected"
    round: int
    reason: str


@dataclass(frozen=True)
class ConstraintDropped(_Event):
    """A constrained request whose answer broke the constraint is asked again without it."""
    name: ClassVar[str] = "constraint_dropped"
    round: int
    tool: str
    constraint: str
    reason: str


@dataclass(frozen=True)
class RepairRequested(_Event):
    """A bounded repair round: ``layer`` design (the spec's ``problems``) or a rejected call /
    compile diagnostic (``diagnostic``)."""
    name: ClassVar[str] = "repair_requested"
    repair: int
    of: int
    layer: str
    tool: str
    headline: str
    diagnostic: str | None = _omitted(None)
    problems: Sequence[str] | None = _omitted(None)
    # the design asked in parts: ``stage`` "design" and the 1-based ``step`` asked again
    stage: str | None = _omitted(None)
    step: int | None = _omitted(None)


@dataclass(frozen=True)
class ToolCallCompiled(_Event):
    name: ClassVar[str] = "tool_call_compiled"
    tool: str
    notes: Sequence[str]


@dataclass(frozen=True)
class ScriptComposed(_Event):
    name: ClassVar[str] = "script_composed"
    script_sha256: str
    bytes: int


# -- the plan gate -------------------------------------------------------------------------


@dataclass(frozen=True)
class PlanShown(_Event):
    name: ClassVar[str] = "plan_shown"
    script_sha256: str
    destructive: int
    warnings: int
    calls: int


@dataclass(frozen=True)
class ApprovalRequested(_Event):
    """The waiting plan is put before a person on ``channel`` (dock, cli, elicitation,
    command); ``action`` names what else awaits approval (``undo``)."""
    name: ClassVar[str] = "approval_requested"
    channel: str
    action: str | None = _omitted(None)


@dataclass(frozen=True)
class DecisionForged(_Event):
    """A decision file in the run directory whose seal does not hold, or that names another
    run or request: refused, never attributed to a person; ``file`` is where it was put aside
    and ``action`` is ``execute`` or ``undo``."""
    name: ClassVar[str] = "decision_forged"
    file: str
    reason: str
    action: str


@dataclass(frozen=True)
class PlanApproved(_Event):
    name: ClassVar[str] = "plan_approved"
    by: str


@dataclass(frozen=True)
class PlanDeclined(_Event):
    name: ClassVar[str] = "plan_declined"
    script_sha256: str | None
    # who ended it and why, when not the analyst (an MCP client, an approval nobody gave)
    by: str | None = _omitted(None)
    reason: str | None = _omitted(None)


# -- execution, verification, restore, undo ----------------------------------------------


@dataclass(frozen=True)
class SnapshotTaken(_Event):
    name: ClassVar[str] = "snapshot_taken"
    part: str


@dataclass(frozen=True)
class ExecutionSubmitted(_Event):
    name: ClassVar[str] = "execution_submitted"
    script_sha256: str


@dataclass(frozen=True)
class ExecutionCompleted(_Event):
    name: ClassVar[str] = "execution_completed"
    status: str


@dataclass(frozen=True)
class ReadbackVerified(_Event):
    name: ClassVar[str] = "readback_verified"
    ok: bool
    checks: int


@dataclass(frozen=True)
class RestoreCompleted(_Event):
    name: ClassVar[str] = "restore_completed"
    fingerprint: str


@dataclass(frozen=True)
class RestoreFailed(_Event):
    name: ClassVar[str] = "restore_failed"
    reason: str | None
    left: Sequence[str]
    fingerprint: str


@dataclass(frozen=True)
class RunUndone(_Event):
    name: ClassVar[str] = "run_undone"
    fingerprint: str | None


@dataclass(frozen=True)
class ReturnedToReview(_Event):
    name: ClassVar[str] = "returned_to_review"
    layer: str
    message: str


@dataclass(frozen=True)
class RunFailed(_Event):
    name: ClassVar[str] = "run_failed"
    layer: str
    message: str


# -- listener-only: the live view, never written ------------------------------------------


@dataclass(frozen=True)
class PhaseChanged(_Event):
    name: ClassVar[str] = "phase_changed"
    persisted: ClassVar[bool] = False
    phase: str
    label: str


@dataclass(frozen=True)
class DesignDelta(_Event):
    """A piece of the streamed spec; ``reset``: the stream restarted, drop what was shown."""
    name: ClassVar[str] = "design_delta"
    persisted: ClassVar[bool] = False
    text: str
    reset: bool = _omitted(False)


@dataclass(frozen=True)
class ReasoningDelta(_Event):
    name: ClassVar[str] = "reasoning_delta"
    persisted: ClassVar[bool] = False
    text: str


@dataclass(frozen=True)
class CollectionProgress(_Event):
    name: ClassVar[str] = "collection_progress"
    persisted: ClassVar[bool] = False
    collected: int
    expected: int


@dataclass(frozen=True)
class RunCancelled(_Event):
    name: ClassVar[str] = "run_cancelled"
    persisted: ClassVar[bool] = False


@dataclass(frozen=True)
class ProviderRetry(_Event):
    """Nothing answered the provider call yet; try ``attempt`` of ``of`` follows.
    ``failure``: the last try's failure as data (the views say it from its kind)."""
    name: ClassVar[str] = "provider_retry"
    persisted: ClassVar[bool] = False
    attempt: int
    of: int
    host: str
    reason: str
    failure: ProviderFailure | None = None


RunEvent = (
    ObservationCompleted | ExplorationStarted | ExplorationQuery | ExplorationTurn
    | ExplorationCompleted | ServerDetected | DesignReceived | RevisionRequested
    | DesignConfirmed | ToolCallReconstructed | ToolCallCollected | ToolCallRejected
    | ConstraintDropped | RepairRequested | ToolCallCompiled | ScriptComposed | PlanShown
    | ApprovalRequested | DecisionForged | PlanApproved | PlanDeclined | SnapshotTaken
    | ExecutionSubmitted | ExecutionCompleted | ReadbackVerified | RestoreCompleted
    | RestoreFailed | RunUndone | ReturnedToReview | RunFailed | PhaseChanged | DesignDelta
    | ReasoningDelta | CollectionProgress | RunCancelled | ProviderRetry
)

EVENT_TYPES: tuple[type[_Event], ...] = (
    ObservationCompleted, ExplorationStarted, ExplorationQuery, ExplorationTurn,
    ExplorationCompleted, ServerDetected, DesignReceived, RevisionRequested,
    DesignConfirmed, ToolCallReconstructed, ToolCallCollected, ToolCallRejected,
    ConstraintDropped, RepairRequested, ToolCallCompiled, ScriptComposed, PlanShown,
    ApprovalRequested, DecisionForged, PlanApproved, PlanDeclined, SnapshotTaken,
    ExecutionSubmitted, ExecutionCompleted, ReadbackVerified, RestoreCompleted,
    RestoreFailed, RunUndone, ReturnedToReview, RunFailed, PhaseChanged, DesignDelta,
    ReasoningDelta, CollectionProgress, RunCancelled, ProviderRetry,
)
BY_NAME: dict[str, type[_Event]] = {cls.name: cls for cls in EVENT_TYPES}
PERSISTED_EVENTS: frozenset[str] = frozenset(c.name for c in EVENT_TYPES if c.persisted)
LISTENER_EVENTS: frozenset[str] = frozenset(c.name for c in EVENT_TYPES if not c.persisted)

# per event, the fields written only when they differ from their default
_OMIT_DEFAULT: dict[str, dict[str, Any]] = {
    cls.name: {f.name: f.default for f in fields(cls) if f.metadata.get("omit_default")}
    for cls in EVENT_TYPES
}
_REQUIRED: dict[str, frozenset[str]] = {
    cls.name: frozenset(f.name for f in fields(cls)
                        if f.default is MISSING and f.default_factory is MISSING)
    for cls in EVENT_TYPES
}
_FIELDS: dict[str, tuple[str, ...]] = {
    cls.name: tuple(f.name for f in fields(cls)) for cls in EVENT_TYPES}


def event_from(name: str, data: Mapping[str, Any] | None = None) -> RunEvent:
    """The typed event for ``name`` and its fields (the log read back, a listener's
    record); an unknown name or field, or a missing one, is refused naming it
    and the legal ones."""
    cls = BY_NAME.get(name)
    if cls is None:
        raise ValueError(f"event: unknown event {name!r}; known events: "
                         f"{', '.join(sorted(BY_NAME))}")
    given = dict(data or {})
    legal = _FIELDS[name]
    unknown = sorted(set(given) - set(legal))
    missing = sorted(_REQUIRED[name] - set(given))
    if unknown or missing:
        problems = ([f"unknown field(s) {', '.join(unknown)}"] if unknown else []) + (
            [f"missing field(s) {', '.join(missing)}"] if missing else [])
        raise ValueError(f"event {name}: {'; '.join(problems)}; its fields: "
                         f"{', '.join(legal) or '(none)'}")
    return cast("RunEvent", cls(**given))
