"""History → Apply to other parts… (applyToPartsButton), offscreen: a verified Property run of
the dock applied to two more panels with no model asked — one plan approved with Execute, the
next with Approve all — each its own run, marked as a rerun in History and linked to its
source, each undone on its own (docs/architecture.md §6 "rerun", §9)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from plan_steps import approve_plan, to_plan

from sam_plugin.demo.examples import WORKSPACE_FILE, example_by_id
from tests.support import specs

TIMEOUT_MS = 20_000


@pytest.fixture
def panels(tmp_path: Path) -> Path:
    """The bundled sample with two copies of Panel (Panel-2, Panel-3)."""
    import sam

    saved = sam.mdb
    path = tmp_path / "panels.sam.json"
    shutil.copyfile(WORKSPACE_FILE, path)
    try:
        sam.openMdb(str(path))
        model = sam.mdb.models["Model-1"]
        for name in ("Panel-2", "Panel-3"):
            model.Part(name=name, objectToCopy=model.parts["Panel"])
        sam.mdb.saveAs(str(path))
    finally:
        sam.mdb = saved
    return path


@pytest.fixture
def panel_dock(qtbot, ui_env, panels):
    import sam_host

    from sam_plugin.ui.dock import SamAgentDock
    from sam_plugin.ui.event_loop import settle_after_unload

    window = sam_host.create_window(panels)
    qtbot.addWidget(window)
    dock = window.findChild(SamAgentDock, "samAgentDock")
    yield dock
    window.shutdown()
    assert settle_after_unload()


def _steel_shell_on_panel(qtbot, dock) -> str:
    to_plan(qtbot, dock, "steel_shell")
    approve_plan(qtbot, dock)
    assert dock.status_label.text() == "Verified"
    dock.history.refresh()
    return str(dock.controller.run_id)


def _first_plan_waiting(qtbot, dialog, *, approve_all: bool = False):
    """Panel-2 and Panel-3 ticked, the rerun started; back once the first plan waits."""
    dialog.set_checked(["Panel-2", "Panel-3"])
    task = dialog.start(approve_all=approve_all)
    qtbot.waitUntil(lambda: dialog.execute_button.isEnabled(), timeout=TIMEOUT_MS)
    assert "Panel-2 (1 of 2): the plan waits" in dialog.status_label.text()
    return task


def _answer_undo(qtbot, dialog, *, yes: bool) -> str:
    """The undo question the dock's Undo asks too (undoConfirmDialog): its text, answered."""
    from PySide6.QtWidgets import QMessageBox

    box = dialog.findChild(QMessageBox, "undoConfirmDialog")
    assert box is not None and box.isVisible()
    text = box.text()
    box.button(QMessageBox.StandardButton.Yes if yes else QMessageBox.StandardButton.Cancel
               ).click()
    qtbot.waitUntil(lambda: dialog.findChild(QMessageBox, "undoConfirmDialog") is None,
                    timeout=TIMEOUT_MS)
    return text


def _assigned(dock, part: str) -> int:
    return sum(len(a.region.elements or ()) for a in
               dock.sam.mdb.models["Model-1"].parts[part].sectionAssignments)


def test_apply_to_other_parts_reruns_without_the_model_and_undoes_per_part(
        qtbot, replay, panel_dock):
    from sam_plugin.ui.rerun_dialog import RerunDialog

    dock = panel_dock
    source = _steel_shell_on_panel(qtbot, dock)
    asked = len(replay.requests)
    panel = dock.history_panel
    apply_button = dock.findChild(object, "applyToPartsButton")
    assert apply_button is panel.apply_button
    assert dock.history.select_run(source) and apply_button.isEnabled()
    apply_button.click()
    dialog = dock.findChild(RerunDialog, "rerunDialog")
    assert dialog is not None and dialog.isVisible()
    names = [dialog.parts_list.item(i).text() for i in range(dialog.parts_list.count())]
    assert names == ["Frame", "Panel-2", "Panel-3"]  # the model's other parts
    assert source in dialog.source_label.text()
    assert not dialog.start_button.isEnabled()  # nothing picked yet
    dialog.set_checked(["Panel-2", "Panel-3"])
    dialog.start_button.click()
    qtbot.waitUntil(lambda: dialog.execute_button.isEnabled(), timeout=TIMEOUT_MS)
    assert "Panel-2 (1 of 2): the plan waits" in dialog.status_label.text()
    assert "Shell-2mm" in dialog.plan_view.toPlainText()
    assert _assigned(dock, "Panel-2") == 0  # nothing runs before Execute
    dialog.execute_button.click()
    qtbot.waitUntil(lambda: "Panel-3 (2 of 2): the plan waits" in dialog.status_label.text(),
                    timeout=TIMEOUT_MS)
    assert dialog.outcomes.topLevelItem(0).text(1) == "verified"
    dialog.approve_all_button.click()
    qtbot.waitUntil(lambda: not dialog.running, timeout=TIMEOUT_MS)
    assert dialog.status_label.text() == "Done: 2 of 2 part(s) verified"
    rows = [(dialog.outcomes.topLevelItem(i).text(0), dialog.outcomes.topLevelItem(i).text(1))
            for i in range(dialog.outcomes.topLevelItemCount())]
    assert rows == [("Panel-2", "verified"), ("Panel-3", "verified")]
    assert _assigned(dock, "Panel-2") == _assigned(dock, "Panel-3") == 16
    assert len(replay.requests) == asked  # no request reached the model
    # History marks each rerun and links it to its source run
    qtbot.waitUntil(lambda: dock.history.topLevelItemCount() == 3, timeout=TIMEOUT_MS)
    for run_id in [t.run_id for t in dialog.session.summary.targets]:
        assert dock.history.select_run(str(run_id))
        rerun = dock.history.currentItem()
        assert rerun.text(7).startswith("↻ rerun: ") and source in rerun.toolTip(0)
    assert dock.history.select_run(source)
    assert not dock.history.currentItem().text(7).startswith("↻")
    assert not panel.source_button.isEnabled()
    dock.history.select_run(str(dialog.session.summary.targets[0].run_id))
    assert panel.source_button.isEnabled()
    panel.source_button.click()
    assert dock.history.selected_run() == source and not panel.source_button.isEnabled()
    # undo per part: Panel-2's run alone
    dialog.outcomes.setCurrentItem(dialog.outcomes.topLevelItem(0))
    assert dialog.undo_button.isEnabled()
    dialog.undo_button.click()
    _answer_undo(qtbot, dialog, yes=True)
    assert dialog.outcomes.topLevelItem(0).text(1) == "undone"
    assert _assigned(dock, "Panel-2") == 0 and _assigned(dock, "Panel-3") == 16
    dialog.close()


def test_a_skipped_plan_changes_nothing_and_closing_declines_the_waiting_plan(
        qtbot, replay, panel_dock):
    from sam_plugin.runtime.store.run_store import RunDir
    from sam_plugin.ui.rerun_dialog import RerunDialog

    dock = panel_dock
    source = _steel_shell_on_panel(qtbot, dock)
    dock.history.select_run(source)
    dock.history_panel.apply_button.click()
    dialog = dock.findChild(RerunDialog, "rerunDialog")
    _first_plan_waiting(qtbot, dialog)
    dialog.skip_button.click()
    qtbot.waitUntil(lambda: "Panel-3 (2 of 2): the plan waits" in dialog.status_label.text(),
                    timeout=TIMEOUT_MS)
    assert dialog.outcomes.topLevelItem(0).text(1) == "skipped"
    dialog.close()  # Panel-3's plan waits: declined, nothing runs
    qtbot.waitUntil(lambda: not dialog.running, timeout=TIMEOUT_MS)
    assert _assigned(dock, "Panel-2") == _assigned(dock, "Panel-3") == 0
    runs = [t.run_id for t in dialog.session.summary.targets]
    statuses = [RunDir(dock.runs_dir, r).read_result().status for r in runs]
    assert statuses == ["cancelled", "cancelled"]
    for run_id in runs:  # each plan was put before the analyst in the dialog
        events = (dock.runs_dir / run_id / "events.jsonl").read_text().splitlines()
        asked = [json.loads(e).get("channel") for e in events
                 if json.loads(e)["event"] == "approval_requested"]
        assert asked == ["dock"]


def test_apply_waits_while_the_dock_has_a_run_in_review(qtbot, replay, panel_dock):
    dock = panel_dock
    source = _steel_shell_on_panel(qtbot, dock)
    dock.request_edit.setPlainText(example_by_id("steel_shell").request)
    dock.submit_button.click()
    qtbot.waitUntil(lambda: not dock.busy and "Review" in dock.status_label.text(),
                    timeout=TIMEOUT_MS)
    assert dock.apply_to_parts(source) is None
    assert "finish or cancel it first" in dock.history_panel.note.text()
    dock.cancel_button.click()
    qtbot.waitUntil(lambda: str(dock.controller.phase) == "cancelled", timeout=TIMEOUT_MS)


def test_apply_refuses_a_source_run_whose_calls_were_rewritten(qtbot, replay, panel_dock):
    """The dock's Apply to other parts reads the same sealed source as ``sam-agent rerun``: a
    rewritten normalized_calls.json opens no dialog, and the note says which file."""
    from sam_plugin.ui.rerun_dialog import RerunDialog

    dock = panel_dock
    source = _steel_shell_on_panel(qtbot, dock)
    calls = Path(dock.runs_dir) / source / "normalized_calls.json"
    calls.write_text(calls.read_text().replace("Shell-2mm", "Shell-9mm"))
    assert dock.apply_to_parts(source) is None
    assert dock.findChild(RerunDialog, "rerunDialog") is None
    note = dock.history_panel.note.text()
    assert note.startswith(f"run {source}: normalized_calls.json was changed after its plan")
    assert note.endswith("; it is not rerun") and "\n" not in note


def test_apply_refuses_a_source_run_whose_verified_outcome_is_not_sealed(qtbot, replay,
                                                                          panel_dock):
    """The dock's Apply to other parts starts only from a sealed verified outcome, whatever
    result.json says (a declined plan set to verified has none): no dialog, one line."""
    from sam_plugin.ui.rerun_dialog import RerunDialog

    dock = panel_dock
    source = _steel_shell_on_panel(qtbot, dock)
    (Path(dock.runs_dir) / source / "outcome_seal.json").unlink()
    assert dock.apply_to_parts(source) is None
    assert dock.findChild(RerunDialog, "rerunDialog") is None
    assert dock.history_panel.note.text() == (
        f"run {source}: its result.json says verified, but no verified outcome was sealed for "
        "it (outcome_seal.json is missing); it is not rerun")


def test_approve_all_still_waits_for_a_plan_with_warnings(qtbot, panel_dock):
    """A source that picked Panel's elements by label: on each copy the plan warns (labels
    came from Panel), so Approve all does not let it through unseen."""
    import asyncio

    from sam_plugin.compilers.protocol import Target
    from sam_plugin.runtime.host_gateway import HostGateway
    from sam_plugin.runtime.rerun.session import rerun_controller

    dock = panel_dock
    controller = rerun_controller(runs_dir=dock.runs_dir, host=HostGateway(dock.sam))
    define = {"materials": [{"name": "Steel", "youngs_modulus": 210000, "poisson_ratio": 0.3}],
              "sections": [{"name": "Skin", "kind": "shell", "material": "Steel",
                            "thickness": 2}]}
    labels = {"assignments": [{"section": "Skin",
                               "selection": {"by": "labels", "labels": [1, 2, 3, 4]}}]}
    planned = asyncio.ensure_future(controller.plan_calls(
        "steel shell on elements 1 to 4", "property", Target(model_name="Model-1",
                                                            part_name="Panel"),
        spec=specs.answer(
            specs.step("define_material", mode="property", name="Steel", E=210000, nu=0.3),
            specs.step("define_section", mode="property", name="Skin", kind="shell",
                       material="Steel", thickness=2),
            specs.step("assign_section", specs.labels(1, 2, 3, 4), mode="property",
                       section="Skin"),
            summary="Define Steel and the shell section Skin; assign Skin to elements 1-4."),
        calls=[("define_property", define), ("assign_property", labels)], source="cli"))
    qtbot.waitUntil(planned.done, timeout=TIMEOUT_MS)
    executed = asyncio.ensure_future(controller.execute())
    qtbot.waitUntil(executed.done, timeout=TIMEOUT_MS)
    assert executed.result().status == "verified"
    dialog = dock.apply_to_parts(str(controller.run_id))
    dialog.set_checked(["Panel-2", "Panel-3"])
    dialog.approve_all_button.click()  # before Start: one approval for every part
    qtbot.waitUntil(lambda: dialog.execute_button.isEnabled(), timeout=TIMEOUT_MS)
    assert "Panel-2 (1 of 2): the plan waits" in dialog.status_label.text()
    assert "Warning: selection by element labels 1-4 came from part Panel" in \
        dialog.plan_view.toPlainText()
    dialog.execute_button.click()
    qtbot.waitUntil(lambda: "Panel-3 (2 of 2): the plan waits" in dialog.status_label.text(),
                    timeout=TIMEOUT_MS)
    dialog.skip_button.click()
    qtbot.waitUntil(lambda: not dialog.running, timeout=TIMEOUT_MS)
    rows = [dialog.outcomes.topLevelItem(i).text(1) for i in range(2)]
    assert rows == ["verified", "skipped"]
    assert _assigned(dock, "Panel-2") == 4 and _assigned(dock, "Panel-3") == 0
    dialog.close()


def test_a_dialog_deleted_while_a_plan_waits_declines_it_and_skips_the_rest(
        qtbot, replay, panel_dock):
    import shiboken6

    from sam_plugin.runtime.store.run_store import RunDir

    dock = panel_dock
    source = _steel_shell_on_panel(qtbot, dock)
    dialog = dock.apply_to_parts(source)
    task = _first_plan_waiting(qtbot, dialog)
    session = dialog.session
    shiboken6.delete(dialog)  # as when the dock goes with the plugin
    qtbot.waitUntil(task.done, timeout=TIMEOUT_MS)
    outcomes = session.summary.targets
    assert [t.outcome for t in outcomes] == ["skipped", "skipped"]
    assert RunDir(dock.runs_dir, outcomes[0].run_id).read_result().status == "cancelled"
    assert outcomes[1].run_id is None
    assert _assigned(dock, "Panel-2") == _assigned(dock, "Panel-3") == 0


def test_the_outcome_says_the_plan_waits_and_done_leaves_close_and_undo_ready(
        qtbot, replay, panel_dock):
    from sam_plugin.ui.rerun_dialog import RerunDialog

    dock = panel_dock
    source = _steel_shell_on_panel(qtbot, dock)
    dock.history.select_run(source)
    dock.history_panel.apply_button.click()
    dialog = dock.findChild(RerunDialog, "rerunDialog")
    assert ("Its operations (define materials and sections, assign sections) are planned "
            "again for each part you pick") in dialog.source_label.text()
    assert "call(s)" not in dialog.source_label.text()
    _first_plan_waiting(qtbot, dialog)
    assert dialog.outcomes.topLevelItem(0).text(1) == "plan waits for you"  # not "planning"
    assert dialog.outcomes.topLevelItem(1).text(1) == "waiting"
    dialog.approve_all_button.click()
    qtbot.waitUntil(lambda: dialog.status_label.text().startswith("Done"), timeout=TIMEOUT_MS)
    # no row clicked: Close and Undo selected are ready (the last part is selected)
    assert dialog.close_button.isEnabled() and dialog.undo_button.isEnabled()
    assert dialog.outcomes.currentItem().text(0) == "Panel-3"
    dialog.undo_button.click()  # asks first, as the dock's Undo does
    question = _answer_undo(qtbot, dialog, yes=False)
    assert question.startswith("Undo the run of ") and "on Model-1/Panel-3?" in question
    assert _assigned(dock, "Panel-3") == 16  # Cancel undid nothing
    dialog.undo_button.click()
    _answer_undo(qtbot, dialog, yes=True)
    assert dialog.outcomes.topLevelItem(1).text(1) == "undone"
    assert _assigned(dock, "Panel-3") == 0
    dialog.close()


def test_the_dialog_words_singular_plural_and_restated_counts_in_both_languages(qapp):
    from sam_plugin.compilers.protocol import Target
    from sam_plugin.runtime.rerun.expected import Restated
    from sam_plugin.runtime.rerun.source import RerunSource
    from sam_plugin.ui import i18n
    from sam_plugin.ui.rerun_dialog import expected_line, source_words

    source = RerunSource(run_id="20261129T193000Z-ab12cd", mode="part",
                         target=Target(model_name="Model-1", part_name="Panel"),
                         request="copy all", spec=specs.spec(specs.step("merge_nodes",
                                                                        tolerance=1e-6)),
                         calls=(("repair_part", {}),))
    restated = Restated(what="nodes", source_count=45, why="change", source_before=25,
                        target_before=10, target_after="20")
    selected = Restated(what="selected", source_count=16, why="selected")
    assert "Its operations (repair the part) are planned again" in source_words(source)
    assert expected_line(restated, "Panel", "Frame") == (
        "The spec's 45 nodes on Panel (25 before, +20) are compared as a change on Frame: 10 "
        "before, 20 after these operations.")
    assert expected_line(selected, "Panel", "Panel-2") == (
        "The spec's 16 acted on counted what its scope picks on Panel: not compared on "
        "Panel-2.")
    translator = i18n.install_translator("zh_CN")
    try:
        assert "它的操作（修复部件）会为您选择的每个部件重新规划" in source_words(source)
        assert expected_line(restated, "Panel", "Frame") == (
            "规格中 Panel 上的 45 个节点（之前 25，变化 +20）在 Frame 上按变化比较："
            "之前 10，这些操作之后 20。")
        assert i18n.tr("plan waits for you") == "计划等待您确认"
    finally:
        i18n.remove_translator(translator)


@pytest.fixture
def wide_dock(qtbot, ui_env, tmp_path):
    """The bundled sample with Wide, a 5 x 5 plate (Panel is 4 x 4), in the offline host."""
    import sam
    import sam_host

    from sam_plugin.ui.dock import SamAgentDock
    from sam_plugin.ui.event_loop import settle_after_unload
    from tests.support.plates import quad_plate

    saved = sam.mdb
    path = tmp_path / "wide.sam.json"
    shutil.copyfile(WORKSPACE_FILE, path)
    try:
        sam.openMdb(str(path))
        quad_plate(sam.mdb.models["Model-1"], "Wide", 5, x0=100.0)
        sam.mdb.saveAs(str(path))
    finally:
        sam.mdb = saved
    window = sam_host.create_window(path)
    qtbot.addWidget(window)
    yield window.findChild(SamAgentDock, "samAgentDock")
    window.shutdown()
    assert settle_after_unload()


def test_approve_all_approves_a_rerun_onto_a_part_of_another_size(qtbot, replay, wide_dock):
    """copy_merge expects Panel's 45 nodes after it; the same copy of the 5 x 5 Wide leaves
    72. It warned "the spec expects 45 nodes; the calls leave 72", so Approve all never ran
    it; now the change is compared, and the dialog says how."""
    from sam_plugin.ui.rerun_dialog import RerunDialog

    dock = wide_dock
    to_plan(qtbot, dock, "copy_merge")
    approve_plan(qtbot, dock)
    assert dock.status_label.text() == "Verified"
    dock.history.refresh()
    source = str(dock.controller.run_id)
    assert dock.history.select_run(source)
    dock.history_panel.apply_button.click()
    dialog = dock.findChild(RerunDialog, "rerunDialog")
    dialog.set_checked(["Wide"])
    seen: list[str] = []
    dialog.rerunFinished.connect(lambda summary: seen.append(summary.headline()))
    dialog.approve_all_button.click()
    qtbot.waitUntil(lambda: dialog.status_label.text().startswith("Done"), timeout=TIMEOUT_MS)
    assert dialog.status_label.text() == "Done: 1 of 1 part(s) verified"
    run_id = dialog.session.summary.targets[0].run_id
    plan = json.loads((dock.runs_dir / run_id / "plan.json").read_text())
    assert plan["warnings"] == [] and plan["after"]["nodes"] == "72"
    assert len(dock.sam.mdb.models["Model-1"].parts["Wide"].nodes) == 72
    dialog.close()
