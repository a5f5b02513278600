"""History (issue 16): local times, who answered and what it cost, the whole request on hover,
a detail view, Run again, and a double-click without a file manager that says so."""

from __future__ import annotations

from plan_steps import confirm_through_plan

from sam_plugin.demo.examples import example_by_id

TIMEOUT_MS = 20_000


def _verified_plate(qtbot, dock, *, revise: bool = False) -> str:
    example = example_by_id("plate")
    dock.set_target(example.mode, example.model, example.part)
    dock.request_edit.setPlainText(example.request)
    dock.submit_button.click()
    qtbot.waitUntil(lambda: not dock.busy and "Review" in dock.status_label.text(),
                    timeout=TIMEOUT_MS)
    if revise:  # a second version (the recording answers with the same spec again)
        dock.remark_edit.setText("keep it as it is")
        dock.revise_button.click()
        qtbot.waitUntil(lambda: not dock.busy and "same spec" in dock.status_label.text(),
                        timeout=TIMEOUT_MS)
    confirm_through_plan(qtbot, dock)
    qtbot.waitUntil(lambda: not dock.busy and dock.status_label.text() == "Verified",
                    timeout=TIMEOUT_MS)
    dock.history.refresh()
    return dock.controller.run_id


def test_history_shows_the_provider_cost_and_local_time(qtbot, replay, dock):
    from sam_plugin.ui.history_view import local_time

    run_id = _verified_plate(qtbot, dock)
    row = dock.history.rows()[0]
    started = f"{run_id[:4]}-{run_id[4:6]}-{run_id[6:8]}T{run_id[9:11]}:{run_id[11:13]}:" \
              f"{run_id[13:15]}Z"
    assert row[0] == local_time(started) and "T" not in row[0] and "Z" not in row[0]
    assert row[1:4] == ("verified", "part", "Model-1/Plate")
    assert row[4] == "Replay"  # the test's replay server answers as replay-recorded
    assert float(row[6]) >= 0
    tip = dock.history.topLevelItem(0).toolTip(0)
    assert tip.startswith(example_by_id("plate").request) and run_id in tip


def test_details_show_every_spec_version_the_script_result_and_events(qtbot, replay, dock,
                                                                      monkeypatch):
    monkeypatch.setenv("SAM_AGENT_MODEL", "a-live-model")  # Replay itself cannot revise
    dock.refresh_provider()
    run_id = _verified_plate(qtbot, dock, revise=True)
    dock.history.setCurrentItem(dock.history.topLevelItem(0))
    dialog = dock.history_panel.show_details()
    assert dialog is not None and dialog.objectName() == "runDetailDialog"
    specs = dialog.tab_text("Spec versions")
    assert "=== Version 1 ===" in specs and "=== Version 2 — asked: keep it as it is ===" in specs
    assert "SAM_AGENT_COMPLETED" in dialog.tab_text("Generated script")
    assert f'"run_id": "{run_id}"' in dialog.raw_text("Result")
    assert "readback_verified" in dialog.tab_text("Events")
    dialog.close()


def test_run_again_starts_a_new_run_with_the_same_request_and_target(qtbot, replay, dock):
    first = _verified_plate(qtbot, dock)
    dock.set_target("mesh", "Model-1", "Panel")
    dock.request_edit.setPlainText("something else")
    dock.history.setCurrentItem(dock.history.topLevelItem(0))
    dock.history_panel.run_again_button.click()
    # the recorded plate builds, and Plate is built by now: the new run ends at design
    qtbot.waitUntil(lambda: not dock.busy and dock.controller.run_id != first
                    and "Failed" in dock.status_label.text(), timeout=TIMEOUT_MS)
    assert (dock.mode(), dock.target().part_name) == ("part", "Plate")
    assert dock.request_edit.toPlainText() == example_by_id("plate").request


def test_a_double_click_without_a_file_manager_says_so(qtbot, dock, monkeypatch):
    from sam_plugin.runtime.store.run_store import RunDir
    from sam_plugin.ui import history_view

    RunDir(dock.runs_dir, "20261129T100000Z-aaaaaa").create().write_text("request.txt", "x")
    dock.history.refresh()
    monkeypatch.setattr(history_view.QDesktopServices, "openUrl", lambda url: False)
    item = dock.history.topLevelItem(0)
    dock.history.itemDoubleClicked.emit(item, 0)
    note = dock.history_panel.note.text()
    assert note.startswith("No file manager could open the run directory; it is ")
    assert "20261129T100000Z-aaaaaa" in note
