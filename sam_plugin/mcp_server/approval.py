"""A person's decision on what an MCP client asks to run, as files in the run directory
(docs/mcp.md "Approval", docs/architecture.md §7).

- The request: ``approval_request.json`` (execute the run's plan) or ``undo_request.json``
  (undo the verified run), written by the process that waits, while it holds the request's
  lock (``run.lock``, which the plan's controller holds; ``undo.lock`` for an undo). It names
  a fresh ``request_id``, the run, the SHA-256 of the plan's script, what is asked in words,
  the channels a person may answer on, the client that asks and the deadline.
- The decision: ``approval.<request_id>.json``, ``approved``, ``declined`` or ``expired``,
  with the SHA-256 it decides, the channel and who. It is created once, complete or not at
  all: a temp file hard-linked to its name, which fails when the name exists. So the first
  channel to decide wins, across processes, and nothing replaces a decision; a decision for
  an earlier request never answers a later one.

The waiting process runs only a decision ``approved`` for the SHA-256 it holds. No MCP tool
writes these files: an agent's arguments never name a path, and no tool approves. The
channels are a person's: the client's elicitation form, the dock's ``executeButton``,
``sam-agent approve`` typed at a terminal. This module imports neither the MCP SDK nor the
controller, so ``sam-agent approve`` works without the ``[mcp]`` extra.
"""

from __future__ import annotations

import contextlib
import getpass
import json
import os
import secrets
import socket
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Literal, TypeVar, get_args

from pydantic import BaseModel, ConfigDict, ValidationError

from sam_plugin.errors import ApprovalRefused
from sam_plugin.runtime.events import utc_timestamp
from sam_plugin.runtime.store.file_lock import is_locked
from sam_plugin.runtime.store.run_store import LOCK_NAME, RUN_ID_PATTERN

# where a person answers (docs/architecture.md §8 ``approval_requested``): the MCP client's
# form, the dock inside SAM, ``sam-agent approve`` in another terminal, the CLI's own prompt
Channel = Literal["elicitation", "dock", "command", "cli"]
CHANNELS: tuple[str, ...] = get_args(Channel)
Verdict = Literal["approved", "declined", "expired"]
Kind = Literal["execute", "undo"]
REQUEST_NAMES: dict[str, str] = {"execute": "approval_request.json",
                                 "undo": "undo_request.json"}
UNDO_LOCK_NAME = "undo.lock"  # held while an undo waits for its approval and runs
LOCK_NAMES: dict[str, str] = {"execute": LOCK_NAME, "undo": UNDO_LOCK_NAME}
_Model = TypeVar("_Model", bound=BaseModel)


class ApprovalRequest(BaseModel):
    """What waits for a person: a plan to execute, or a verified run to undo."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: Kind
    request_id: str
    run_id: str
    plan_sha256: str  # the SHA-256 of the run's script (plan.json): what is decided
    summary: str  # what is asked, in words (the plan's summary, or the undo)
    channels: tuple[Channel, ...]
    client: str
    pid: int
    requested_at: str
    deadline: str  # ISO 8601, UTC: unanswered by then, nothing runs

    @property
    def decision_name(self) -> str:
        return f"approval.{self.request_id}.json"

    def expired(self, now: datetime | None = None) -> bool:
        return (now or datetime.now(UTC)) >= parse_time(self.deadline)

    def seconds_left(self) -> float:
        return (parse_time(self.deadline) - datetime.now(UTC)).total_seconds()


class Decision(BaseModel):
    """``approval.<request_id>.json``: what a person decided, once."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    request_id: str
    run_id: str
    plan_sha256: str
    verdict: Verdict
    channel: Channel | Literal["timeout"]
    by: str
    at: str

    def approves(self, request: ApprovalRequest) -> bool:
        return (self.verdict == "approved" and self.request_id == request.request_id
                and self.run_id == request.run_id and self.plan_sha256 == request.plan_sha256)


class _Status(BaseModel):
    status: str  # of result.json: a plan that waits has none yet


def parse_time(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def person() -> str:
    """``user@host`` of whoever runs this process (recorded with a terminal's decision)."""
    try:
        user = getpass.getuser()
    except (OSError, KeyError):
        user = "unknown"
    return f"{user}@{socket.gethostname()}"


def run_path(runs_dir: Path, run_id: str) -> Path:
    """The run directory of ``run_id``; anything but a run id is refused, so no path ever
    comes from outside unchecked."""
    if not RUN_ID_PATTERN.match(run_id):
        raise ApprovalRefused(f"run id {run_id!r} is not a run id (like 20261129T193000Z-ab12cd)")
    return Path(runs_dir) / run_id


def new_request(kind: Kind, run_id: str, plan_sha256: str, summary: str,
                channels: tuple[Channel, ...], client: str, wait_seconds: float
                ) -> ApprovalRequest:
    now = datetime.now(UTC)
    return ApprovalRequest(
        kind=kind, request_id=secrets.token_hex(8), run_id=run_id, plan_sha256=plan_sha256,
        summary=summary, channels=channels, client=client, pid=os.getpid(),
        requested_at=_iso(now), deadline=_iso(now + timedelta(seconds=wait_seconds)))


def write_request(run_dir: Path, request: ApprovalRequest) -> None:
    """Say that ``request`` waits (replacing an earlier request of its kind: only the holder
    of the request's lock calls this)."""
    _write_complete(run_dir / REQUEST_NAMES[request.kind],
                    request.model_dump_json(indent=2) + "\n", exclusive=False)


def read_request(run_dir: Path, kind: Kind) -> ApprovalRequest | None:
    return _read(run_dir / REQUEST_NAMES[kind], ApprovalRequest)


def read_decision(run_dir: Path, request: ApprovalRequest) -> Decision | None:
    return _read(run_dir / request.decision_name, Decision)


def decide(run_dir: Path, request: ApprovalRequest, verdict: Verdict,
           channel: Channel | Literal["timeout"], by: str) -> Decision:
    """Record a decision on ``request`` unless one was recorded already; the one that
    stands. An answer after the deadline is recorded ``expired``: it came too late."""
    if request.expired() and verdict != "expired":
        verdict, by = "expired", f"{by}, after the deadline"
    decision = Decision(request_id=request.request_id, run_id=request.run_id,
                        plan_sha256=request.plan_sha256, verdict=verdict, channel=channel,
                        by=by, at=utc_timestamp())
    path = run_dir / request.decision_name
    if _write_complete(path, decision.model_dump_json(indent=2) + "\n", exclusive=True):
        return decision
    standing = read_decision(run_dir, request)
    if standing is None:
        raise ApprovalRefused(f"{path} exists but cannot be read; nothing was decided")
    return standing


def waiting_request(runs_dir: Path, run_id: str) -> ApprovalRequest:
    """The request on ``run_id`` that waits for a person now, or ``ApprovalRefused`` saying
    why none does (what ``sam-agent approve`` checks before it asks)."""
    directory = run_path(runs_dir, run_id)
    if not directory.is_dir():
        raise ApprovalRefused(f"no run {run_id} in {runs_dir}")
    found = [r for r in (read_request(directory, "undo"), read_request(directory, "execute"))
             if r is not None]
    if not found:
        raise ApprovalRefused(
            f"run {run_id} has nothing waiting for approval (no MCP client asked to execute "
            "or undo it)")
    open_ = [r for r in found if read_decision(directory, r) is None]
    if not open_:
        last = read_decision(directory, found[0])
        assert last is not None
        raise ApprovalRefused(f"run {run_id} was decided already: {last.verdict} "
                              f"({last.channel}, {last.by}, {last.at})")
    request = open_[0]
    ended = _read(directory / "result.json", _Status)
    if request.kind == "execute" and ended is not None:
        raise ApprovalRefused(f"run {run_id} has ended ({ended.status}); its plan no longer "
                              "waits")
    if not is_locked(directory / LOCK_NAMES[request.kind]):
        raise ApprovalRefused(f"the server that asked for run {run_id} is no longer running; "
                              "nothing will run (ask the client again)")
    if request.expired():
        raise ApprovalRefused(f"run {run_id} waited until {request.deadline}; the time is up, "
                              "nothing runs")
    return request


def _iso(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _write_complete(path: Path, text: str, *, exclusive: bool) -> bool:
    """Write ``text`` to ``path`` complete or not at all; with ``exclusive``, only when
    ``path`` does not exist yet (False then)."""
    fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        if not exclusive:
            os.replace(temp, path)
            return True
        try:
            os.link(temp, path)  # atomic, and never replaces: the first decision stands
        except FileExistsError:
            return False
        return True
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temp)


def _read(path: Path, model: type[_Model]) -> _Model | None:
    try:
        return model.model_validate(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError, ValidationError):
        return None
