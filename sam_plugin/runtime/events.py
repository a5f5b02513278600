"""Run events: appended to ``events.jsonl`` (docs/architecture.md §8) and delivered to
in-process listeners.

Each event is a type (``event_types.py``), from the step that emits it to the listener that
shows it: a listener is handed the scrubbed typed event; names and dicts appear only in the
log (``ControllerEvent``, the record its writer makes). Persisted events are the contract
other tools read. A few listener-only events carry the live view (phase labels, streamed spec text,
collection progress) and are never written to disk.
"""

from __future__ import annotations

import contextlib
import json
import logging
from collections.abc import Callable, Iterator
from dataclasses import fields, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol

from pydantic import BaseModel

from sam_plugin.runtime.event_types import (
    LISTENER_EVENTS,
    PERSISTED_EVENTS,
    RunEvent,
    event_from,
)
from sam_plugin.runtime.store.private import open_append

__all__ = ["LISTENER_EVENTS", "PERSISTED_EVENTS", "ControllerEvent", "Emit", "EventBus",
           "Listener", "RunEvent", "event_from", "read_events", "utc_timestamp"]

log = logging.getLogger(__name__)



class Emit(Protocol):
    """How a step reports an event: the typed event (``event_types.py``)."""

    def __call__(self, event: RunEvent, /) -> object:
        ...


class ControllerEvent(BaseModel):
    """One line of ``events.jsonl``: the record the log's writer makes of an event."""

    run_id: str
    event: str
    timestamp: str
    data: dict[str, Any]

    def to_line(self) -> str:
        """The ``events.jsonl`` form: ``{run_id, event, timestamp, ...data}`` on one line."""
        record = {"run_id": self.run_id, "event": self.event, "timestamp": self.timestamp}
        record.update({k: v for k, v in self.data.items() if k not in record})
        return json.dumps(record, ensure_ascii=False, default=str)

    @classmethod
    def of(cls, run_id: str, event: RunEvent) -> ControllerEvent:
        """The record of an event now: its fields in declared order."""
        return cls(run_id=run_id, event=event.name, timestamp=utc_timestamp(),
                   data=event.data())


Listener = Callable[[RunEvent], None]  # handed the scrubbed typed event


def utc_timestamp() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


class EventBus:
    """Fan-out to listeners plus the append-only log of the current run."""

    def __init__(self, scrubber: Callable[[Any], Any] | None = None) -> None:
        self._listeners: list[Listener] = []
        self.log_path: Path | None = None
        # every event passes the run's scrubber before any listener or the log sees it
        self.scrub: Callable[[Any], Any] = scrubber or (lambda value: value)

    @contextlib.contextmanager
    def logging_to(self, path: Path) -> Iterator[None]:
        """Persisted events go to ``path`` for a while (undo writes to the undone run's log)."""
        previous, self.log_path = self.log_path, path
        try:
            yield
        finally:
            self.log_path = previous

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        self._listeners.append(listener)

        def unsubscribe() -> None:
            if listener in self._listeners:
                self._listeners.remove(listener)

        return unsubscribe

    def emit(self, run_id: str, event: RunEvent) -> RunEvent:
        """Scrub ``event``, append it to the log when it is persisted, and hand it to each
        listener; the scrubbed event is returned."""
        scrubbed = self.scrubbed(event)
        if scrubbed.persisted and self.log_path is not None:
            with open_append(self.log_path) as handle:
                handle.write(ControllerEvent.of(run_id, scrubbed).to_line() + "\n")
        for listener in list(self._listeners):
            try:
                listener(scrubbed)
            except Exception:  # a broken view must never break the run it is watching
                log.exception("event listener failed on %s", scrubbed.name)
        return scrubbed

    def scrubbed(self, event: RunEvent) -> RunEvent:
        """``event`` with each field's value scrubbed; the event itself when none changes."""
        changed = {}
        for spec in fields(event):
            value = getattr(event, spec.name)
            clean = self.scrub(value)
            if clean is not value:
                changed[spec.name] = clean
        return replace(event, **changed) if changed else event


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
