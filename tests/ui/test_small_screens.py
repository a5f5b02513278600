"""Small and common screens (docs/ui.md "Small screens"): the dock scrolls instead of growing
the window, Execute and Cancel stay in sight with the preview off them, the viewport refits
after a resize, and a long error wraps instead of widening the dock."""

from __future__ import annotations

from plan_steps import to_plan


def _rect_in_window(window, widget):
    from PySide6.QtCore import QRect

    return QRect(widget.mapTo(window, widget.rect().topLeft()), widget.size())


def test_a_plan_on_a_1024_by_640_screen_keeps_the_window_and_the_buttons(
        qtbot, replay, host_window, dock):
    host_window.resize(1024, 640)
    host_window.show()
    qtbot.waitExposed(host_window)
    to_plan(qtbot, dock, "copy_merge")
    qtbot.wait(50)
    assert host_window.height() == 640  # the dock scrolls; it does not grow the window
    window_rect = host_window.rect()
    scroll = dock.findChild(type(dock.widget()), "runScroll")
    # what is drawn of the preview: its part inside the run view's scrolling viewport
    preview = _rect_in_window(host_window, dock.plan_preview).intersected(
        _rect_in_window(host_window, scroll.viewport()))
    for button in (dock.execute_button, dock.cancel_button):
        rect = _rect_in_window(host_window, button)
        assert button.isVisible() and window_rect.contains(rect), button.objectName()
        assert not rect.intersects(preview), button.objectName()  # the preview is off them
    assert dock.execute_button.isEnabled() and dock.cancel_button.isEnabled()
    # the plan and its preview scroll in the run view above the buttons
    assert scroll.verticalScrollBar().maximum() > 0


def test_the_viewport_fits_the_part_again_after_a_resize(qtbot, host_window):
    host_window.resize(1400, 900)
    host_window.show()
    qtbot.waitExposed(host_window)
    viewport = host_window.viewport
    _, radius = viewport.geometry_data.center_and_radius()
    host_window.resize(1024, 640)
    qtbot.waitUntil(lambda: viewport.height() < 600)
    side = min(viewport.width(), viewport.height())
    assert abs(viewport.scale - 0.45 * side / radius) < 1e-9  # fitted to the new size
    host_window.resize(1400, 900)
    qtbot.waitUntil(lambda: viewport.height() > 700)
    side = min(viewport.width(), viewport.height())
    assert abs(viewport.scale - 0.45 * side / radius) < 1e-9


def test_a_zoomed_viewport_keeps_its_zoom_on_resize(qtbot, host_window):
    from PySide6.QtCore import QPoint, QPointF, Qt
    from PySide6.QtGui import QWheelEvent

    host_window.resize(1400, 900)
    host_window.show()
    qtbot.waitExposed(host_window)
    viewport = host_window.viewport
    centre = QPointF(viewport.width() / 2, viewport.height() / 2)
    wheel = QWheelEvent(centre, viewport.mapToGlobal(centre), QPoint(0, 0), QPoint(0, 240),
                        Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier,
                        Qt.ScrollPhase.NoScrollPhase, False)
    viewport.wheelEvent(wheel)
    zoomed = viewport.scale
    host_window.resize(1024, 640)
    qtbot.waitUntil(lambda: viewport.height() < 600)
    assert viewport.scale == zoomed  # the analyst's zoom is theirs; F or a double-click refits


def test_a_long_error_wraps_in_the_dock_instead_of_widening_it(qtbot, host_window, dock):
    from sam_plugin.ui.fitting import unbreakable

    host_window.resize(1024, 640)
    host_window.show()
    qtbot.waitExposed(host_window)
    width = dock.width()
    path = "/home/analyst/projects/" + "very_long_folder_name/" * 8 + "workspace.sam.json"
    message = f"cannot reach http://127.0.0.1:9/v1/chat/completions while saving {path}"
    dock.set_status("Failed — " + message)
    dock.result_view.show_error("provider", message, back_in_review=False)
    dock.result_view.set_tables_shown(True)
    qtbot.wait(50)
    assert dock.width() == width
    assert host_window.width() == 1024
    label = dock.status_label
    assert unbreakable(label.text()) == "Failed — " + message  # the words are all there
    assert _rect_in_window(host_window, label).right() <= host_window.rect().right()
    assert label.height() > 2 * label.fontMetrics().lineSpacing()  # it wrapped
    error = dock.result_view.error_label
    assert error.width() <= dock.width()
