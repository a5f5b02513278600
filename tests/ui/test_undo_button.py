"""``undoButton``: enabled after a verified run while the part still has its after-fingerprint;
otherwise disabled with a tooltip saying why. ``restoreNotice`` says what a host lacks."""

from __future__ import annotations

import json
from types import SimpleNamespace

from plan_steps import approve_plan

from sam_plugin.demo.examples import example_by_id

TIMEOUT_MS = 20_000


def _verified_plate(qtbot, dock) -> None:
    example = example_by_id("plate")
    dock.set_target(example.mode, example.model, example.part)
    dock.request_edit.setPlainText(example.request)
    dock.submit_button.click()
    qtbot.waitUntil(lambda: not dock.busy and "Review" in dock.status_label.text(),
                    timeout=TIMEOUT_MS)
    assert not dock.undo.button.isEnabled()  # a spec in Review is not a verified run
    dock.confirm_button.click()
    qtbot.waitUntil(lambda: not dock.busy, timeout=TIMEOUT_MS)
    approve_plan(qtbot, dock)
    assert dock.status_label.text() == "Verified"


def test_undo_button_undoes_the_last_verified_run(qtbot, replay, dock, host_window):
    import sam

    assert not dock.undo.button.isEnabled()
    assert "No verified run" in dock.undo.button.toolTip()
    assert dock.undo.notice.isHidden()  # the offline SAM has everything the snapshot needs
    example = example_by_id("plate")
    assert example.part not in sam.mdb.models[example.model].parts.keys()
    _verified_plate(qtbot, dock)
    assert dock.undo.button.isEnabled(), dock.undo.button.toolTip()
    _answer_undo(dock, yes=True)
    assert "Undone" in dock.status_label.text()
    assert example.part not in sam.mdb.models[example.model].parts.keys()
    run_dir = dock.runs_dir / dock.controller.run_id
    assert json.loads((run_dir / "result.json").read_text())["status"] == "undone"
    assert not dock.undo.button.isEnabled()
    assert "already undone" in dock.undo.button.toolTip()
    qtbot.waitUntil(lambda: dock.history.rows()[0][1] == "undone", timeout=TIMEOUT_MS)


def _answer_undo(dock, yes: bool) -> str:
    """Click Undo and answer its question; returns the question's text."""
    from PySide6.QtWidgets import QMessageBox

    dock.undo.button.click()
    box = dock.findChild(QMessageBox, "undoConfirmDialog")
    assert box is not None and box.isVisible()
    text = box.text()
    answer = QMessageBox.StandardButton.Yes if yes else QMessageBox.StandardButton.Cancel
    box.button(answer).click()
    return text


def test_undo_asks_first_naming_the_run_by_its_request_and_time(qtbot, replay, dock):
    import sam

    from sam_plugin.runtime.store.run_store import run_started
    from sam_plugin.ui.history_view import local_time

    _verified_plate(qtbot, dock)
    run_id = dock.controller.run_id
    assert "build a 60 x 100 plate" in dock.undo.button.toolTip()
    question = _answer_undo(dock, yes=False)
    assert question.startswith(
        f"Undo the run of {local_time(run_started(run_id))} (“build a 60 x 100 plate meshed 6 x "
        "10 with QUAD elements”) on Model-1/Plate?")
    assert "did not exist before that run: it is removed" in question
    assert run_id not in question  # words, not the id (it is in the details)
    assert "Plate" in sam.mdb.models["Model-1"].parts.keys()  # Cancel undid nothing
    assert dock.status_label.text() == "Verified"
    assert dock.undo.button.isEnabled()


def test_after_an_undo_the_result_shows_the_undo_read_back_and_checked(qtbot, replay, dock):
    from plan_steps import approve_plan, to_plan

    to_plan(qtbot, dock, "copy_merge")
    approve_plan(qtbot, dock)
    assert dock.status_label.text() == "Verified"
    assert ("node count", "45", "45", "yes") in dock.result_view.check_rows()
    _answer_undo(dock, yes=True)
    view = dock.result_view
    assert dock.status_label.text().startswith("Undone — Model-1/Panel is back as it was "
                                               "before the run of ")
    assert view.headline.text().startswith("Undone: the run of ")
    assert "put back as it was before that run, then read back and checked" in \
        view.headline.text()
    assert view.table.horizontalHeaderItem(0).text() == "Before the undo"
    assert view.table.horizontalHeaderItem(1).text() == "After the undo (read back)"
    assert (view.cell("nodes", "before"), view.cell("nodes", "after")) == ("45", "25")
    assert (view.cell("elements", "before"), view.cell("elements", "after")) == ("32", "16")
    rows = view.check_rows()
    assert ("node count", "45", "45", "yes") not in rows  # the undone run's checks are gone
    assert rows == [
        ("part exists", "present", "present", "yes"),
        ("nodes as before the run", "25", "25", "yes"),
        ("elements as before the run", "16", "16", "yes"),
        ("QUAD elements", "16", "16", "yes"),
        ("sets as before the run", "none", "none", "yes"),
        ("part identical to before the run", "identical", "identical", "yes"),
    ]
    fingerprint = view.checks.item(5, 1).toolTip()
    assert fingerprint and fingerprint != "identical"  # the raw fingerprint on hover
    assert view.audit.isHidden() and view.output.isHidden()  # nothing of the undone run


def test_undo_button_disabled_once_the_part_changed(qtbot, replay, dock, host_window):
    import sam

    _verified_plate(qtbot, dock)
    example = example_by_id("plate")
    part = sam.mdb.models[example.model].parts[example.part]
    part.editNode(nodes=part.nodes.getFromLabel(1), coordinates=(0.0, 0.0, 5.0))
    dock.refresh_targets()
    dock.undo.refresh(dock.controller)
    assert not dock.undo.button.isEnabled()
    assert "changed after run" in dock.undo.button.toolTip()


def test_restore_notice_names_what_the_host_lacks(qtbot, dock, monkeypatch):
    from sam_plugin.runtime.host_gateway import HostGateway

    monkeypatch.setattr(HostGateway, "restore_capability",
                        lambda self, target=None: ["Part.editNode"])
    lacking = dock.undo.show_capability(SimpleNamespace(mdb=None))
    assert lacking == ["Part.editNode"]
    assert not dock.undo.notice.isHidden()
    assert "Part.editNode" in dock.undo.notice.text()
    assert "partly changed" in dock.undo.notice.text()


def test_a_failed_run_put_back_says_failed_and_restored(qtbot, replay, dock, host_window,
                                                        monkeypatch):
    import sam
    from sam.part import Part

    original, calls = Part.Element, []

    def failing(self, *args, **kwargs):
        calls.append(1)
        if len(calls) == 5:
            raise RuntimeError("host refused the element")
        return original(self, *args, **kwargs)

    monkeypatch.setattr(Part, "Element", failing)
    example = example_by_id("plate")
    dock.set_target(example.mode, example.model, example.part)
    dock.request_edit.setPlainText(example.request)
    dock.submit_button.click()
    qtbot.waitUntil(lambda: not dock.busy and "Review" in dock.status_label.text(),
                    timeout=TIMEOUT_MS)
    dock.confirm_button.click()
    qtbot.waitUntil(lambda: not dock.busy, timeout=TIMEOUT_MS)
    approve_plan(qtbot, dock)
    text = dock.status_label.text()
    assert "Failed" in text and "restored" in text, text
    assert example.part not in sam.mdb.models[example.model].parts.keys()
    assert not dock.undo.button.isEnabled()


def test_a_run_that_changed_nothing_offers_no_undo(qtbot, tmp_path):
    from sam_plugin.runtime.store.undo import CHANGED_NOTHING
    from sam_plugin.ui.undo_control import UndoControl

    control = UndoControl()
    asked: list[str] = []
    controller = SimpleNamespace(undo_refusal=lambda run_id: asked.append(run_id),
                                 runs_dir=tmp_path)
    edit = SimpleNamespace(run_id="20261201T000000Z-aaaaaa", status="verified", undo_note=None)
    control.refresh(controller, edit)
    assert control.button.isEnabled() and control.run_id == edit.run_id
    audit = SimpleNamespace(run_id="20261201T000001Z-bbbbbb", status="verified",
                            undo_note=CHANGED_NOTHING)
    control.refresh(controller, audit)
    assert control.run_id == edit.run_id  # the audit did not take the Undo over
    assert asked == [edit.run_id, edit.run_id]
