"""The plan in the dock (§9): planView, executeButton, cancelButton at Plan, the destructive
marking and the spec/prediction warnings in colour, and the preview's colours and legend."""

from __future__ import annotations

import json

from PySide6.QtGui import QColor

from sam_plugin.demo.streams import openai_stream
from sam_plugin.ui.plan_preview import PREVIEW_COLOURS, legend_words
from sam_plugin.ui.plan_view import LINE_COLOURS
from tests.support.specs import ALL, answer, labels, step

TIMEOUT_MS = 20_000
# a spec whose own expectation the calls do not meet: destructive, and warned
DELETE_ALL_SPEC = answer(step("delete_elements", ALL), summary="Delete the panel's elements.",
                         expected={"nodes": 25, "elements": 15})


def _to_plan(qtbot, dock, replay, spec: str, *tool_calls: tuple[str, dict]) -> None:
    replay.enqueue_stream(openai_stream(content=spec))
    replay.enqueue_stream(openai_stream(tool_calls=[(n, json.dumps(a)) for n, a in tool_calls]))
    dock.set_target("part", "Model-1", "Panel")
    dock.request_edit.setPlainText("move the panel by 5 in x")
    dock.submit_button.click()
    qtbot.waitUntil(lambda: not dock.busy and "Review" in dock.status_label.text(),
                    timeout=TIMEOUT_MS)
    dock.confirm_button.click()
    qtbot.waitUntil(lambda: not dock.busy, timeout=TIMEOUT_MS)


def _panel(host_window):
    return host_window.sam.mdb.models["Model-1"].parts["Panel"]


def test_a_destructive_plan_is_shown_marked_and_warned_and_decline_runs_nothing(
        qtbot, replay, dock, host_window):
    _to_plan(qtbot, dock, replay, DELETE_ALL_SPEC,
             ("edit_part", {"delete_elements": {"by": "all"}}))
    status = dock.status_label.text()
    # the spec's own count, and a plan that leaves the part with no elements
    assert status.startswith("Plan: 1 operation, 1 destructive, 2 warnings")
    assert status.endswith("waiting for you to execute")
    assert dock.execute_button.isEnabled() and dock.cancel_button.isEnabled()
    assert not dock.confirm_button.isEnabled() and not dock.submit_button.isEnabled()
    assert not dock.plan_view.isHidden()
    text = dock.plan_view.toPlainText().splitlines()
    # destructive lines and warnings first
    assert text[0] == ("Destructive: operation 1 (edit the part): delete all elements: 16 elements "
                       "[1-16]")
    assert text[1] == "Warning: the plan leaves the part with no elements (16 → 0)"
    assert text[2] == ("Warning: the spec expects 15 elements; these operations leave 0 elements")
    colours = dock.plan_view.line_colours()
    assert colours[text[0]] == LINE_COLOURS["destructive"] == "#cf222e"
    assert colours[text[1]] == colours[text[2]] == LINE_COLOURS["warning"]
    assert 'color:#cf222e' in dock.plan_view.toHtml().replace(" ", "")

    dock.cancel_button.click()
    qtbot.waitUntil(lambda: "Cancelled" in dock.status_label.text(), timeout=TIMEOUT_MS)
    assert dock.controller.result.status == "cancelled"
    assert dock.controller.result.submissions == 0
    assert len(_panel(host_window).elements) == 16  # nothing executed
    assert dock.plan_view.isHidden() and not dock.execute_button.isEnabled()


def test_execute_runs_the_plan_and_verifies_it_exactly(qtbot, replay, dock, host_window):
    spec = answer(step("translate", ALL, vector=[5, 0, 0]),
                  summary="Translate the panel by 5 in x.", expected={"nodes": 25, "elements": 16})
    _to_plan(qtbot, dock, replay, spec, ("transform_part", {"operations": [
        {"op": "translate", "vector": [5, 0, 0]}]}))
    assert "Plan" in dock.status_label.text()
    assert "Warning" not in dock.plan_view.toPlainText()
    assert "step 1 ✓ translate all nodes by (5, 0, 0)" in dock.plan_view.toPlainText()
    dock.execute_button.click()
    qtbot.waitUntil(lambda: not dock.busy and str(dock.controller.phase) != "plan",
                    timeout=TIMEOUT_MS)
    assert dock.status_label.text() == "Verified"
    run_dir = dock.controller.runs_dir / dock.controller.run_id
    asked = [json.loads(line) for line in (run_dir / "events.jsonl").read_text().splitlines()
             if '"approval_requested"' in line]
    assert [e["channel"] for e in asked] == ["dock"]  # the plan was put before the analyst
    checks = {row[0]: row[3] for row in dock.result_view.check_rows()}
    assert checks["nodes changed, removed, added as planned"] == "yes"
    assert _panel(host_window).nodes.getFromLabel(1).coordinates[0] == 5.0


def test_the_preview_draws_added_deleted_and_moved_in_their_colours_with_a_legend(
        qtbot, replay, dock, host_window):
    spec = answer(step("delete_elements", labels(1)),
                  step("move_nodes", labels=[25], to=[45, 45, 0]),
                  step("translate_copy", labels(2), vector=[0, 0, 10]),
                  summary="Delete element 1, move node 25, copy element 2 up.")
    _to_plan(qtbot, dock, replay, spec,
             ("edit_part", {"delete_elements": {"by": "labels", "labels": [1]},
                            "move_nodes": [{"label": 25, "coordinates": [45, 45, 0]}]}),
             ("transform_part", {"operations": [{"op": "translate_copy", "vector": [0, 0, 10],
                                                 "selection": {"by": "labels",
                                                               "labels": [2]}}]}))
    preview = dock.plan_preview
    assert not preview.isHidden()
    assert len(preview.layers["deleted"]) == 1 and len(preview.layers["added"]) == 1
    assert len(preview.layers["moved"]) == 1  # element 16 uses node 25
    assert set(legend_words()) == {"current", "added", "deleted", "moved", "acted_on"}
    assert len(set(PREVIEW_COLOURS.values())) == 5  # five distinct colours
    preview.resize(400, 300)
    image = preview.grab().toImage()
    seen = {image.pixelColor(x, y).name() for x in range(0, 400, 1) for y in range(0, 300, 2)}
    for name in ("added", "deleted", "moved", "current"):
        assert QColor(PREVIEW_COLOURS[name]).name() in seen, name
    assert len(_panel(host_window).elements) == 16  # still only a preview


def test_the_plan_wait_setting_is_saved_and_reaches_the_controller(qtbot, tmp_path):
    from sam_plugin.runtime.config.store import SettingsStore
    from sam_plugin.ui.settings_dialog import SettingsDialog

    store = SettingsStore(tmp_path / "settings.json", keyring_module=None)
    dialog = SettingsDialog(store, env={})
    qtbot.addWidget(dialog)
    combo = dialog.findChild(object, "planWaitCombo")
    assert [combo.itemData(i) for i in range(combo.count())] == ["always", "destructive",
                                                                 "never"]
    assert combo.currentData() == "always"  # the default
    dialog.base_url.setText("http://localhost:11434/v1")
    dialog.model.setText("m")
    combo.setCurrentIndex(combo.findData("destructive"))
    dialog.save()
    assert json.loads(store.path.read_text())["plan_wait"] == "destructive"
    assert store.policy({}).plan_wait == "destructive"
    reopened = SettingsDialog(store, env={})
    qtbot.addWidget(reopened)
    assert reopened.findChild(object, "planWaitCombo").currentData() == "destructive"


def test_a_call_that_deletes_more_than_the_spec_says_never_reaches_the_plan(
        qtbot, replay, dock, host_window):
    """The spec-as-data issue, through the dock: "delete element 2 and nothing else" answered
    with delete all. The call contradicts the confirmed spec: back to Review, nothing run."""
    import os
    from pathlib import Path

    Path(os.environ["SAM_AGENT_SETTINGS_FILE"]).write_text('{"repair_rounds": 0}')
    spec = answer(step("delete_elements", labels(2)), summary="Delete element 2 and nothing else.")
    _to_plan(qtbot, dock, replay, spec, ("edit_part", {"delete_elements": {"by": "all"}}))
    status = dock.status_label.text()
    assert status.startswith("Review — returned"), status
    assert dock.controller.plan is None and dock.plan_view.isHidden()
    assert not dock.execute_button.isEnabled()
    assert "step 1 says delete element 2; the call deletes all elements" in \
        dock.controller.result.error.message
    assert dock.controller.result.submissions == 0
    assert len(_panel(host_window).elements) == 16  # nothing executed


def test_the_dock_never_skips_a_warned_plan_whatever_the_plan_wait_setting(
        qtbot, replay, ui_env, dock, host_window):
    (ui_env / "settings.json").write_text(json.dumps({"plan_wait": "never"}))
    _to_plan(qtbot, dock, replay, DELETE_ALL_SPEC,
             ("edit_part", {"delete_elements": {"by": "all"}}))
    assert dock.controller.policy.plan_wait == "never"
    assert dock.status_label.text().startswith("Plan: 1 operation, 1 destructive, 2 warnings")
    assert dock.execute_button.isEnabled()
    assert dock.controller.result is None or dock.controller.result.submissions == 0
    assert len(_panel(host_window).elements) == 16  # waiting: nothing executed


def test_a_warning_is_said_once_on_the_plan_page(qtbot, replay, dock, calls_from_spec):
    """Review warned that the spec expects its steps to act on 3 while its scope picks 2; at
    the plan the plan says it (with the calls' count), and Review's line is not shown twice."""
    spec = answer(step("delete_elements", labels(1, 2)), summary="Delete elements 1 and 2.",
                  expected={"selected": 3})
    replay.enqueue_stream(openai_stream(content=spec))
    dock.set_target("part", "Model-1", "Panel")
    dock.request_edit.setPlainText("delete elements 1 and 2")
    dock.submit_button.click()
    qtbot.waitUntil(lambda: not dock.busy and "Review" in dock.status_label.text(),
                    timeout=TIMEOUT_MS)
    notes = dock.spec_extras.notes
    assert notes.text() == ("Warning: the spec expects its steps to act on 3; step 1's scope "
                            "picks 2 elements on the part as it is now")
    dock.confirm_button.click()
    qtbot.waitUntil(lambda: not dock.busy and "Plan" in dock.status_label.text(),
                    timeout=TIMEOUT_MS)
    assert notes.isHidden()
    text = dock.plan_view.toPlainText()
    assert text.count("Warning:") == 1, text
    assert ("Warning: the spec expects its steps to act on 3; these operations act on 2 "
            "elements") in text
    assert "selected" not in text.lower()
