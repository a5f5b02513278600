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
    dock.undo.button.click()
    assert "Undone" in dock.status_label.text()
    assert example.part not in sam.mdb.models[example.model].parts.keys()
    run_dir = dock.runs_dir / dock.controller.run_id
    assert json.loads((run_dir / "result.json").read_text())["status"] == "undone"
    assert not dock.undo.button.isEnabled()
    assert "already undone" in dock.undo.button.toolTip()
    qtbot.waitUntil(lambda: dock.history.rows()[0][1] == "undone", timeout=TIMEOUT_MS)


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


def test_a_run_that_changed_nothing_offers_no_undo(qtbot):
    from sam_plugin.runtime.store.undo import CHANGED_NOTHING
    from sam_plugin.ui.undo_control import UndoControl

    control = UndoControl()
    asked: list[str] = []
    controller = SimpleNamespace(undo_refusal=lambda run_id: asked.append(run_id))
    edit = SimpleNamespace(run_id="20261201T000000Z-aaaaaa", status="verified", undo_note=None)
    control.refresh(controller, edit)
    assert control.button.isEnabled() and control.run_id == edit.run_id
    audit = SimpleNamespace(run_id="20261201T000001Z-bbbbbb", status="verified",
                            undo_note=CHANGED_NOTHING)
    control.refresh(controller, audit)
    assert control.run_id == edit.run_id  # the audit did not take the Undo over
    assert asked == [edit.run_id, edit.run_id]
