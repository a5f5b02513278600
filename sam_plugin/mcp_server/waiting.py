"""Waiting for a person's decision on every channel at once, until this call's deadline
(docs/mcp.md "Approval").

The decision file (``approval.py``) is the one truth: each channel that can ask a person in
this process (the client's elicitation form, the dock) records what the person answered
there through :func:`approval.decide`, ``sam-agent approve`` does the same from another
process, and the first decision stands. While a call waits it holds the request's wait lock,
so ``sam-agent approve`` can say that the decision is acted on at once. Unanswered at the
deadline, the wait records ``expired`` itself (unless a decision came first), and the channels
still asking are called off. A forged decision file is refused (``approval.read_decision``)
and the wait goes on.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, Protocol

from sam_plugin.errors import ForgedRecord
from sam_plugin.mcp_server import approval
from sam_plugin.mcp_server.approval import ApprovalRequest, Channel, Decision, Verdict
from sam_plugin.runtime.store.file_lock import try_lock

log = logging.getLogger(__name__)

POLL_SECONDS = 0.1  # how often the decision file of another process is looked for


@dataclass(frozen=True)
class Question:
    """What a channel puts before a person: the request, in the words the server rendered
    from what will execute (``request.summary``, ``request.text``), and for an execute the
    compiled plan itself (the dock shows it; never a plan read back from a file), for an
    undo the run's result the server read to render its words (the dock words it anew)."""

    request: ApprovalRequest
    run_dir: Path
    wake: asyncio.Event
    plan: Any = None  # compilers.plan.Plan of an execute: the one whose script runs
    undoing: Any = None  # RunResult of an undo: the verified run its words were rendered from

    @property
    def title(self) -> str:
        return self.request.summary

    @property
    def text(self) -> str:
        return self.request.text

    def answer(self, verdict: Verdict, channel: Channel, by: str) -> Decision:
        """Record the person's answer on ``channel``; the decision that stands."""
        decision = approval.decide(self.run_dir, self.request, verdict, channel, by)
        self.wake.set()
        return decision


class Approver(Protocol):
    """A channel of this process on which a person can answer."""

    channel: Channel

    async def ask(self, question: Question) -> None:
        """Put ``question`` before a person and record the answer with
        ``question.answer``; return without one when the person cannot be asked here. Called
        off (cancelled) once a decision stands."""
        ...


async def wait_for_decision(run_dir: Path, request: ApprovalRequest, wait_seconds: float,
                            approvers: list[Approver], plan: Any = None, *,
                            undoing: Any = None) -> Decision:
    """Ask on this process's channels and return the decision that stands on ``request``,
    waiting at most ``wait_seconds`` (and never past the request's deadline): an ``expired``
    one then. The request's wait lock is held meanwhile."""
    until = min(datetime.now(UTC) + timedelta(seconds=wait_seconds),
                approval.parse_time(request.deadline))
    question = Question(request, run_dir, asyncio.Event(), plan, undoing)
    lock = try_lock(run_dir / approval.WAIT_LOCKS[request.kind])
    tasks = [asyncio.ensure_future(_asking(a, question)) for a in approvers]
    try:
        return await _decision(question, until)
    finally:
        if lock is not None:
            lock.release()
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task


def standing(run_dir: Path, request: ApprovalRequest) -> Decision | None:
    """The decision on ``request`` now, if any (a forged one refused: None)."""
    try:
        return approval.read_decision(run_dir, request)
    except ForgedRecord:
        return None


async def _asking(approver: Approver, question: Question) -> None:
    try:
        await approver.ask(question)
    except asyncio.CancelledError:
        raise
    except Exception:  # a channel that fails leaves the others asking
        log.warning("approval channel %s failed", approver.channel, exc_info=True)


async def _decision(question: Question, until: datetime) -> Decision:
    request, run_dir = question.request, question.run_dir
    while True:
        decision = standing(run_dir, request)
        if decision is not None:
            return decision
        left = (until - datetime.now(UTC)).total_seconds()
        if left <= 0:
            return approval.decide(run_dir, request, "expired", "timeout",
                                   "nobody answered before the deadline")
        question.wake.clear()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(question.wake.wait(), min(POLL_SECONDS, left))
