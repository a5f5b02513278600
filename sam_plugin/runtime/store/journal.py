"""The idempotency journal ``<runs-dir>/submissions.jsonl`` (invariant I8).

``submitted`` is flushed and fsynced before the script reaches SAM and ``executed`` after it
returned. The journal, not memory, decides whether a run id may submit: after a crash and a
restart a run id that was ever submitted is refused, and a ``submitted`` without ``executed``
means nobody knows what SAM did — that run is ``unknown`` and must be re-observed, never
resubmitted.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any, Literal

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]  # no fcntl on Windows

from pydantic import BaseModel, ValidationError

from sam_plugin.errors import AlreadySubmitted
from sam_plugin.runtime.events import utc_timestamp
from sam_plugin.runtime.store.private import open_append

SubmissionState = Literal["none", "submitted", "executed"]

UNKNOWN_ADVICE = (
    "SAM Agent stopped after this run's script was submitted and before its outcome was "
    "recorded, so the part may or may not have been modified. Re-observe the workspace "
    "(check the part, then submit a new request); this run will never be resubmitted."
)


# Marks on an unknown run, after the fact: a later start warned about it once ("recovered"),
# the analyst has looked at it ("acknowledged"). Neither changes what the run is.
Mark = Literal["recovered", "acknowledged"]


class JournalEntry(BaseModel):
    run_id: str
    state: Literal["submitted", "executed", "recovered", "acknowledged"]
    timestamp: str
    script_sha256: str = ""
    idempotency_key: str = ""
    outcome: str = ""  # for ``executed``: PASS, FAIL or ERROR


class SubmissionJournal:
    def __init__(self, path: Path):
        self.path = Path(path)

    def entries(self) -> list[JournalEntry]:
        if not self.path.exists():
            return []
        entries = []
        text = self.path.read_bytes().decode("utf-8", errors="replace")
        for line in text.splitlines():
            entry = _parse_line(line)
            if entry is not None:
                entries.append(entry)
        return entries

    def state_of(self, run_id: str) -> SubmissionState:
        state: SubmissionState = "none"
        for entry in self.entries():
            if entry.run_id == run_id:
                if entry.state == "executed":
                    return "executed"
                if entry.state == "submitted":
                    state = "submitted"
        return state

    def unknown_runs(self) -> list[str]:
        """Run ids journalled as submitted but never as executed, in journal order."""
        submitted: dict[str, None] = {}
        executed: set[str] = set()
        for entry in self.entries():
            if entry.state == "submitted":
                submitted[entry.run_id] = None
            elif entry.state == "executed":
                executed.add(entry.run_id)
        return [run_id for run_id in submitted if run_id not in executed]

    def recovered_runs(self) -> set[str]:
        """Unknown runs a start has already marked and warned about (said once per run)."""
        return {e.run_id for e in self.entries() if e.state == "recovered"}

    def acknowledged_runs(self) -> set[str]:
        return {e.run_id for e in self.entries() if e.state == "acknowledged"}

    def record_marked(self, run_id: str, mark: Mark) -> None:
        self._append(JournalEntry(run_id=run_id, state=mark, timestamp=utc_timestamp()))

    def record_submitted(self, run_id: str, script_sha256: str, idempotency_key: str) -> None:
        """Journal a submission durably; refuse a run id the journal already holds."""
        state = self.state_of(run_id)
        if state != "none":
            raise AlreadySubmitted(run_id, state)
        self._append(
            JournalEntry(
                run_id=run_id,
                state="submitted",
                timestamp=utc_timestamp(),
                script_sha256=script_sha256,
                idempotency_key=idempotency_key,
            )
        )

    def record_executed(self, run_id: str, outcome: str) -> None:
        self._append(
            JournalEntry(
                run_id=run_id, state="executed", timestamp=utc_timestamp(), outcome=outcome
            )
        )

    def _append(self, entry: JournalEntry) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        line = json.dumps(entry.model_dump(mode="json"), separators=(",", ":")) + "\n"
        created = not self.path.exists()
        with open_append(self.path, binary=True) as handle, _appending(handle):
            # A crash may have left a torn last line: start on a fresh line so the new
            # record is never glued onto the fragment (and lost with it).
            if handle.tell() > 0 and not _ends_with_newline(self.path):
                line = "\n" + line
            handle.write(line.encode("utf-8"))
            handle.flush()
            os.fsync(handle.fileno())
        if created:
            _fsync_directory(self.path.parent)


_ENTRY_START = '{"run_id":'


def _parse_line(line: str) -> JournalEntry | None:
    """The entry on ``line``; a torn fragment is skipped without taking a record with it.

    A journal written before torn lines were terminated may hold a fragment with a whole
    record glued onto its end: that record is kept.
    """
    try:
        return JournalEntry.model_validate_json(line)
    except (ValidationError, ValueError):
        pass
    start = line.find(_ENTRY_START, 1)
    while start != -1:
        try:
            return JournalEntry.model_validate_json(line[start:])
        except (ValidationError, ValueError):
            start = line.find(_ENTRY_START, start + 1)
    return None


@contextlib.contextmanager
def _appending(handle: IO[Any]) -> Iterator[None]:
    """Two processes appending at once never interleave a torn-line check with a write."""
    if fcntl is None:  # pragma: no cover - Windows: O_APPEND writes of one line
        yield
        return
    fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
    try:
        yield
    finally:
        fcntl.flock(handle.fileno(), fcntl.LOCK_UN)


def _ends_with_newline(path: Path) -> bool:
    with path.open("rb") as handle:
        handle.seek(-1, os.SEEK_END)
        return handle.read(1) == b"\n"


def _fsync_directory(directory: Path) -> None:
    """Make the new journal's directory entry durable (POSIX; a no-op where unsupported)."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
