"""Shared UI test step: approving the plan."""

from __future__ import annotations


def approve_plan(qtbot, dock, timeout=20_000):
    """The run waits at its plan (the default plan-wait setting): click Execute."""
    assert "Plan" in dock.status_label.text(), dock.status_label.text()
    assert dock.execute_button.isEnabled() and not dock.plan_view.isHidden()
    dock.execute_button.click()
    qtbot.waitUntil(lambda: not dock.busy and str(dock.controller.phase) != "plan",
                    timeout=timeout)


def confirm_through_plan(qtbot, dock, timeout=20_000):
    """Click Confirm; when the run stops at its plan, approve it (Execute). A run that returns
    to Review or fails before the plan is left as it is."""
    dock.confirm_button.click()
    qtbot.waitUntil(lambda: not dock.busy, timeout=timeout)
    if str(dock.controller.phase) == "plan":
        approve_plan(qtbot, dock, timeout=timeout)
