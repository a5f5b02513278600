"""A person's decision on what an MCP client asks to run, as sealed files in the run directory
(docs/mcp.md "Approval" and "Trust boundary", docs/architecture.md §7).

- The request: ``approval_request.json`` (execute the run's plan; written by the server that
  made the plan, when it made it, and standing until it is decided or its deadline passes) or
  ``undo_request.json`` (undo the verified run; written by the ``undo_run`` that waits, while
  it holds ``undo.lock``). It names a fresh ``request_id``, the run, the SHA-256 of the plan's
  script, what is asked in words (rendered by the server from what will execute, never read
  back from a file), the channels a person may answer on, the client and the deadline.
- The decision: ``approval.<request_id>.json``, ``approved``, ``declined`` or ``expired``,
  naming the request, the run and the SHA-256 it decides, with the channel and who. It is
  created once, complete or not at all: a temp file hard-linked to its name, which fails when
  the name exists. So the first channel to decide wins, across processes, and nothing
  replaces a decision; a decision for one request never answers another.

Both are sealed (``record_seal``) under the per-user secret that seals undo snapshots. A
request whose seal does not hold is refused as forged; a decision whose seal does not hold, or
that names another request, run, plan or channel, is put aside (``forged.<request_id>.<n>.json``),
logged (``decision_forged``) and refused in one line: it is never a person's decision. Whoever
can write the runs directory without reading the secret cannot approve; an agent that runs
commands as this user can read it (docs/mcp.md "Trust boundary").

No MCP tool writes these files: an agent's arguments never name a path, and no tool approves.
This module imports neither the MCP SDK nor the controller, so ``sam-agent approve`` works
without the ``[mcp]`` extra.
"""

from __future__ import annotations

import contextlib
import getpass
import json
import logging
import os
import secrets
import socket
import tempfile
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, Literal, TypeVar, cast, get_args

from pydantic import BaseModel, ConfigDict, ValidationError

from sam_plugin.errors import ApprovalRefused, ForgedRecord
from sam_plugin.runtime.config.store import APPROVAL_CHANNELS as SAVED_CHANNELS
from sam_plugin.runtime.event_types import DecisionForged
from sam_plugin.runtime.events import utc_timestamp
from sam_plugin.runtime.store.file_lock import is_locked
from sam_plugin.runtime.store.record_seal import record_holds, seal_record
from sam_plugin.runtime.store.run_store import RUN_ID_PATTERN, RunDir
from sam_plugin.runtime.store.undo import log_emitter

log = logging.getLogger(__name__)

# where a person answers (docs/architecture.md §8 ``approval_requested``): the MCP client's
# form, the dock inside SAM, ``sam-agent approve`` in another terminal, the CLI's own prompt
Channel = Literal["elicitation", "dock", "command", "cli"]
CHANNELS: tuple[str, ...] = get_args(Channel)
# the channels a site may allow for MCP (``--approval``, Settings): all three by default
APPROVAL_CHANNELS = cast("tuple[Channel, ...]", SAVED_CHANNELS)
Verdict = Literal["approved", "declined", "expired"]
Kind = Literal["execute", "undo"]
REQUEST_NAMES: dict[str, str] = {"execute": "approval_request.json",
                                 "undo": "undo_request.json"}
UNDO_LOCK_NAME = "undo.lock"  # held while an undo waits for its approval and runs
WAIT_LOCK_NAME = "execute.lock"  # held while an execute_plan call waits for the decision
WAIT_LOCKS: dict[str, str] = {"execute": WAIT_LOCK_NAME, "undo": UNDO_LOCK_NAME}
REQUEST_SEAL, DECISION_SEAL = "mcp_approval_request", "mcp_approval_decision"
_Model = TypeVar("_Model", bound=BaseModel)


class ApprovalRequest(BaseModel):
    """What waits for a person: a plan to execute, or a verified run to undo."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: Kind
    request_id: str
    run_id: str
    plan_sha256: str  # the SHA-256 of the run's script: what is decided
    summary: str  # what is asked, in one line
    text: str  # what the person reads: the plan (and its calls), or the undo, in words
    channels: tuple[Channel, ...]
    client: str
    pid: int
    requested_at: str
    deadline: str  # ISO 8601, UTC: unanswered by then, nothing runs
    seal: str = ""

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
    seal: str = ""

    def approves(self, request: ApprovalRequest) -> bool:
        return self.verdict == "approved" and _stranger(self, request) is None


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


def new_request(kind: Kind, run_id: str, plan_sha256: str, summary: str, text: str,
                channels: tuple[Channel, ...], client: str, wait_seconds: float
                ) -> ApprovalRequest:
    """A fresh request, sealed."""
    now = datetime.now(UTC)
    request = ApprovalRequest(
        kind=kind, request_id=secrets.token_hex(8), run_id=run_id, plan_sha256=plan_sha256,
        summary=summary, text=text, channels=channels, client=client, pid=os.getpid(),
        requested_at=_iso(now), deadline=_iso(now + timedelta(seconds=wait_seconds)))
    return _sealed(REQUEST_SEAL, request)


def write_request(run_dir: Path, request: ApprovalRequest) -> None:
    """Say that ``request`` waits (replacing an earlier request of its kind: only the server
    that holds the plan, or the waiting undo, calls this)."""
    _write_complete(run_dir / REQUEST_NAMES[request.kind],
                    request.model_dump_json(indent=2) + "\n", exclusive=False)


def read_request(run_dir: Path, kind: Kind) -> ApprovalRequest | None:
    """The request of ``kind`` that waits in ``run_dir`` (None: there is none);
    ``ForgedRecord`` when the file is there but is not one this user's sam-agent sealed."""
    path = run_dir / REQUEST_NAMES[kind]
    if not path.exists():
        return None
    request = _read(path, ApprovalRequest)
    why = None
    if request is None:
        why = "it is not a request sam-agent writes"
    elif not _holds(REQUEST_SEAL, request):
        why = "its seal does not hold under this user's secret"
    elif request.kind != kind or request.run_id != run_dir.name:
        why = f"it names {request.kind} of run {request.run_id}"
    if why is not None:
        raise ForgedRecord(f"{path.name} of run {run_dir.name} is refused as forged: {why}; "
                           "nothing is decided on it")
    return request


def read_decision(run_dir: Path, request: ApprovalRequest) -> Decision | None:
    """The decision that stands on ``request`` (None: none yet). A decision file that is not
    one sealed for this very request is put aside, logged, and ``ForgedRecord`` says so."""
    path = run_dir / request.decision_name
    if not path.exists():
        return None
    decision = _read(path, Decision)
    if decision is None:
        why: str | None = "it is not a decision sam-agent writes"
    elif not _holds(DECISION_SEAL, decision):
        why = "its seal does not hold under this user's secret"
    else:
        why = _stranger(decision, request)
    if why is None and decision is not None:
        return decision
    raise _refused_as_forged(run_dir, path, request, why or "")


def decide(run_dir: Path, request: ApprovalRequest, verdict: Verdict,
           channel: Channel | Literal["timeout"], by: str) -> Decision:
    """Record a decision on ``request`` unless one was recorded already; the one that
    stands. An answer after the deadline is recorded ``expired``: it came too late. A forged
    file in the decision's place is put aside first (``read_decision``); a channel the
    request does not allow decides nothing."""
    if channel != "timeout" and channel not in request.channels:
        raise ApprovalRefused(f"run {request.run_id} takes decisions only on "
                              f"{', '.join(request.channels)}, not on {channel}")
    if request.expired() and verdict != "expired":
        verdict, by = "expired", f"{by}, after the deadline"
    decision = _sealed(DECISION_SEAL, Decision(
        request_id=request.request_id, run_id=request.run_id, plan_sha256=request.plan_sha256,
        verdict=verdict, channel=channel, by=by, at=utc_timestamp()))
    path = run_dir / request.decision_name
    for _ in range(3):
        if _write_complete(path, decision.model_dump_json(indent=2) + "\n", exclusive=True):
            return decision
        try:
            standing = read_decision(run_dir, request)
        except ForgedRecord:
            continue  # put aside: the name is free for the person's decision
        if standing is not None:
            return standing
    raise ApprovalRefused(f"{path} keeps being replaced; nothing was decided")


def waiting_request(runs_dir: Path, run_id: str,
                    note: Callable[[str], object] = log.warning) -> ApprovalRequest:
    """The request on ``run_id`` that waits for a person now, or ``ApprovalRefused`` saying
    why none does (what ``sam-agent approve`` checks before it asks). A forged decision in
    the way is refused and ``note`` says so in one line."""
    directory = run_path(runs_dir, run_id)
    if not directory.is_dir():
        raise ApprovalRefused(f"no run {run_id} in {runs_dir}")
    found = [r for r in (read_request(directory, "undo"), read_request(directory, "execute"))
             if r is not None]
    if not found:
        raise ApprovalRefused(
            f"run {run_id} has nothing waiting for approval (no MCP client planned a change "
            "or asked to undo it)")
    open_: list[ApprovalRequest] = []
    decided: list[Decision] = []
    for request in found:
        try:
            decision = read_decision(directory, request)
        except ForgedRecord as forged:
            note(str(forged))
            decision = None
        if decision is None:
            open_.append(request)
        else:
            decided.append(decision)
    if not open_:
        last = decided[0]
        raise ApprovalRefused(f"run {run_id} was decided already: {last.verdict} "
                              f"({last.channel}, {last.by}, {last.at})")
    request = open_[0]
    ended = _read(directory / "result.json", _Status)
    if request.kind == "execute" and ended is not None:
        raise ApprovalRefused(f"run {run_id} has ended ({ended.status}); its plan no longer "
                              "waits")
    if request.kind == "undo" and not waits_now(directory, request):
        raise ApprovalRefused(f"the server that asked to undo run {run_id} is no longer "
                              "waiting; nothing will run (ask the client again)")
    if request.expired():
        raise ApprovalRefused(f"run {run_id} waited until {request.deadline}; the time is up, "
                              "nothing runs")
    return request


def channels_of(text: str) -> tuple[Channel, ...]:
    """``dock,elicitation,command`` (any of them, comma-separated) as channels, in their
    order; ``ValueError`` names what is not one."""
    named = [word.strip() for word in text.split(",") if word.strip()]
    unknown = [word for word in named if word not in APPROVAL_CHANNELS]
    if unknown or not named:
        raise ValueError(f"{', '.join(unknown) or 'nothing'} is not a channel; name one or more "
                         f"of {', '.join(APPROVAL_CHANNELS)} (comma-separated)")
    return tuple(c for c in APPROVAL_CHANNELS if c in named)


def waits_now(run_dir: Path, request: ApprovalRequest) -> bool:
    """Whether a server's call waits for this decision right now (and so acts on it at
    once)."""
    return is_locked(run_dir / WAIT_LOCKS[request.kind])


def _stranger(decision: Decision, request: ApprovalRequest) -> str | None:
    """Why ``decision`` is not a decision on ``request`` (None: it is)."""
    if decision.run_id != request.run_id:
        return f"it is a decision on run {decision.run_id}, not on run {request.run_id}"
    if decision.request_id != request.request_id:
        return (f"it decides request {decision.request_id}, not the request "
                f"{request.request_id} that waits")
    if decision.plan_sha256 != request.plan_sha256:
        return f"it decides plan_sha256 {decision.plan_sha256[:12]}…, not the plan's"
    if decision.channel != "timeout" and decision.channel not in request.channels:
        return (f"its channel {decision.channel} is not one this request allows "
                f"({', '.join(request.channels)})")
    return None


def _refused_as_forged(run_dir: Path, path: Path, request: ApprovalRequest,
                       why: str) -> ForgedRecord:
    """``path`` put aside and logged as forged; the one line that says so."""
    aside = run_dir / f"forged.{request.request_id}.{secrets.token_hex(3)}.json"
    with contextlib.suppress(FileNotFoundError):  # another reader put it aside already
        os.replace(path, aside)
    message = (f"refused {path.name} of run {request.run_id} as forged: {why}; it is not a "
               f"person's decision and decides nothing (kept as {aside.name})")
    log.warning(message)
    with contextlib.suppress(OSError):
        emit = log_emitter(RunDir(run_dir.parent, run_dir.name))
        emit(DecisionForged(file=aside.name, reason=why, action=request.kind))
    return ForgedRecord(message)


def _fields(record: BaseModel) -> dict[str, Any]:
    return record.model_dump(mode="json", exclude={"seal"})


def _sealed(kind: str, record: _Model) -> _Model:
    return record.model_copy(update={"seal": seal_record(kind, _fields(record))})


def _holds(kind: str, record: ApprovalRequest | Decision) -> bool:
    return record_holds(kind, _fields(record), record.seal)


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
