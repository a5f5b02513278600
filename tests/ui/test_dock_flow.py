"""The analyst's whole flow in the dock against the loopback provider (real HTTP/SSE path)."""

from __future__ import annotations

import json
import threading

from plan_steps import approve_plan
from PySide6.QtCore import QThread

from sam_plugin.demo.examples import example_by_id
from sam_plugin.demo.streams import openai_stream

TIMEOUT_MS = 20_000


def _submit(qtbot, dock, example_id: str) -> None:
    example = example_by_id(example_id)
    dock.set_target(example.mode, example.model, example.part)
    dock.request_edit.setPlainText(example.request)
    dock.submit_button.click()


def _wait_review(qtbot, dock) -> None:
    try:
        qtbot.waitUntil(lambda: not dock.busy and "Review" in dock.status_label.text(),
                        timeout=TIMEOUT_MS)
    except Exception as error:
        raise AssertionError(f"no Review; status: {dock.status_label.text()!r}") from error


def test_full_flow_streams_spec_confirms_and_verifies(qtbot, replay, dock, host_window):
    seen_statuses: list[str] = []
    dock.status_label.windowIconTextChanged  # noqa: B018 - the label exists
    original = dock.set_status

    def record(text: str) -> None:
        seen_statuses.append(text)
        original(text)

    dock.set_status = record  # type: ignore[method-assign]
    _submit(qtbot, dock, "plate")
    _wait_review(qtbot, dock)
    spec = dock.spec_view.toPlainText()
    # the spec in words, rendered from its data; the data one click away
    assert spec.startswith("Spec: Build the new part Plate in Model-1: a flat 60 x 100 plate")
    assert "1. build a mesh of QUAD elements, size 60 x 100 mm, divided 6 x 10" in spec
    assert dock.route_label.text() == "Operations: build the part"
    assert dock.route_label.toolTip() == "the target part is missing or empty, so it is built"
    assert dock.spec_extras.json_button.isVisibleTo(dock)
    dock.spec_extras.json_button.click()
    assert json.loads(dock.spec_view.toPlainText())["steps"][0]["values"]["divisions"] == [6, 10]
    dock.spec_extras.json_button.click()
    assert dock.spec_view.toPlainText() == spec
    assert dock.confirm_button.isEnabled() and dock.cancel_button.isEnabled()
    assert dock.status_label.text() == "Review — read the spec, then Confirm or Cancel"

    dock.confirm_button.click()
    qtbot.waitUntil(lambda: not dock.busy, timeout=TIMEOUT_MS)
    approve_plan(qtbot, dock)
    assert dock.status_label.text() == "Verified"
    view = dock.result_view
    assert (view.cell("nodes", "before"), view.cell("nodes", "after")) == ("0", "77")
    assert (view.cell("elements", "before"), view.cell("elements", "after")) == ("0", "60")
    assert (view.cell("QUAD", "after"), view.cell("TRI", "after"),
            view.cell("BEAM", "after")) == ("60", "0", "0")
    checks = {name: (expected, actual, ok) for name, expected, actual, ok in view.check_rows()}
    assert checks["node count"] == ("77", "77", "yes")
    assert checks["element count"] == ("60", "60", "yes")
    assert all(ok == "yes" for _, _, ok in checks.values())
    # progress in true words, in order, and nothing claimed before the readback
    joined = " | ".join(seen_statuses)
    for words in ("Designing", "Review", "Collecting tool calls 1/1", "Compiling",
                  "Submitted to SAM", "Executed — verifying", "Verified"):
        assert words in joined, (words, joined)
    assert joined.index("Submitted to SAM") < joined.index("Executed — verifying") < joined.index(
        "Verified")
    assert not any("done" in s.lower() for s in seen_statuses)
    # the run directory link, the history and the host's view of the new part
    assert view.run_dir is not None and (view.run_dir / "result.json").exists()
    assert json.loads((view.run_dir / "result.json").read_text())["status"] == "verified"
    assert dock.history.rows()[0][1:3] == ("verified", "part")
    assert ("Model-1", "Plate", 77, 60) in host_window.model_tree.part_rows()
    assert host_window.viewport.geometry_data.part_name == "Plate"
    assert dock.offthread_updates == 0


def test_cancel_during_streaming_closes_the_stream_within_a_second(qtbot, replay, dock):
    replay.replay_responder.delay = 0.05  # the spec now takes several seconds to stream
    _submit(qtbot, dock, "plate")
    qtbot.waitUntil(lambda: len(dock.spec_view.toPlainText()) > 10, timeout=TIMEOUT_MS)
    assert str(dock.controller.phase) == "designing"
    import time

    started = time.monotonic()
    dock.cancel_button.click()
    qtbot.waitUntil(lambda: not dock.busy and "Cancelled" in dock.status_label.text(),
                    timeout=3000)
    assert time.monotonic() - started < 1.0
    assert dock.status_label.text() == "Cancelled — nothing was executed"
    assert replay.client_disconnected.wait(2.0)
    assert dock.submit_button.isEnabled() and not dock.confirm_button.isEnabled()
    assert dock.controller.result.status == "cancelled"


def _bad_plate_call(replay) -> None:
    example = example_by_id("plate")
    replay.enqueue_stream(openai_stream(content=example.recorded("en")[0]))
    bad = {"patches": [{"id": "plate", "shape": "QUAD",
                        "corners": [[0, 0, 0], [60, 0, 0], [60, 100, 0], [0, 100, 0]],
                        "divisions": [0, 10]}]}
    replay.enqueue_stream(openai_stream(tool_calls=[("build_part", json.dumps(bad))]))


def test_a_bad_tool_call_is_repaired_and_verified(qtbot, replay, dock):
    seen: list[str] = []
    original = dock.set_status
    dock.set_status = lambda text: (seen.append(text), original(text))  # type: ignore
    _bad_plate_call(replay)
    _submit(qtbot, dock, "plate")
    _wait_review(qtbot, dock)
    dock.confirm_button.click()
    qtbot.waitUntil(lambda: not dock.busy, timeout=TIMEOUT_MS)
    assert dock.controller.result is None or dock.controller.result.submissions == 0
    approve_plan(qtbot, dock)  # the repaired call is what the plan shows and executes
    assert dock.status_label.text() == "Verified"
    assert any(s.startswith("Repair 1/2: build_part — ") and "divisions" in s for s in seen)
    assert dock.controller.result.repairs == 1 and dock.controller.result.submissions == 1


def test_bad_tool_call_returns_to_review_with_its_reason(qtbot, replay, dock):
    import os
    from pathlib import Path

    Path(os.environ["SAM_AGENT_SETTINGS_FILE"]).write_text('{"repair_rounds": 0}')
    example = example_by_id("plate")
    replay.enqueue_stream(openai_stream(content=example.recorded("en")[0]))
    bad = {"patches": [{"id": "plate", "shape": "QUAD",
                        "corners": [[0, 0, 0], [60, 0, 0], [60, 100, 0], [0, 100, 0]],
                        "divisions": [0, 10]}]}
    replay.enqueue_stream(openai_stream(tool_calls=[("build_part", json.dumps(bad))]))
    _submit(qtbot, dock, "plate")
    _wait_review(qtbot, dock)
    dock.confirm_button.click()
    qtbot.waitUntil(lambda: not dock.busy, timeout=TIMEOUT_MS)
    status = dock.status_label.text()
    assert status.startswith("Review — returned, nothing executed (")
    assert "divisions" in status
    assert dock.confirm_button.isEnabled()  # still in Review: confirm again or edit
    error = dock.result_view.error_label.text()
    # said once: the reason on the status line, what to do under it
    assert error == "Nothing was executed. Edit the request or confirm again."
    assert "divisions" in dock.result_view.error_label.toolTip()  # the raw message on hover
    assert dock.controller.result.submissions == 0
    # confirming again uses the recorded (valid) call and verifies
    dock.confirm_button.click()
    qtbot.waitUntil(lambda: not dock.busy, timeout=TIMEOUT_MS)
    approve_plan(qtbot, dock)
    assert dock.status_label.text() == "Verified"


def test_changing_the_target_during_review_fails_the_run(qtbot, replay, dock):
    _submit(qtbot, dock, "plate")
    _wait_review(qtbot, dock)
    dock.part_combo.setCurrentText("Panel")
    status = dock.status_label.text()
    assert status.startswith("Failed — the mode or target changed after the spec was written")
    assert "Review" not in status and "Verified" not in status
    assert "Panel" in status
    assert dock.controller.result.status == "failed"
    assert not dock.confirm_button.isEnabled()
    assert dock.submit_button.isEnabled()
    requests_before = len(replay.requests)
    dock.confirm_button.click()  # disabled: nothing is collected
    qtbot.wait(100)
    assert len(replay.requests) == requests_before


def test_changing_the_mode_during_review_fails_the_run(qtbot, replay, dock):
    _submit(qtbot, dock, "plate")
    _wait_review(qtbot, dock)
    dock.mode_combo.setCurrentIndex(dock.mode_combo.findData("mesh"))
    assert dock.status_label.text().startswith("Failed — the mode or target changed")
    assert dock.controller.result.error.layer == "observation"


def test_ctrl_enter_submits(qtbot, replay, dock):
    example = example_by_id("plate")
    dock.set_target(example.mode, example.model, example.part)
    dock.request_edit.setPlainText(example.request)
    dock.show()
    dock.request_edit.setFocus()
    from PySide6.QtCore import Qt

    qtbot.keyClick(dock.request_edit, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    _wait_review(qtbot, dock)
    assert dock.route_label.text() == "Operations: build the part"


def test_events_from_a_worker_thread_update_widgets_on_the_gui_thread(qtbot, dock):
    from sam_plugin.runtime.events import event_from

    threads: list[QThread] = []
    original = dock._on_event

    def spy(event) -> None:
        threads.append(QThread.currentThread())
        original(event)

    dock.bridge.eventReceived.disconnect(dock._on_event)
    dock.bridge.eventReceived.connect(spy)
    event = event_from("design_delta", {"text": "from a worker"})
    worker = threading.Thread(target=dock.bridge._forward, args=(event,))
    worker.start()
    worker.join()
    qtbot.waitUntil(lambda: bool(threads), timeout=2000)
    assert threads == [dock.thread()]
    assert dock.spec_view.toPlainText() == "from a worker"
    assert dock.offthread_updates == 0


def test_cancel_during_collection_closes_the_stream_and_executes_nothing(qtbot, replay, dock):
    import time

    _submit(qtbot, dock, "plate")
    _wait_review(qtbot, dock)
    replay.replay_responder.delay = 0.2  # the tool-call stream now takes seconds
    dock.confirm_button.click()
    qtbot.waitUntil(lambda: str(dock.controller.phase) == "collecting"
                    and len(replay.requests) == 2, timeout=TIMEOUT_MS)
    qtbot.wait(300)  # the stream is open and paced
    started = time.monotonic()
    dock.cancel_button.click()
    qtbot.waitUntil(lambda: not dock.busy and "Cancelled" in dock.status_label.text(),
                    timeout=3000)
    assert time.monotonic() - started < 1.0
    assert replay.client_disconnected.wait(2.0)
    assert dock.controller.result.status == "cancelled"
    assert dock.controller.result.submissions == 0


def test_settings_button_opens_the_dialog_and_a_saved_change_resets_the_controller(
        qtbot, replay, dock):
    from sam_plugin.ui.settings_dialog import SettingsDialog

    dock._ensure_controller()
    dock.settings_button.click()
    dialog = dock.findChild(SettingsDialog, "settingsDialog")
    assert dialog is not None and dialog.isVisible()
    dialog.model.setText("another-model")
    dialog.save()
    assert dock.controller is None  # the next submit builds one with the saved settings


def test_in_a_real_host_without_a_provider_no_replay_answers(qtbot, dock):
    """A host that loads the plugin itself (SAM): nothing configured is said as such, and
    the Replay's examples (requests on the demo's parts) are not offered."""
    assert dock.provider_label.text() == ("Answering: no model configured — open Settings… "
                                          "(or set SAM_AGENT_BASE_URL and SAM_AGENT_MODEL)")
    assert dock.example_combo.isHidden() and dock.example_label.isHidden()


def test_without_a_provider_the_demos_replay_answers_and_the_dock_says_so(
        qtbot, ui_env, workspace):
    import sam_host

    from sam_plugin.launch import Launch
    from sam_plugin.ui.dock import SamAgentDock

    window = sam_host.create_window(
        workspace, plugin_options={"launch": Launch(replay_by_default=True)})
    qtbot.addWidget(window)
    dock = window.findChild(SamAgentDock, "samAgentDock")
    try:
        _replay_answers(qtbot, dock)
    finally:
        window.shutdown()


def _replay_answers(qtbot, dock) -> None:
    assert dock.provider_label.text().startswith(
        "Answering: Replay — recorded responses, not a live model")
    assert "No provider is configured" in dock.provider_label.toolTip()
    assert not dock.example_combo.isHidden()
    dock.request_edit.setPlainText("")
    dock.submit_button.click()
    qtbot.waitUntil(lambda: not dock.busy, timeout=2000)
    assert dock.status_label.text() == "Type a request first"
    _submit(qtbot, dock, "plate")
    _wait_review(qtbot, dock)
    assert dock.route_label.text() == "Operations: build the part"


def test_a_run_with_an_unknown_outcome_is_announced_when_the_dock_starts(qtbot, replay, dock):
    from sam_plugin.runtime.store.journal import SubmissionJournal
    from sam_plugin.runtime.store.run_store import JOURNAL_NAME, RunDir

    run = RunDir(dock.runs_dir, "20261129T080000Z-c0ffee").create()
    run.write_text("request.txt", "build a plate")
    SubmissionJournal(dock.runs_dir / JOURNAL_NAME).record_submitted(run.run_id, "0" * 64, "k")
    dock._ensure_controller()
    assert dock.result_view.error_label.text() == (
        "1 earlier run(s) were submitted to SAM but their outcome was never recorded: "
        "re-observe the part before the next run (see History).")


def test_explore_switch_defaults_by_part_size_and_reaches_the_controller(
    qtbot, dock, monkeypatch
):
    """Issue 8: on by default above the size threshold; the analyst's own choice wins."""
    from sam_plugin.runtime.observe import exploration

    dock.set_target("part", "Model-1", "Panel")
    assert not dock.explore_check.isChecked()  # 25 nodes + 16 elements: small
    monkeypatch.setattr(exploration, "EXPLORE_DEFAULT_THRESHOLD", 10)
    monkeypatch.setattr(
        exploration, "explore_by_default",
        lambda n, e, threshold=None: n + e > exploration.EXPLORE_DEFAULT_THRESHOLD,
    )
    dock.set_target("part", "Model-1", "Frame")
    assert dock.explore_check.isChecked()
    dock.explore_check.click()  # the analyst turns it off: size no longer decides
    dock.set_target("part", "Model-1", "Panel")
    assert not dock.explore_check.isChecked()

    seen = {}

    class Recorder:
        phase = "idle"
        result = None
        unknown_runs: list[str] = []

        async def submit(self, request, mode, target, *, explore=False):
            seen["explore"] = explore
            return "failed"

    dock.controller = Recorder()
    dock.request_edit.setPlainText("audit the panel")
    dock.submit_button.click()
    qtbot.waitUntil(lambda: "explore" in seen and not dock.busy, timeout=TIMEOUT_MS)
    assert seen == {"explore": False}


def test_a_repair_round_is_named_in_the_status_line(qtbot, dock):
    from sam_plugin.runtime.events import event_from

    dock._on_event(event_from(
        "repair_requested",
        {"repair": 1, "of": 2, "tool": "edit_part", "layer": "compile",
         "headline": "E1: QUAD needs 4 distinct nodes, got 3", "diagnostic": "..."},
    ))
    assert dock.status_label.text() == (
        "Repair 1/2: edit_part — E1: QUAD needs 4 distinct nodes, got 3")
