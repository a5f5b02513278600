"""An MCP client's run, or its undo, once it ended: shown in the dock as the analyst's own
run is (the result view and its checks, Undo, the History entry), when the dock is free
(docs/mcp.md "Inside SAM").

A run nobody approved in the dock that ran nothing (declined elsewhere, expired) is only
listed in History: it does not replace what the dock shows.
"""

from __future__ import annotations

from PySide6.QtCore import QTimer

from sam_plugin.mcp_server.outcome import Outcome
from sam_plugin.ui.mcp_approver import DockQuestions, live_part
from sam_plugin.ui.mcp_words import run_status
from sam_plugin.ui.undo_view import run_words, undo_outcome, undo_status


def show_outcome(questions: DockQuestions, outcome: Outcome) -> None:
    dock = questions.dock
    result = outcome.result
    decided_here = outcome.decision.channel == "dock"
    if outcome.kind == "undo":
        shown = result.status == "undone"
    else:
        shown = decided_here or result.status != "cancelled"
    if not shown or not questions.free():
        QTimer.singleShot(0, dock.history.refresh)  # listed, the dock's view untouched
        return
    if outcome.kind == "execute":
        dock.spec_view.setPlainText(outcome.spec_text)  # the spec that ran, not the last one
        dock.show_outside_run(result, run_status(result, outcome.client))
        return
    words = run_words(dock.runs_dir, outcome.run_id)
    undone = undo_outcome(words, outcome.undone_from, result,
                          live_part(dock.sam, result.target) is not None)
    dock.show_outside_undo(undone, undo_status(undone))
