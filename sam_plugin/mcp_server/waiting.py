"""Waiting for a person's decision on every channel at once, until the deadline (docs/mcp.md
"Approval").

The decision file (``approval.py``) is the one truth: each channel that can ask a person in
this process (the client's elicitation form, the dock) records what the person answered
there through :func:`approval.decide`, ``sam-agent approve`` does the same from another
process, and the first decision stands. Unanswered at the deadline, the wait records
``expired`` itself (unless a decision came first), and the channels still asking are called
off.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from sam_plugin.mcp_server import approval
from sam_plugin.mcp_server.approval import ApprovalRequest, Channel, Decision, Verdict

log = logging.getLogger(__name__)

POLL_SECONDS = 0.1  # how often the decision file of another process is looked for


@dataclass(frozen=True)
class Question:
    """What a channel puts before a person: the request and the plan (or undo) in words."""

    request: ApprovalRequest
    title: str
    text: str
    run_dir: Path
    wake: asyncio.Event

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


async def wait_for_decision(run_dir: Path, request: ApprovalRequest, title: str, text: str,
                            approvers: list[Approver],
                            announce: Callable[[Channel], object] | None) -> Decision:
    """Write ``request`` and announce it on every channel (unless ``announce`` is None: it
    was), ask on this process's channels, and return the decision that stands (an
    ``expired`` one at the deadline)."""
    if announce is not None:
        approval.write_request(run_dir, request)
        for channel in request.channels:
            announce(channel)
    question = Question(request, title, text, run_dir, asyncio.Event())
    tasks = [asyncio.ensure_future(_asking(a, question)) for a in approvers]
    try:
        return await _decision(question)
    finally:
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task


async def _asking(approver: Approver, question: Question) -> None:
    try:
        await approver.ask(question)
    except asyncio.CancelledError:
        raise
    except Exception:  # a channel that fails leaves the others asking
        log.warning("approval channel %s failed", approver.channel, exc_info=True)


async def _decision(question: Question) -> Decision:
    request, run_dir = question.request, question.run_dir
    while True:
        decision = approval.read_decision(run_dir, request)
        if decision is not None:
            return decision
        left = request.seconds_left()
        if left <= 0:
            return approval.decide(run_dir, request, "expired", "timeout",
                                   "nobody answered before the deadline")
        question.wake.clear()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(question.wake.wait(), min(POLL_SECONDS, left))
