"""The dock's run actions: Submit, Ask for changes, Confirm, Execute and Cancel as tasks on the
qasync loop, and what the run view shows when one ends.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QTimer
from PySide6.QtGui import QTextCursor

from sam_plugin.runtime.run.phases import Phase
from sam_plugin.ui.dock_model import (
    DockController,
    cancellable,
    locked,
    previous_spec_stands,
)
from sam_plugin.ui.dock_model.targets import controller_target
from sam_plugin.ui.examples_picker import select_example
from sam_plugin.ui.i18n import tr
from sam_plugin.ui.plain_words import (
    build_became_edit,
    existing_target_message,
    operations_text,
)
from sam_plugin.ui.status_words import (
    final_words,
    phase_words,
    plan_words,
)

if TYPE_CHECKING:
    from sam_plugin.ui.dock import SamAgentDock

log = logging.getLogger("sam_plugin.ui.dock")
script_log = logging.getLogger("sam_plugin.script")  # what the composed script prints
CANCEL_GRACE_S = 1.0  # Cancel closes the stream within a second

ControllerFactory = Callable[[], DockController]


class RunActions:
    """The analyst's answers to a run, from the request to its result."""

    def __init__(self, dock: SamAgentDock, controller_factory: ControllerFactory,
                 open_settings: Callable[[SamAgentDock], None] | None, prewarm: Any) -> None:
        self.dock = dock
        self._controller_factory = controller_factory
        self._open_settings = open_settings
        self._prewarm = prewarm
        self._reset_pending = False

    def _ensure_controller(self) -> DockController:
        dock = self.dock
        if dock.controller is None:
            dock.controller = self._controller_factory()
            dock.controller.units = dock.targets.unit_system()[0]  # the words for people say them
            dock.bridge.attach(dock.controller)
            # said once per run: only the runs this start found (History keeps them all)
            unknown = list(dock.controller.recovered_runs)
            if unknown:  # a crash between submission and its outcome (invariant I8)
                dock.result_view.show_notice(tr(
                    "{count} earlier run(s) were submitted to SAM but their outcome was never "
                    "recorded: re-observe the part before the next run (see History).").format(
                        count=len(unknown)))
        return dock.controller

    def reset_controller(self) -> None:
        """Drop the controller (settings changed); the next submit builds a new one. During a
        run or a Review the change waits for the next submit."""
        dock = self.dock
        if locked(dock.phase()):
            self._reset_pending = True
            return
        self._reset_pending = False
        dock.bridge.detach()
        dock.controller = None

    def start(self, coro: Coroutine[Any, Any, Any]) -> asyncio.Future[Any]:
        task = asyncio.ensure_future(coro)
        self.dock._task = task
        task.add_done_callback(self._task_done)
        return task

    def _task_done(self, task: asyncio.Future[Any]) -> None:
        dock = self.dock
        if task.cancelled():
            return
        error = task.exception()
        if error is not None:
            log.error("SAM Agent task failed", exc_info=error)
            dock.set_status(tr("Failed — internal error: {error}").format(error=error))
            dock.show_panel(Phase.IDLE)

    def on_submit_clicked(self, *args: Any) -> None:
        if self.dock.busy or self.dock.phase() is Phase.PLAN:
            return
        self.start(self.submit())

    def on_revise_clicked(self, *args: Any) -> None:
        if self.dock.busy or self.dock.phase() is not Phase.REVIEW:
            return
        self.start(self.revise())

    def on_confirm_clicked(self, *args: Any) -> None:
        if self.dock.busy or self.dock.phase() is not Phase.REVIEW:
            return
        self.start(self.confirm())

    def on_execute_clicked(self, *args: Any) -> None:
        if self.dock.busy or self.dock.phase() is not Phase.PLAN:
            return
        self.start(self.execute())

    def on_cancel_clicked(self, *args: Any) -> None:
        self._start_cancel()

    def _start_cancel(self) -> asyncio.Future[Any] | None:
        if self.dock.controller is None:
            return None
        return asyncio.ensure_future(self.cancel())

    def on_settings_clicked(self, *args: Any) -> None:
        if self._open_settings is not None:
            self._open_settings(self.dock)

    async def submit(self) -> str:
        """Observing → Designing → Review (or Failed); the spec streams into ``specView``."""
        from sam_plugin.errors import SubmitRefused

        dock = self.dock
        request = dock.request_edit.toPlainText().strip()
        if not request:
            dock.set_status(tr("Type a request first"))
            return "idle"
        missing = dock.targets.missing_part()
        if missing:
            dock.set_status(missing)
            return "idle"
        if dock.controller is not None and dock.phase() is Phase.REVIEW:
            await dock.controller.cancel()  # submit anew: the spec in review is dropped
        dock.tabs.setCurrentIndex(0)  # the spec and the outcome are on the Run tab
        dock.show_panel(Phase.OBSERVING)
        select_example(dock.example_combo, dock.mode(), dock.target(), request)
        if self._prewarm is not None:
            await self._prewarm.wait()
        if self._reset_pending:
            self.reset_controller()
        dock.spec_view.clear()
        dock.spec_view.setPlaceholderText("")
        dock.spec_extras.clear()
        dock.reasoning_view.clear()
        dock.reasoning_toggle.hide()
        dock.reasoning_toggle.setChecked(False)
        dock.route_label.clear()  # the last run's operations are not this request's
        dock.route_label.setToolTip("")
        dock.route_label.hide()
        dock.result_view.clear()
        self.clear_plan()
        dock.widgets.fit_run_splitter()
        dock.progress = None
        try:
            controller = self._ensure_controller()
        except Exception as error:  # settings that do not validate, a missing module, ...
            dock.show_panel(Phase.IDLE)
            dock.set_status(tr("Not submitted — {error}").format(error=error))
            return "idle"
        dock.show_panel(Phase.OBSERVING)
        picked = dock.run_selection = dock.selection_row.chosen()
        try:  # the selection keyword only with one: a controller without picking still works
            phase = await controller.submit(
                request, dock.mode(), dock.target(), explore=dock.explore_check.isChecked(),
                **({"selection": picked} if picked is not None else {}))
        except SubmitRefused as refused:
            dock.show_panel(Phase.IDLE)
            dock.set_status(tr("Not submitted — {error}").format(error=refused))
            return "idle"
        dock._last_run = (dock.mode(), dock.target())
        dock.provider.run_provider = dock.provider_label.text()
        dock.spec_view.setPlaceholderText("")
        if phase is Phase.REVIEW:
            self._show_spec(controller)
            dock.show_panel(Phase.REVIEW)
            dock.set_status(phase_words("review"))
            dock.result_view.set_run_dir(self._run_dir())
        else:
            self.finish_ui(controller.result, back_in_review=False)
        return str(phase)

    def _show_spec(self, controller: DockController, *, revised: bool = False) -> None:
        """The spec in words (what is confirmed; its JSON one click away), the operations
        it routes to in words under it, and its warnings and changed fields."""
        dock = self.dock
        dock.spec_extras.show_spec(controller, revised=revised,
                                   notes=dock.provider.replay_ignores_pick(controller))
        dock.spec_view.moveCursor(QTextCursor.MoveOperation.Start)  # read from the top
        route = controller.route
        words = operations_text(route)
        if build_became_edit(route):
            words += " — " + tr("{message} (this spec edits it)").format(
                message=existing_target_message(controller_target(controller).part_name,
                                                dock.observed_nodes()))
        dock.route_label.setText(words)
        dock.route_label.setToolTip(route.detail if route is not None else "")
        dock.route_label.setVisible(bool(words))
        dock.widgets.fit_run_splitter()

    def _plain_reason(self, result: Any) -> str | None:
        """Better words than the error's own for a known situation, or None."""
        dock = self.dock
        error = result.error
        route = dock.controller.route if dock.controller is not None else None
        if error is not None and error.layer in ("tool_call", "compile") and \
                build_became_edit(route):
            return existing_target_message(controller_target(dock.controller).part_name,
                                           dock.observed_nodes())
        return None

    async def revise(self) -> str:
        """Ask for changes: the model rewrites the spec with the remark (no tools); the new
        spec replaces the one shown. A refused remark leaves the spec in review."""
        from sam_plugin.errors import RevisionRefused

        dock = self.dock
        controller = self._ensure_controller()
        remark = dock.remark_edit.text().strip()
        if not remark:
            dock.set_status(tr("Type what should change in the spec, then Ask for changes"))
            return str(controller.phase)
        if dock.provider.answers_from_replay():
            dock.set_status(tr("Replay cannot revise a spec: it answers with its recording, "
                               "unchanged. Confirm or Cancel, or choose a live model in "
                               "Settings to ask for changes"))
            return str(controller.phase)
        dock.show_panel(Phase.DESIGNING)
        previous = dock.spec_view.toPlainText()
        dock.spec_view.clear()
        dock.reasoning_view.clear()
        try:
            phase = await controller.revise(remark)
        except RevisionRefused as refused:
            dock.spec_view.setPlainText(previous)
            dock.show_panel(Phase.REVIEW)
            dock.set_status(tr("Not sent — {error}").format(error=refused))
            return "review"
        if phase is not Phase.REVIEW:
            self.finish_ui(controller.result, back_in_review=False)
            return str(phase)
        self._show_spec(controller, revised=True)
        result = controller.result
        if previous_spec_stands(phase, result):
            self.finish_ui(result, back_in_review=True)
            return str(phase)
        dock.remark_edit.clear()
        dock.result_view.clear()
        dock.result_view.set_run_dir(self._run_dir())
        dock.widgets.fit_run_splitter()
        dock.show_panel(Phase.REVIEW)
        if controller.spec_changes:
            dock.set_status(tr("Review — the spec was revised with your remark ({count} "
                               "field(s) changed); Confirm, ask for more changes, or Cancel")
                            .format(count=len(controller.spec_changes)))
        else:
            dock.set_status(tr("Review — the model answered with the same spec: nothing "
                               "changed; Confirm, ask again, or Cancel"))
        return str(phase)

    def pick_for_editor(self) -> Any:
        """What is picked on the target part now, small enough for a scope (else None)."""
        picked = self.dock.selection_row.selection
        return None if picked is None or picked.too_large else picked

    async def confirm(self) -> Any:
        """Collect → compile → execute once → verify; or back to Review, nothing executed."""
        dock = self.dock
        controller = self._ensure_controller()
        adoption = dock.spec_editor.adopt(controller)  # an edited spec is read first
        if adoption.refused:
            dock.set_status(adoption.refused)
            return None
        if adoption.adopted:
            self._show_spec(controller, revised=bool(controller.spec_changes))
        dock.progress = None
        dock.show_panel(Phase.COLLECTING)
        output = _Tee()
        with contextlib.redirect_stdout(output):  # the script's prints go to the run view
            result = await controller.confirm(dock.mode(), dock.target(),
                                              **dock.targets.picked_now())
        output.flush()
        self._keep_output(output.text())
        if controller.phase is Phase.PLAN:
            controller.approval_requested("dock")
            self._show_plan(controller)
            return None
        return await self._after_run(controller, result)

    async def execute(self) -> Any:
        """The analyst approved the plan: the one submission, then verification."""
        dock = self.dock
        controller = self._ensure_controller()
        dock.show_panel(Phase.EXECUTING)
        output = _Tee()
        with contextlib.redirect_stdout(output):  # the script's prints go to the run view
            result = await controller.execute(dock.mode(), dock.target(),
                                              **dock.targets.picked_now())
        output.flush()
        self._keep_output(output.text())
        return await self._after_run(controller, result)

    async def _after_run(self, controller: DockController, result: Any) -> Any:
        back_in_review = controller.phase is Phase.REVIEW
        # Give Qt a turn between the controller's synchronous tail (compile → execute →
        # verify) and the result widgets, so the two never add up to one long stall.
        await asyncio.sleep(0)
        self.finish_ui(result, back_in_review=back_in_review)
        if result is not None and result.submissions:
            await asyncio.sleep(0)
            self.dock.refresh_targets()
        return result

    async def cancel(self) -> None:
        """Close the stream within a second; a submitted script cannot be called back."""
        from sam_plugin.errors import ControllerStateError

        dock = self.dock
        controller = dock.controller
        if controller is None or not cancellable(controller.phase):
            return
        try:
            await asyncio.wait_for(controller.cancel(), timeout=CANCEL_GRACE_S)
        except ControllerStateError as refused:
            dock.set_status(str(refused))
            return
        except TimeoutError:
            pass
        task = dock._task
        if task is not None and not task.done():
            try:
                await asyncio.wait_for(asyncio.shield(task), timeout=CANCEL_GRACE_S)
            except (TimeoutError, asyncio.CancelledError):
                task.cancel()
        self.finish_ui(controller.result, back_in_review=False)

    def _keep_output(self, text: str) -> None:
        run_dir = self._run_dir()
        if text.strip() and run_dir is not None and run_dir.is_dir():
            (run_dir / "script_output.txt").write_text(text, encoding="utf-8")

    def _run_dir(self) -> Path | None:
        dock = self.dock
        run_id = dock.controller.run_id if dock.controller is not None else None
        return dock.runs_dir / run_id if run_id else None

    def finish_ui(self, result: Any, back_in_review: bool) -> None:
        dock = self.dock
        dock.check_thread()
        self.clear_plan()  # the run left its plan (plan.json keeps it); the result gets the room
        dock.spec_view.setPlaceholderText("")
        if result is not None:
            plain = self._plain_reason(result)
            status = final_words(result, back_in_review, plain=plain)
            dock.result_view.show_result(result, self._run_dir(), back_in_review, plain=plain,
                                         said=status)
            dock.widgets.fit_run_splitter()
            dock.set_status(status)
            error = result.error
            dock.status_label.setToolTip(error.message if error is not None else "")
        if back_in_review:
            dock.show_panel(Phase.REVIEW)
        else:
            dock.show_panel(Phase.IDLE)
            dock.undo.refresh(dock.controller, result)
        QTimer.singleShot(0, dock.history.refresh)  # reads the runs directory: not in this turn
        dock.runFinished.emit(result)

    def _show_plan(self, controller: DockController) -> None:
        """The run waits at its plan: show it (and its preview), Execute or Cancel."""
        dock = self.dock
        plan = controller.plan
        dock.spec_extras.refresh_words(controller)
        if plan is not None and plan.warnings:  # said once: the plan's own, first in it
            dock.spec_extras.notes.hide()
        dock.plan_view.show_plan(plan)
        if plan is not None and plan.preview is not None:
            dock.plan_preview.show_preview(dock.targets.live_part(), plan.preview)
            dock.viewport_link.show_preview(dock.target(), dock.plan_preview.layers)
        dock.widgets.compact_spec(True)  # the plan gets the room; the spec keeps three lines
        dock.show_panel(Phase.PLAN)
        dock.set_status(plan_words(plan))

    def clear_plan(self) -> None:
        dock = self.dock
        dock.plan_view.clear_plan()
        dock.plan_preview.clear_preview()
        dock.viewport_link.clear_preview()
        dock.execute_button.setEnabled(False)
        dock.execute_button.hide()
        dock.widgets.compact_spec(False)

    def clear_run_view(self) -> None:
        """A new choice of example or target: nothing of the last run stays on screen."""
        dock = self.dock
        dock.spec_view.clear()
        dock.spec_view.setPlaceholderText("")
        dock.spec_extras.clear()
        dock.reasoning_view.clear()
        dock.reasoning_toggle.hide()
        dock.route_label.clear()
        dock.route_label.setToolTip("")
        dock.route_label.hide()
        self.clear_plan()
        dock.result_view.clear()
        dock.remark_edit.clear()
        dock.status_label.setToolTip("")
        dock.provider.run_provider = None
        dock.widgets.fit_run_splitter()
        dock.set_status(phase_words("idle"), kind="idle")  # the last run's colour goes too


class _Tee(io.TextIOBase):
    """Keeps what the script prints (the run view shows it) and passes each line to the
    ``sam_plugin.script`` logger, never to the host's stdout: the host's logging decides
    where the script's output goes (docs/install.md "Where the plugin's output goes")."""

    def __init__(self) -> None:
        super().__init__()
        self._kept = io.StringIO()
        self._line = ""

    def write(self, text: str) -> int:
        self._kept.write(text)
        self._line += text
        *lines, self._line = self._line.split("\n")
        for line in lines:
            script_log.info("%s", line)
        return len(text)

    def flush(self) -> None:
        if self._line:
            script_log.info("%s", self._line)
            self._line = ""

    def text(self) -> str:
        return self._kept.getvalue()
