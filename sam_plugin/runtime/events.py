"""Run events: appended to ``events.jsonl`` (docs/architecture.md §8) and delivered to
in-process listeners.

Persisted events are the contract other tools read. A few listener-only events carry the live
view (phase labels, streamed spec text, collection progress) and are never written to disk.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from sam_plugin.runtime.store.private import open_append

log = logging.getLogger(__name__)

PERSISTED_EVENTS: frozenset[str] = frozenset(
    {
        "observation_completed",
        "design_received",
        "revision_requested",  # Ask for changes
        "design_confirmed",
        "tool_call_reconstructed",
        "tool_call_collected",
        "tool_call_rejected",
        "tool_call_compiled",
        "script_composed",
        "execution_submitted",
        "execution_completed",
        "readback_verified",
        "returned_to_review",
        "run_failed",
        # the read-only exploration phase, one event per turn and per query
        "exploration_started",
        "exploration_query",
        "exploration_turn",
        "exploration_completed",
        # snapshot, restore and undo (docs/architecture.md §5)
        "snapshot_taken",
        "restore_completed",
        "restore_failed",
        "run_undone",
        "server_detected",
        "constraint_dropped",
        # the plan gate (docs/architecture.md §5 "Plan")
        "plan_shown",
        "plan_approved",
        "plan_declined",
        # a rejected call or a compile diagnostic gets a bounded repair round
        "repair_requested",
    }
)

LISTENER_EVENTS: frozenset[str] = frozenset(
    {"phase_changed", "design_delta", "reasoning_delta", "collection_progress", "run_cancelled",
     "provider_retry"}
)


class ControllerEvent(BaseModel):
    run_id: str
    event: str
    timestamp: str
    data: dict[str, Any]

    def to_line(self) -> str:
        """The ``events.jsonl`` form: ``{run_id, event, timestamp, ...data}`` on one line."""
        record = {"run_id": self.run_id, "event": self.event, "timestamp": self.timestamp}
        record.update({k: v for k, v in self.data.items() if k not in record})
        return json.dumps(record, ensure_ascii=False, default=str)


Listener = Callable[[ControllerEvent], None]


def utc_timestamp() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


class EventBus:
    """Fan-out to listeners plus the append-only log of the current run."""

    def __init__(self, scrubber: Callable[[Any], Any] | None = None) -> None:
        self._listeners: list[Listener] = []
        self.log_path: Path | None = None
        # every event passes the run's scrubber before any listener or the log sees it
        self.scrub: Callable[[Any], Any] = scrubber or (lambda value: value)

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        self._listeners.append(listener)

        def unsubscribe() -> None:
            if listener in self._listeners:
                self._listeners.remove(listener)

        return unsubscribe

    def emit(self, run_id: str, event: str, data: dict[str, Any] | None = None) -> ControllerEvent:
        if event not in PERSISTED_EVENTS and event not in LISTENER_EVENTS:
            known = ", ".join(sorted(PERSISTED_EVENTS | LISTENER_EVENTS))
            raise ValueError(f"event: unknown event {event!r}; known events: {known}")
        record = ControllerEvent(
            run_id=run_id, event=event, timestamp=utc_timestamp(),
            data=dict(self.scrub(dict(data or {}))),
        )
        if event in PERSISTED_EVENTS and self.log_path is not None:
            with open_append(self.log_path) as handle:
                handle.write(record.to_line() + "\n")
        for listener in list(self._listeners):
            try:
                listener(record)
            except Exception:  # a broken view must never break the run it is watching
                log.exception("event listener failed on %s", event)
        return record


def read_events(path: Path) -> list[dict[str, Any]]:
    """The records of an ``events.jsonl`` (a torn last line after a crash is skipped)."""
    if not path.exists():
        return []
    records = []
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            records.append(json.loads(line))
        except json.JSONDecodeError:
            continue
    return records
