"""The dock as an approval channel of its MCP server (docs/mcp.md "Inside SAM").

One question at a time, once the analyst's own run does not need the dock: an MCP plan in
``planView`` with the agent's request and spec above it (``mcpQuestionView``) and its
preview, ``executeButton`` approves and ``cancelButton`` declines; an MCP undo in words
("Undo run X: 25 → 25 nodes, 0 → 16 elements"), ``mcpUndoButton`` approves it. The answer is
the same sealed decision file as every other channel, the first decision standing.

What is shown is what runs: the compiled plan an ``execute_plan`` waits on (or the one the
gate holds, for a plan no call waits on now: ``wait_seconds`` 0, or none asked yet), the
request and spec of the very controller that executes it, and for an undo the run's result
the gate read to render the sealed request; never a plan read back from a file.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from PySide6.QtWidgets import QPushButton

from sam_plugin.compilers.plan import Plan
from sam_plugin.compilers.protocol import Target
from sam_plugin.errors import ApprovalRefused
from sam_plugin.mcp_server import approval
from sam_plugin.mcp_server.approval import Kind
from sam_plugin.mcp_server.waiting import Question, standing
from sam_plugin.runtime.store.run_store import RunResult
from sam_plugin.ui.i18n import tr
from sam_plugin.ui.mcp_question_view import McpQuestionView
from sam_plugin.ui.mcp_words import answered, plan_status, undo_status
from sam_plugin.ui.undo_view import run_words

log = logging.getLogger(__name__)

FREE_POLL_S = 0.5  # how often a waiting question looks whether the dock is free
BY = "the analyst in the SAM dock"
# the answer a record callback is given: approved or not; it returns the status words
Record = Callable[[bool], str]


@dataclass(frozen=True)
class Asked:
    """What is put before the analyst: an MCP client's plan, or its undo of a run."""

    kind: Kind
    run_id: str
    client: str
    target: Target
    plan: Plan | None = None
    mode: str = ""
    request: str = ""
    spec_text: str = ""
    warnings: tuple[str, ...] = ()
    result: RunResult | None = None  # an undo: the verified run it puts back


def plan_asked(waiting: Any) -> Asked | None:
    """The plan a gate's ``Waiting`` holds, from its controller; None without a compiled
    plan of the request's SHA-256."""
    plan, controller = waiting.plan, waiting.controller
    if not isinstance(plan, Plan) or plan.script_sha256 != waiting.request.plan_sha256:
        return None
    return Asked("execute", waiting.run_id, waiting.client, waiting.target, plan=plan,
                 mode=waiting.mode, request=controller.request, spec_text=controller.spec_text,
                 warnings=tuple(controller.review_warnings))


def undo_asked(question: Question) -> Asked | None:
    """The undo ``question`` asks about; None without the run's result it was rendered from."""
    result, request = question.undoing, question.request
    if not isinstance(result, RunResult) or result.run_id != request.run_id or \
            (result.script_sha256 or "") != request.plan_sha256:
        return None
    return Asked("undo", result.run_id, request.client, result.target, result=result)


class DockQuestions:
    """Puts one MCP question at a time before the analyst, when the dock is free."""

    def __init__(self, dock: Any) -> None:
        self.dock = dock
        self.view = McpQuestionView()
        layout = dock.plan_view.parentWidget().layout()  # the spec pane: above the plan
        layout.insertWidget(layout.indexOf(dock.plan_view), self.view, 2)
        self.undo_button = QPushButton(tr("Undo"))
        self.undo_button.setObjectName("mcpUndoButton")
        self.undo_button.setToolTip(tr("Approve the MCP client's undo: the part goes back as "
                                       "it was before the run"))
        self.undo_button.hide()
        row = dock.action_row
        row.insertWidget(row.indexOf(dock.execute_button) + 1, self.undo_button)
        self.showing: str | None = None  # the run whose question is shown
        self._turn: asyncio.Lock | None = None

    def occupied(self) -> bool:
        """The analyst's own run needs the dock (busy, or waiting at its spec or plan)."""
        dock = self.dock
        phase = str(dock.controller.phase) if dock.controller is not None else "idle"
        return bool(dock.busy) or phase in ("review", "plan")

    def free(self) -> bool:
        return not self.occupied() and self.showing is None

    async def put(self, asked: Asked, still_open: Callable[[], bool], record: Record) -> None:
        """Wait for the dock, show ``asked`` and ``record`` the analyst's answer; nothing is
        recorded once ``still_open`` says the question closed (decided elsewhere)."""
        if self._turn is None:
            self._turn = asyncio.Lock()
        async with self._turn:
            while still_open():
                if self.occupied():
                    await asyncio.sleep(FREE_POLL_S)
                    continue
                if await self._ask(asked, still_open, record):
                    return

    async def _ask(self, asked: Asked, still_open: Callable[[], bool], record: Record) -> bool:
        """Show the question until it is answered (True), or closed or the analyst's own run
        takes the dock (False)."""
        answer: asyncio.Future[bool] = asyncio.get_running_loop().create_future()

        def on_yes(*_: Any) -> None:
            if not answer.done():
                answer.set_result(True)

        def on_no(*_: Any) -> None:
            if not answer.done():
                answer.set_result(False)

        dock = self.dock
        yes = self._show(asked)
        yes.clicked.connect(on_yes)
        dock.cancel_button.clicked.connect(on_no)
        recorded = False
        try:
            while not answer.done():
                if not still_open() or self.occupied():
                    return False
                await asyncio.wait([answer], timeout=FREE_POLL_S)
            status = record(answer.result())
            recorded = True
        finally:
            with contextlib.suppress(RuntimeError):  # the dock was deleted meanwhile
                self._close(yes, (on_yes, on_no), asked.run_id, recorded)
        dock.set_status(status)
        return True

    def _close(self, yes: QPushButton, slots: tuple[Callable[..., None], Callable[..., None]],
               run_id: str, recorded: bool) -> None:
        dock = self.dock
        for button, slot in ((yes, slots[0]), (dock.cancel_button, slots[1])):
            try:
                button.clicked.disconnect(slot)
            except (RuntimeError, TypeError):  # not connected any more
                pass
        self._withdraw()
        if not recorded and not self.occupied():  # decided elsewhere, or called off
            dock.set_status(tr("Run {run_id}: nothing waits in the dock any more (decided on "
                               "another channel, or its time ran out)").format(run_id=run_id))

    def _show(self, asked: Asked) -> QPushButton:
        """The question on screen; the button that approves it."""
        dock = self.dock
        self.showing = asked.run_id
        dock.tabs.setCurrentIndex(0)
        dock.result_view.clear()
        dock.give_room_to_question(True)
        if asked.kind == "undo":
            assert asked.result is not None
            self.view.show_undo(asked.client, asked.result, run_words(dock.runs_dir,
                                                                      asked.run_id))
            dock.plan_view.clear_plan()
            dock.plan_preview.clear_preview()
            yes, status = self.undo_button, undo_status(asked.client, asked.result)
        else:
            assert asked.plan is not None
            self.view.show_plan(asked.client, asked.run_id, asked.target, asked.mode,
                                asked.request, asked.spec_text, list(asked.warnings))
            dock.plan_view.show_plan(asked.plan)
            if asked.plan.preview is not None:
                dock.plan_preview.show_preview(live_part(dock.sam, asked.target),
                                               asked.plan.preview)
                # the host's main viewport draws an agent's plan as it draws the analyst's
                dock.viewport_link.show_preview(asked.target, dock.plan_preview.layers)
            yes = dock.execute_button
            status = plan_status(asked.client, asked.run_id, asked.target, asked.plan)
        for button in (yes, dock.cancel_button):
            button.setEnabled(True)
            button.show()
        dock.submit_button.setEnabled(False)
        dock.undo.disable(tr("An MCP client's question waits in the dock: answer it first"))
        dock.set_status(status)
        return yes

    def _withdraw(self) -> None:
        """Nothing of the question stays; the analyst's own buttons are as the dock set them."""
        dock = self.dock
        self.showing = None
        self.view.clear_question()
        dock.give_room_to_question(False)
        dock.plan_view.clear_plan()
        dock.plan_preview.clear_preview()
        dock.viewport_link.clear_preview()
        self.undo_button.setEnabled(False)
        self.undo_button.hide()
        if self.occupied():  # the analyst's own run took the dock: its panel stands
            return
        for button in (dock.execute_button, dock.cancel_button):
            button.setEnabled(False)
            button.hide()
        dock.submit_button.setEnabled(True)
        dock.undo.refresh(dock.undoer())


class DockApprover:
    """The dock as an approval channel (``waiting.Approver``) of ``gate``."""

    channel = "dock"

    def __init__(self, questions: DockQuestions, gate: Any) -> None:
        self.questions = questions
        self.gate = gate

    async def ask(self, question: Question) -> None:
        request = question.request
        if request.kind == "undo":
            asked = undo_asked(question)
        else:
            waiting = self.gate.waiting(request.run_id)
            # what is shown is the plan whose script runs, never one read back from a file
            asked = plan_asked(waiting) if waiting is not None and \
                waiting.plan is question.plan else None
        if asked is None:
            log.warning("the dock is not asked about run %s: no compiled plan or run result "
                        "with its SHA-256", request.run_id)
            return

        def still_open() -> bool:
            return standing(question.run_dir, request) is None and not request.expired()

        def record(approved: bool) -> str:
            try:
                question.answer("approved" if approved else "declined", "dock", BY)
            except ApprovalRefused as refused:
                return str(refused)
            return answered(request.kind, approved, request.run_id, request.client, now=True)

        await self.questions.put(asked, still_open, record)


async def offer_waiting(gate: Any, questions: DockQuestions) -> None:
    """Plans that wait with no ``execute_plan`` asking now (``wait_seconds`` 0, or none
    asked yet) are put before the analyst too: the decision stands for the next
    ``execute_plan``, which runs an approved plan at once. Runs until cancelled."""
    while True:
        await asyncio.sleep(FREE_POLL_S)
        if not questions.free():
            continue
        for waiting in gate.waiting_runs():
            asked = plan_asked(waiting) if _open_to_dock(waiting) else None
            if asked is not None:
                gate.offered(waiting, "dock")
                await questions.put(asked, _still_waiting(gate, waiting),
                                    _recorder(waiting))
                break


def _open_to_dock(waiting: Any) -> bool:
    request = waiting.request
    return not waiting.asking and "dock" in request.channels and not request.expired() and \
        standing(waiting.run_dir, request) is None


def _still_waiting(gate: Any, waiting: Any) -> Callable[[], bool]:
    def still() -> bool:
        return gate.waiting(waiting.run_id) is waiting and \
            standing(waiting.run_dir, waiting.request) is None and \
            not waiting.request.expired()

    return still


def _recorder(waiting: Any) -> Record:
    def record(approved: bool) -> str:
        request = waiting.request
        try:
            approval.decide(waiting.run_dir, request, "approved" if approved else "declined",
                            "dock", BY)
        except ApprovalRefused as refused:
            return str(refused)
        return answered("execute", approved, request.run_id, request.client,
                        now=waiting.asking)

    return record


def live_part(sam_module: Any, target: Target) -> Any:
    """The host's part ``target`` names now, or None (a part not built yet)."""
    try:
        return sam_module.mdb.models[target.model_name].parts[target.part_name]
    except (AttributeError, KeyError):
        return None
