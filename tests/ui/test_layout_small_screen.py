"""At 1024 x 640 (issue 16): the spec has the room in Review, the result in Complete, and every
control stays reachable."""

from __future__ import annotations

from plan_steps import confirm_through_plan

from sam_plugin.demo.examples import example_by_id

TIMEOUT_MS = 20_000
CONTROLS = ("modeCombo", "modelCombo", "partCombo", "exampleCombo", "requestEdit",
            "submitButton", "settingsButton", "providerLabel", "statusLabel", "specView")


def _inside_window(window, widget) -> bool:
    top_left = widget.mapTo(window, widget.rect().topLeft())
    bottom_right = widget.mapTo(window, widget.rect().bottomRight())
    return (widget.isVisible() and window.rect().contains(top_left)
            and window.rect().contains(bottom_right))


def test_the_dock_fits_a_1024_by_640_screen(qtbot, replay, host_window, dock):
    from PySide6.QtWidgets import QWidget

    host_window.resize(1024, 640)
    host_window.show()
    qtbot.waitExposed(host_window)
    example = example_by_id("copy_merge")
    dock.set_target(example.mode, example.model, example.part)
    dock.request_edit.setPlainText(example.request)
    dock.submit_button.click()
    qtbot.waitUntil(lambda: not dock.busy and "Review" in dock.status_label.text(),
                    timeout=TIMEOUT_MS)
    qtbot.wait(50)
    for name in (*CONTROLS, "confirmButton", "cancelButton", "remarkEdit", "reviseButton"):
        widget = dock.findChild(QWidget, name)
        assert _inside_window(host_window, widget), name
    lines = dock.spec_view.viewport().height() // dock.spec_view.fontMetrics().lineSpacing()
    assert lines >= 6, lines  # the spec has the room
    splitter = dock.run_splitter
    assert splitter.sizes()[1] <= 30  # the empty result area keeps only its link
    confirm_through_plan(qtbot, dock)
    qtbot.waitUntil(lambda: not dock.busy, timeout=TIMEOUT_MS)
    qtbot.wait(50)
    assert dock.status_label.text() == "Verified"
    spec_size, result_size = splitter.sizes()
    assert result_size >= 1.5 * spec_size, (spec_size, result_size)  # the result has it now
    for name in CONTROLS:
        assert _inside_window(host_window, dock.findChild(QWidget, name)), name
    scroll = dock.findChild(QWidget, "resultScroll")
    assert scroll.verticalScrollBar().maximum() > 0 or dock.result_view.checks.isVisible()
