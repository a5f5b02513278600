"""Runs already ended: Undo, History's Run again and Apply to other parts, and the runs an MCP
client made, shown as the analyst's own.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QTimer

from sam_plugin.ui.dock_model import (
    locked,
)
from sam_plugin.ui.history_view import RunRequest
from sam_plugin.ui.i18n import tr
from sam_plugin.ui.status_words import (
    layer_name,
)

if TYPE_CHECKING:
    from sam_plugin.ui.dock import SamAgentDock


class PastRuns:
    """What the dock does with a run once it has ended."""

    def __init__(self, dock: SamAgentDock) -> None:
        self.dock = dock

    def run_again(self, request: RunRequest) -> bool:
        """History's Run again: a new run with the same request, mode and target."""
        dock = self.dock
        if dock.busy or locked(dock.phase()):
            dock.history_panel.note.setText(tr("A run is in progress or in review: finish or "
                                               "cancel it first."))
            return False
        dock.set_target(request.mode, request.model_name, request.part_name)
        dock.request_edit.setPlainText(request.request)
        dock.tabs.setCurrentIndex(0)
        dock.run_actions.start(dock.run_actions.submit())
        return True

    def apply_to_parts(self, run_id: str) -> Any:
        """History's Apply to other parts…: the rerun dialog (ui/rerun_dialog.py)."""
        from sam_plugin.ui.rerun_dialog import open_rerun_dialog

        dock = self.dock
        if dock.busy or locked(dock.phase()):
            dock.history_panel.note.setText(tr("A run is in progress or in review: finish or "
                                               "cancel it first."))
            return None
        dialog = open_rerun_dialog(dock, run_id)
        if dialog is not None:
            dialog.rerunFinished.connect(self._after_rerun)
            dialog.partUndone.connect(self._after_rerun)
        return dialog

    def _after_rerun(self, *args: Any) -> None:
        dock = self.dock
        dock.refresh_targets()
        QTimer.singleShot(0, dock.history.refresh)

    def on_undo_clicked(self, *args: Any) -> None:
        dock = self.dock
        if dock.busy or dock.undo.run_id is None:
            return
        dock.undo.ask(dock, self.undoer(), self.undo_now)

    def undo_now(self) -> None:
        """The analyst confirmed the undo: put the part back, then show what was put back,
        read back and checked (docs/ui.md "Undo")."""
        dock = self.dock
        if dock.busy:
            return
        dock.viewport_link.clear_preview()
        result, words, outcome = dock.undo.undo(self.undoer(), dock.sam)
        dock.set_status(words)
        if result is not None:
            dock.result_view.show_undo(outcome, dock.runs_dir / result.run_id)
            dock.widgets.fit_run_splitter()
            dock.refresh_targets()
        QTimer.singleShot(0, dock.history.refresh)

    def undoer(self) -> Any:
        """Who undoes a run: the dock's controller, or before the analyst's first run (an MCP
        client's run shown) the runs directory's own undo (``run_undo.py``)."""
        dock = self.dock
        if dock.controller is not None:
            return dock.controller
        from sam_plugin.runtime.host_gateway import HostGateway
        from sam_plugin.ui.run_undo import RunsUndo

        return RunsUndo(HostGateway(dock.sam), dock.runs_dir)

    def give_room_to_question(self, asked: bool) -> None:
        """While an MCP client's question is shown (``mcp_approver.py``) it has the run tab:
        the spec view steps aside and the result area keeps only its link."""
        dock = self.dock
        dock.spec_view.setVisible(not asked)
        dock.spec_title.setVisible(not asked and not dock.result_view.has_result())
        dock.widgets.fit_run_splitter()

    def show_outside_run(self, result: Any, status: str) -> None:
        """A run an MCP client made: its result, checks, Undo and History entry as for the
        analyst's own run (docs/mcp.md "Inside SAM")."""
        dock = self.dock
        dock.run_actions.clear_plan()
        dock.result_view.show_result(result, dock.runs_dir / result.run_id, said=status)
        dock.widgets.fit_run_splitter()
        dock.set_status(status)
        dock.status_label.setToolTip(result.error.message if result.error is not None else "")
        dock.undo.refresh(self.undoer(), result)
        if result.submissions:
            dock.refresh_targets()
        QTimer.singleShot(0, dock.history.refresh)

    def show_outside_undo(self, outcome: Any, status: str) -> None:
        """An MCP client's undo: what was put back, read back and checked, as after the
        analyst's own undo."""
        dock = self.dock
        dock.set_status(status)
        dock.result_view.show_undo(outcome, dock.runs_dir / outcome.run.run_id)
        dock.widgets.fit_run_splitter()
        dock.undo.refresh(self.undoer())
        dock.refresh_targets()
        QTimer.singleShot(0, dock.history.refresh)

    def describe_error(self) -> str:
        result = self.dock.controller.result if self.dock.controller is not None else None
        if result is None or result.error is None:
            return ""
        return f"{layer_name(result.error.layer)}: {result.error.message}"
