"""Shared UI test steps: an example to Review, to its plan, approving the plan."""

from __future__ import annotations

from sam_plugin.demo.examples import example_by_id

TIMEOUT_MS = 20_000


def to_review(qtbot, dock, example_id: str, timeout=TIMEOUT_MS):
    """Target and request of a bundled example, Submit, wait for Review."""
    example = example_by_id(example_id)
    dock.set_target(example.mode, example.model, example.part)
    dock.request_edit.setPlainText(example.request)
    dock.submit_button.click()
    qtbot.waitUntil(lambda: not dock.busy and "Review" in dock.status_label.text(),
                    timeout=timeout)


def to_plan(qtbot, dock, example_id: str, timeout=TIMEOUT_MS):
    """The example to Review, Confirm, wait for its plan."""
    to_review(qtbot, dock, example_id, timeout)
    dock.confirm_button.click()
    qtbot.waitUntil(lambda: not dock.busy and "Plan" in dock.status_label.text(),
                    timeout=timeout)


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
