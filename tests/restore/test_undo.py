"""Undo of a verified run: the part (and the definitions) exactly as before; refused once the
part changed; budgets; never anything of it in the analyst's database (I14)."""

from __future__ import annotations

import json

import pytest
from restore_support import TARGET, run, saved, tree, without_counters
from scenarios import DEFINE_ASSIGN, EDIT, UNDOABLE

from sam_plugin.runtime.events import read_events
from sam_plugin.runtime.observe.observation import target_fingerprint
from sam_plugin.runtime.store.run_store import RunDir
from sam_plugin.runtime.store.undo import SNAPSHOT_NAME, UndoBudget, UndoRefused, undo_refusal


@pytest.mark.parametrize("scenario", UNDOABLE, ids=lambda s: s.name)
def test_undo_puts_the_part_back_exactly(fresh_sam_database, tmp_path, scenario):
    sam = fresh_sam_database
    scenario.setup(sam)
    before = saved(sam, tmp_path / "before.sam.json")
    fingerprint_before = target_fingerprint(sam_read(sam))
    result, controller, _ = run(sam, tmp_path, scenario)
    assert result.status == "verified" and result.undoable, result.undo_note
    during = saved(sam, tmp_path / "during.sam.json")
    # the undo window: the database holds exactly the analyst's objects (I14)
    assert set(tree(during)) == {"Model-1"} and tree(during)["Model-1"]["parts"] == (
        ["Plate"])
    assert controller.undo_refusal(result.run_id) is None
    undone = controller.undo(result.run_id)
    assert undone.status == "undone" and controller.result.status == "undone"
    assert undone.after.fingerprint == result.before.fingerprint == fingerprint_before
    assert target_fingerprint(sam_read(sam)) == fingerprint_before
    after = saved(sam, tmp_path / "after.sam.json")
    # labels, coordinates, order, sets, assignments, materials, sections, profiles
    assert without_counters(after) == without_counters(before)
    assert tree(after) == tree(before)
    run_dir = RunDir(controller.runs_dir, result.run_id)
    assert json.loads(run_dir.file("result.json").read_text())["status"] == "undone"
    assert not run_dir.file(SNAPSHOT_NAME).exists()
    assert "run_undone" in [e["event"] for e in read_events(run_dir.file("events.jsonl"))]
    with pytest.raises(UndoRefused, match="already undone"):
        controller.undo(result.run_id)


def sam_read(sam):
    from sam_plugin.samops.readback import read_part

    return read_part(sam.mdb.models["Model-1"], "Plate")


def test_undo_refused_after_a_later_manual_edit(fresh_sam_database, tmp_path):
    sam = fresh_sam_database
    EDIT.setup(sam)
    result, controller, _ = run(sam, tmp_path, EDIT)
    part = sam.mdb.models["Model-1"].parts["Plate"]
    part.editNode(nodes=part.nodes.getFromLabel(1), coordinates=(0.0, -1.0, 0.0))
    reason = controller.undo_refusal(result.run_id)
    assert reason is not None and "changed after run" in reason
    moved = saved(sam, tmp_path / "moved.sam.json")
    with pytest.raises(UndoRefused, match="would throw that change away"):
        controller.undo(result.run_id)
    assert saved(sam, tmp_path / "still.sam.json") == moved  # nothing touched


def test_undo_of_properties_removes_the_definitions_again(fresh_sam_database, tmp_path):
    sam = fresh_sam_database
    DEFINE_ASSIGN.setup(sam)
    result, controller, _ = run(sam, tmp_path, DEFINE_ASSIGN)
    model = sam.mdb.models["Model-1"]
    assert "Steel" in model.materials.keys() and len(model.parts["Plate"].sectionAssignments)
    controller.undo(result.run_id)
    assert model.materials.keys() == [] and model.sections.keys() == []
    assert len(model.parts["Plate"].sectionAssignments) == 0


def test_the_budget_drops_older_snapshots_and_says_so(fresh_sam_database, tmp_path,
                                                     monkeypatch):
    sam = fresh_sam_database
    monkeypatch.setenv("SAM_AGENT_UNDO_RUNS", "1")
    EDIT.setup(sam)
    first, controller, _ = run(sam, tmp_path, EDIT)
    assert first.undoable
    from scenarios import AUDIT, TRANSFORM

    audit, _, _ = run(sam, tmp_path, AUDIT, runs_dir=controller.runs_dir)
    assert audit.status == "verified" and not audit.undoable  # it keeps nothing, drops nothing
    assert RunDir(controller.runs_dir, first.run_id).read_result().undoable
    second, _, _ = run(sam, tmp_path, TRANSFORM, runs_dir=controller.runs_dir)
    assert second.undoable
    old = RunDir(controller.runs_dir, first.run_id).read_result()
    assert old.undoable is False and "can no longer be undone" in old.undo_note
    assert "last 1 run(s)" in old.undo_note
    reason = undo_refusal(controller.host, controller.runs_dir, first.run_id)
    assert reason == old.undo_note


@pytest.mark.parametrize("scenario_name", ["AUDIT", "AUDIT_PROPERTY", "AUDIT_MESH"])
def test_a_read_only_run_keeps_no_snapshot_and_says_it_changed_nothing(
        fresh_sam_database, tmp_path, scenario_name):
    import scenarios

    scenario = getattr(scenarios, scenario_name)
    sam = fresh_sam_database
    scenario.setup(sam)
    result, controller, _ = run(sam, tmp_path, scenario)
    assert result.status == "verified", result.error
    assert (result.undoable, result.undo_note) == (False, "the run changed nothing")
    assert result.undo_snapshot is None
    run_dir = controller.runs_dir / result.run_id
    assert not (run_dir / SNAPSHOT_NAME).exists()
    script = (run_dir / "generated_script.py").read_text()
    assert "_snapshot" not in script and "SAM_AGENT_SNAPSHOT" not in script
    events = [e["event"] for e in read_events(run_dir / "events.jsonl")]
    assert "snapshot_taken" not in events
    [rest] = [c for c in result.checks if c.name.startswith("the rest of the part")]
    assert rest.ok and result.after.fingerprint == result.before.fingerprint
    assert controller.undo_refusal(result.run_id) == "the run changed nothing"
    assert json.loads((run_dir / "plan.json").read_text())["read_only"] is True


def test_a_zero_budget_turns_undo_off_plainly(fresh_sam_database, tmp_path, monkeypatch):
    sam = fresh_sam_database
    monkeypatch.setenv("SAM_AGENT_UNDO_RUNS", "0")
    EDIT.setup(sam)
    result, controller, _ = run(sam, tmp_path, EDIT)
    assert result.status == "verified" and not result.undoable
    assert "undo is turned off" in result.undo_note
    assert not (controller.runs_dir / result.run_id / SNAPSHOT_NAME).exists()


def test_budget_from_env_reads_both_settings():
    budget = UndoBudget.from_env({"SAM_AGENT_UNDO_RUNS": "3", "SAM_AGENT_UNDO_BUDGET_MB": "64"})
    assert (budget.runs, budget.megabytes) == (3, 64.0)
    assert UndoBudget.from_env({}) == UndoBudget()


def test_a_failed_run_cannot_be_undone(fresh_sam_database, tmp_path, monkeypatch):
    sam = fresh_sam_database
    EDIT.setup(sam)
    from restore_support import FaultyGateway

    result, controller, _ = run(sam, tmp_path, EDIT, gateway=FaultyGateway(sam, fault_at=1))
    assert result.status == "failed" and result.restored and not result.undoable
    assert "not verified" in controller.undo_refusal(result.run_id)
    assert TARGET.part_name == "Plate"
