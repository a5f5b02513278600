"""Drive the dock as a user would, outside pytest (demo ``--auto-run``, the UI benchmark).

Waiting pumps the Qt event loop (which also runs the qasync loop's callbacks), so the GUI
stays live while a run streams.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from PySide6.QtCore import QEventLoop
from PySide6.QtWidgets import QApplication

from sam_plugin.errors import AutomationTimeout
from sam_plugin.runtime.run.phases import Phase
from sam_plugin.ui.dock import SamAgentDock


def pump_until(predicate: Callable[[], bool], timeout: float, what: str) -> None:
    """Process events until ``predicate()`` holds; raise naming ``what`` after ``timeout`` s."""
    app = QApplication.instance()
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AutomationTimeout(f"timed out after {timeout:.0f} s waiting for {what}")
        app.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 20)


def submit_request(dock: SamAgentDock, mode: str, model: str, part: str, request: str,
                   timeout: float = 60.0) -> bool:
    """Submit and wait for the spec: whether the run waits in Review."""
    dock.set_target(mode, model, part)
    dock.request_edit.setPlainText(request)
    dock.submit_button.click()
    pump_until(lambda: not dock.busy and dock.controller is not None, timeout, "the spec")
    return dock.controller is not None and dock.controller.phase is Phase.REVIEW


def run_request(dock: SamAgentDock, mode: str, model: str, part: str, request: str,
                timeout: float = 60.0) -> str:
    """Submit, wait for Review, confirm, approve the plan when it waits, wait for the end;
    returns ``statusLabel``'s text."""
    if not submit_request(dock, mode, model, part, request, timeout) or dock.controller is None:
        return dock.status_label.text()
    dock.confirm_button.click()
    pump_until(lambda: not dock.busy, timeout, "the plan")
    if dock.controller.phase is Phase.PLAN:
        dock.execute_button.click()
        pump_until(lambda: not dock.busy and dock.controller is not None
                   and dock.controller.phase is not Phase.PLAN, timeout, "the run to finish")
    return dock.status_label.text()
