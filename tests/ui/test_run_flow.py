"""The run flow in the dock (issue 16): locked target in Review, Cancel to change it, Ask for
changes, the answers after a return to Review, an existing target said plainly, no stale
display, a click in the tree shows the part."""

from __future__ import annotations

import json

from plan_steps import confirm_through_plan

from sam_plugin.demo.examples import example_by_id
from sam_plugin.demo.streams import openai_stream

TIMEOUT_MS = 20_000


def _pick(dock, example_id: str) -> None:
    example = example_by_id(example_id)
    dock.set_target(example.mode, example.model, example.part)
    dock.request_edit.setPlainText(example.request)


def _wait(qtbot, dock, words: str) -> None:
    try:
        qtbot.waitUntil(lambda: not dock.busy and words in dock.status_label.text(),
                        timeout=TIMEOUT_MS)
    except Exception as error:
        raise AssertionError(f"no {words!r}; status: {dock.status_label.text()!r}") from error


def test_mode_and_target_are_locked_in_review_and_cancel_unlocks_them(qtbot, replay, dock):
    _pick(dock, "plate")
    dock.submit_button.click()
    _wait(qtbot, dock, "Review")
    for combo in (dock.mode_combo, dock.model_combo, dock.part_combo, dock.example_combo):
        assert not combo.isEnabled()
        assert "Cancel the run to change them" in combo.toolTip()
    dock.cancel_button.click()
    _wait(qtbot, dock, "Cancelled")
    assert all(c.isEnabled() for c in (dock.mode_combo, dock.model_combo, dock.part_combo))


def test_ask_for_changes_rewrites_the_spec_and_keeps_every_version(
        qtbot, replay, dock, monkeypatch):
    monkeypatch.setenv("SAM_AGENT_MODEL", "a-live-model")  # Replay itself cannot revise
    dock.refresh_provider()
    example = example_by_id("plate")
    revised = json.loads(example.recorded("en")[0])
    revised["steps"][0]["values"]["sets"] = ["ALL"]
    revised["steps"][0]["text"] = "One QUAD patch; one set ALL with every element."
    replay.enqueue_stream(openai_stream(content=example.recorded("en")[0]))
    replay.enqueue_stream(openai_stream(content=json.dumps(revised)))
    _pick(dock, "plate")
    dock.submit_button.click()
    _wait(qtbot, dock, "Review")
    assert dock.remark_edit.isVisible() or not dock.isVisible()
    assert dock.revise_button.isEnabled()
    dock.remark_edit.setText("add a set ALL with every element")
    dock.revise_button.click()
    _wait(qtbot, dock, "Review")
    assert "with the sets ALL" in dock.spec_view.toPlainText()
    assert dock.status_label.text().startswith(
        "Review — the spec was revised with your remark (2 field(s) changed)")
    # what changed between the versions, as a list of fields
    notes = dock.spec_extras.notes.text().splitlines()
    assert notes[0] == "Changed since the last version:"
    assert notes[1] == "• step 1 sets: none → ALL"
    assert dock.remark_edit.text() == ""
    run_dir = dock.runs_dir / dock.controller.run_id
    assert "with the sets" not in (run_dir / "design.1.txt").read_text()
    assert "with the sets ALL" in (run_dir / "design.2.txt").read_text()
    revisions = json.loads((run_dir / "revisions.json").read_text())
    assert revisions[0]["remark"] == "add a set ALL with every element"
    assert revisions[0]["changes"][0]["path"] == "steps[0].values.sets"
    revision_request = replay.requests[1].json
    assert "tools" not in revision_request  # still a design request (I1)
    sent = json.loads(revision_request["messages"][2]["content"])  # the current spec, as data
    assert revision_request["messages"][2]["role"] == "assistant"
    assert sent == json.loads(example.recorded("en")[0])


def test_ask_for_changes_in_replay_says_it_cannot_revise(qtbot, replay, dock):
    _pick(dock, "plate")
    dock.submit_button.click()
    _wait(qtbot, dock, "Review")
    shown = dock.spec_view.toPlainText()
    asked = len(replay.requests)
    dock.remark_edit.setText("make it 8 x 12")
    dock.revise_button.click()
    qtbot.waitUntil(lambda: dock.status_label.text().startswith("Replay cannot revise a spec"),
                    timeout=TIMEOUT_MS)
    assert len(replay.requests) == asked  # nothing was sent
    assert dock.spec_view.toPlainText() == shown and dock.confirm_button.isEnabled()
    assert str(dock.controller.phase) == "review"


def test_after_a_return_to_review_the_request_can_be_edited_and_submitted_anew(
        qtbot, replay, dock):
    import os
    from pathlib import Path

    # repair rounds off: the refusal itself must come back to Review (issue 13 repairs it)
    Path(os.environ["SAM_AGENT_SETTINGS_FILE"]).write_text('{"repair_rounds": 0}')
    example = example_by_id("plate")
    replay.enqueue_stream(openai_stream(content=example.recorded("en")[0]))
    replay.enqueue_stream(openai_stream(content="I would rather not call a tool."))
    _pick(dock, "plate")
    dock.submit_button.click()
    _wait(qtbot, dock, "Review")
    confirm_through_plan(qtbot, dock)
    _wait(qtbot, dock, "Review — returned")
    status = dock.status_label.text()
    assert "the model answered without filling in the operation (build the part)" in status
    assert "build_part" not in status and "tool_call" not in status
    # confirm again, ask for changes, or submit anew: all three are offered
    assert dock.confirm_button.isEnabled() and dock.revise_button.isEnabled()
    assert dock.submit_button.isEnabled()
    first_run = dock.controller.run_id
    dock.submit_button.click()
    _wait(qtbot, dock, "Review")
    assert dock.controller.run_id != first_run
    first = json.loads((dock.runs_dir / first_run / "result.json").read_text())
    assert first["status"] == "cancelled" and first["submissions"] == 0
    confirm_through_plan(qtbot, dock)
    _wait(qtbot, dock, "Verified")


def test_a_second_build_on_an_existing_part_is_said_plainly(qtbot, replay, dock):
    _pick(dock, "plate")
    dock.submit_button.click()
    _wait(qtbot, dock, "Review")
    confirm_through_plan(qtbot, dock)
    _wait(qtbot, dock, "Verified")
    _pick(dock, "plate")  # the same request again: Plate now has 77 nodes
    dock.submit_button.click()
    # the recorded spec builds: it does not fit an existing part, and the replay answers the
    # design repair round with the same recording
    _wait(qtbot, dock, "Failed")
    design = replay.requests[2].json["messages"][1]["content"]
    assert "'Plate' ALREADY EXISTS with 77 nodes" in design
    shown = dock.status_label.text() + dock.result_view.error_label.text()
    assert shown.count("Plate already has 77 nodes: ask to edit it, or pick a new part name") == 1
    assert dock.controller.result.submissions == 0


def test_a_new_example_or_part_clears_the_run_view(qtbot, replay, dock):
    _pick(dock, "plate")
    dock.submit_button.click()
    _wait(qtbot, dock, "Review")
    confirm_through_plan(qtbot, dock)
    _wait(qtbot, dock, "Verified")
    dock.set_target("part", "Model-1", "Plate")  # the same target: the result stays
    assert dock.status_label.text() == "Verified"
    dock.part_combo.setCurrentText("Panel")
    assert dock.status_label.text() == "Ready"
    assert dock.spec_view.toPlainText() == "" and not dock.result_view.has_result()
    dock.part_combo.setCurrentText("Plate")
    dock._last_run = ("part", dock.target())  # noqa: SLF001 - as after another run
    dock.status_label.setText("Verified")
    index = dock.example_combo.findText(example_by_id("refine").title)
    dock.example_combo.setCurrentIndex(index)
    dock.example_combo.activated.emit(index)
    assert dock.status_label.text() == "Ready"
    assert dock.mode() == "mesh" and dock.target().part_name == "Panel"


def test_a_single_click_in_the_tree_displays_the_part(qtbot, host_window):
    tree = host_window.model_tree
    model_item = tree.topLevelItem(0)
    frame = next(model_item.child(i) for i in range(model_item.childCount())
                 if model_item.child(i).text(0) == "Frame")
    tree.itemClicked.emit(frame, 0)
    qtbot.waitUntil(lambda: host_window.viewport.geometry_data.part_name == "Frame",
                    timeout=2000)


def test_choosing_a_part_in_the_dock_displays_it(qtbot, dock, host_window):
    dock.set_target("part", "Model-1", "Frame")
    qtbot.waitUntil(lambda: host_window.viewport.geometry_data.part_name == "Frame",
                    timeout=2000)
    dock.part_combo.setCurrentText("Panel")
    qtbot.waitUntil(lambda: host_window.viewport.geometry_data.part_name == "Panel",
                    timeout=2000)
    dock.part_combo.setCurrentText("NewPart")  # not there yet: nothing, not the last part
    qtbot.waitUntil(lambda: host_window.viewport.geometry_data.part_name == "", timeout=2000)
    assert host_window.displayed_part() is None


def test_a_replayed_spec_that_no_longer_fits_the_part_is_warned_at_review(
        qtbot, replay, dock, host_window):
    """Before Confirm, not only at the plan: the recorded copy-and-merge expects 16 elements
    selected, but Panel has 64 after the refinement ran first."""
    _pick(dock, "refine")
    dock.submit_button.click()
    _wait(qtbot, dock, "Review")
    assert dock.spec_extras.notes.isHidden()  # the recording fits the part as it is
    confirm_through_plan(qtbot, dock)
    _wait(qtbot, dock, "Verified")
    _pick(dock, "copy_merge")
    dock.submit_button.click()
    _wait(qtbot, dock, "Review")
    notes = dock.spec_extras.notes
    assert not notes.isHidden()
    assert notes.text() == ("Warning: the spec expects its steps to act on 16; step 1's scope "
                            "picks 64 elements on the part as it is now")
    assert dock.confirm_button.isEnabled()  # the analyst decides, warned
