"""Every widget shows the current run or nothing (the four stale views an analyst saw): the
operations line after another example, the example picker after History → Run again, a live
provider's failure after switching to Replay, the viewport after picking a new part."""

from __future__ import annotations

from plan_steps import confirm_through_plan

from sam_plugin.runtime.config.store import SettingsStore
from sam_plugin.ui.history_view import RUN_ID_ROLE

TIMEOUT_MS = 20_000


def _pick(dock, example_id: str) -> None:
    """Choose an example in the picker as the analyst does (the combo's ``activated``)."""
    combo = dock.example_combo
    index = next(i for i in range(combo.count())
                 if (combo.itemData(i) or {}).get("id") == example_id)
    combo.setCurrentIndex(index)
    combo.activated.emit(index)


def _picked(dock) -> str:
    return (dock.example_combo.currentData() or {}).get("id", "")


def _verified(qtbot, dock, example_id: str) -> str:
    _pick(dock, example_id)
    dock.submit_button.click()
    qtbot.waitUntil(lambda: not dock.busy and "Review" in dock.status_label.text(),
                    timeout=TIMEOUT_MS)
    confirm_through_plan(qtbot, dock)
    qtbot.waitUntil(lambda: not dock.busy and dock.status_label.text() == "Verified",
                    timeout=TIMEOUT_MS)
    return dock.controller.run_id


def test_another_example_clears_the_operations_line(qtbot, replay, dock):
    _verified(qtbot, dock, "copy_merge")
    assert dock.route_label.text().startswith("Operations: transform the part")
    _pick(dock, "refine")
    assert dock.route_label.isHidden() and dock.route_label.text() == ""
    assert dock.spec_view.toPlainText() == "" and not dock.result_view.has_result()
    assert dock.plan_view.isHidden()
    assert dock.status_label.text() == "Ready"


def test_run_again_shows_its_own_example_in_the_picker(qtbot, replay, dock):
    plate = _verified(qtbot, dock, "plate")
    _verified(qtbot, dock, "refine")
    assert _picked(dock) == "refine"
    dock.history.refresh()
    item = next(dock.history.topLevelItem(i) for i in range(dock.history.topLevelItemCount())
                if dock.history.topLevelItem(i).data(0, RUN_ID_ROLE) == plate)
    dock.history.setCurrentItem(item)
    dock.history_panel.run_again_button.click()
    qtbot.waitUntil(lambda: not dock.busy, timeout=TIMEOUT_MS)
    assert dock.controller.run_id != plate
    assert _picked(dock) == "plate"  # not "refine", which ran before
    assert dock.part_combo.currentText() == "Plate"


def test_a_typed_request_that_is_no_example_leaves_the_picker_on_none(qtbot, replay, dock):
    _pick(dock, "plate")
    dock.request_edit.setPlainText("build a 10 x 10 plate meshed 2 x 2 with TRI elements")
    dock.submit_button.click()
    qtbot.waitUntil(lambda: not dock.busy, timeout=TIMEOUT_MS)
    assert dock.example_combo.currentIndex() == 0  # "(choose an example request)"


def test_a_live_failure_goes_when_replay_is_chosen(qtbot, dock, fake_provider, ui_env):
    from sam_plugin.ui.settings_dialog import SettingsDialog

    SettingsStore().save({"provider": "live", "base_url": fake_provider.base_url,
                          "model": "live-model", "profile": "generic"}, "")
    dock.refresh_provider()
    fake_provider.enqueue_error(401, {"error": {"message": "invalid api key"}})
    _pick(dock, "plate")
    dock.submit_button.click()
    qtbot.waitUntil(lambda: not dock.busy and "Failed" in dock.status_label.text(),
                    timeout=TIMEOUT_MS)
    assert not dock.result_view.error_label.isHidden()
    dock.settings_button.click()
    dialog = dock.findChild(SettingsDialog, "settingsDialog")
    dialog.replay_radio.setChecked(True)
    dialog.save()
    assert dock.provider_label.text().startswith("Answering: Replay")
    assert dock.result_view.error_label.isHidden()  # the live failure is not the replay's
    assert not dock.result_view.has_result()
    assert dock.status_label.text() == "Ready"


def test_the_same_provider_saved_again_keeps_the_run_in_view(qtbot, replay, dock):
    _verified(qtbot, dock, "plate")
    dock.refresh_provider()  # e.g. Settings saved with another length unit
    assert dock.status_label.text() == "Verified" and dock.result_view.has_result()


def test_a_new_part_shows_an_empty_viewport_not_the_last_part(qtbot, host_window, dock):
    panel = host_window.sam.mdb.models["Model-1"].parts["Panel"]
    host_window.display_part("Model-1", "Panel")
    assert host_window.displayed_part() is panel
    _pick(dock, "plate")  # Plate does not exist yet
    assert dock.part_combo.currentText() == "Plate"
    assert host_window.displayed_part() is None
    assert host_window.viewport.geometry_data.node_count == 0
    dock.part_combo.setCurrentText("Panel")
    assert host_window.displayed_part() is panel
