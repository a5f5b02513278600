"""Plugin load/unload as SAM does it, and qasync attached to the host's application."""

from __future__ import annotations

import asyncio

import qasync
from PySide6.QtCore import QCoreApplication, QEvent
from PySide6.QtWidgets import QDockWidget

from sam_plugin.ui.host_adapter import instance_for


def _flush_deletes() -> None:
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)


def _listeners():
    import sam

    return list(sam.session.viewports["Viewport: 1"]._listeners)


def test_unload_leaves_no_dock_and_no_live_connections(qtbot, replay, host_window):
    from sam_plugin.ui.dock import SamAgentDock

    dock = host_window.findChild(SamAgentDock, "samAgentDock")
    instance = instance_for(host_window.host)
    assert instance is not None and instance.dock is dock
    plugin_listener = instance.listeners[0][1]
    assert plugin_listener in _listeners()
    # a controller exists and listens (a run reached Review)
    dock.set_target("part", "Model-1", "Plate")
    dock.request_edit.setPlainText("build a 60 x 100 plate meshed 6 x 10 with QUAD elements")
    dock.submit_button.click()
    qtbot.waitUntil(lambda: "Review" in dock.status_label.text(), timeout=20_000)
    controller = dock.controller
    assert len(controller._bus._listeners) == 1
    submit_button = dock.submit_button
    assert submit_button.receivers("2clicked(bool)") >= 1

    host_window.unload_plugins()
    assert instance_for(host_window.host) is None
    assert controller._bus._listeners == []  # the bridge unsubscribed
    assert plugin_listener not in _listeners()  # the host's viewport forgot the plugin
    assert submit_button.receivers("2clicked(bool)") == 0
    assert dock.bridge.receivers("2eventReceived(PyObject)") == 0
    assert host_window.host.docks == []
    _flush_deletes()
    assert host_window.findChild(QDockWidget, "samAgentDock") is None
    # the host's own listener (the window's redraw) is still there
    assert _listeners() == [host_window._on_viewport_changed]


def test_unload_during_a_stream_stops_the_work(qtbot, replay, host_window):
    from sam_plugin.ui.dock import SamAgentDock

    replay.replay_responder.delay = 0.05
    dock = host_window.findChild(SamAgentDock, "samAgentDock")
    dock.set_target("part", "Model-1", "Plate")
    dock.request_edit.setPlainText("build a 60 x 100 plate meshed 6 x 10 with QUAD elements")
    dock.submit_button.click()
    qtbot.waitUntil(lambda: bool(dock.spec_view.toPlainText()), timeout=20_000)
    task = dock._task
    host_window.unload_plugins()
    qtbot.waitUntil(task.done, timeout=2000)
    assert task.cancelled() or str(dock.controller.phase) == "cancelled"
    assert replay.client_disconnected.wait(2.0)


def test_reload_after_unload_docks_a_fresh_dock(qtbot, host_window):
    first = host_window.findChild(QDockWidget, "samAgentDock")
    host_window.unload_plugins()
    _flush_deletes()
    host_window.load_plugins()
    second = host_window.findChild(QDockWidget, "samAgentDock")
    assert second is not None and second is not first
    assert len(host_window.host.docks) == 1


def test_qasync_is_attached_to_the_running_application_without_taking_its_loop(qtbot,
                                                                              host_window):
    loop = asyncio.get_running_loop()  # the plugin made the qasync loop the running loop
    assert isinstance(loop, qasync.QEventLoop)
    results: list[str] = []

    async def work() -> None:
        await asyncio.sleep(0.01)
        results.append("ran")

    asyncio.ensure_future(work())
    qtbot.waitUntil(lambda: results == ["ran"], timeout=2000)  # driven by Qt's own loop
    host_window.unload_plugins()
    qtbot.waitUntil(lambda: asyncio._get_running_loop() is None, timeout=2000)


def test_a_second_plugin_load_reuses_the_loop(qtbot, ui_env, workspace):
    import sam_host

    first = sam_host.create_window(workspace)
    second = sam_host.create_window(workspace)
    qtbot.addWidget(first)
    qtbot.addWidget(second)
    loop_a = instance_for(first.host).lease.loop
    loop_b = instance_for(second.host).lease.loop
    assert loop_a is loop_b
    first.shutdown()
    assert asyncio._get_running_loop() is loop_a  # still leased by the second window
    second.shutdown()
    qtbot.waitUntil(lambda: asyncio._get_running_loop() is None, timeout=2000)
