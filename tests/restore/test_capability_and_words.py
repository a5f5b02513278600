"""A host without what the snapshot needs: said at load and in result.json, and a failed run
falls back to the honest partial-change warning. Status words for restored runs."""

from __future__ import annotations

from restore_support import TARGET, FaultyGateway, run
from scenarios import EDIT

from sam_plugin.runtime.host_gateway import HostGateway
from sam_plugin.runtime.run.controller import PARTIAL_WARNING
from sam_plugin.runtime.store.run_store import ErrorRecord, RunResult


def test_a_host_lacking_a_call_says_so_and_warns_plainly(fresh_sam_database, tmp_path,
                                                         monkeypatch):
    from sam.part import Part

    sam = fresh_sam_database
    EDIT.setup(sam)
    monkeypatch.delattr(Part, "assignBeamSectionOrientation")
    assert HostGateway(sam).restore_capability() == ["Part.assignBeamSectionOrientation"]
    assert HostGateway(sam).restore_capability(TARGET) == ["Part.assignBeamSectionOrientation"]
    result, controller, _ = run(sam, tmp_path, EDIT, gateway=FaultyGateway(sam, fault_at=2))
    assert result.status == "failed" and result.restored is False
    assert result.restore_unavailable == "the host lacks Part.assignBeamSectionOrientation"
    assert PARTIAL_WARNING in result.error.message
    assert "Restore unavailable: the host lacks Part.assignBeamSectionOrientation" in (
        result.error.message)
    # the part was left half-changed, and the run never claims otherwise
    assert result.after.fingerprint != result.before.fingerprint
    assert "restoring" not in controller.phase_label.lower()


def test_the_stub_host_has_everything_the_snapshot_needs(fresh_sam_database):
    from restore_support import plate

    assert HostGateway(fresh_sam_database).restore_capability() == []
    plate(fresh_sam_database)
    assert HostGateway(fresh_sam_database).restore_capability(TARGET) == []


def test_status_words_of_a_restored_run_say_failed_and_restored():
    from sam_plugin.ui.status_words import final_words

    result = RunResult(run_id="20261201T000000Z-abcdef", status="failed", phase="failed",
                       module="part", target=TARGET, restored=True,
                       error=ErrorRecord(layer="execution", message="boom"))
    words = final_words(result)
    assert "Failed" in words and "restored" in words
    assert "restored" not in final_words(result.model_copy(update={"restored": False}))
    assert "Undone" in final_words(result.model_copy(update={"status": "undone",
                                                             "restored": False}))


def test_the_controller_label_says_restored(fresh_sam_database, tmp_path):
    sam = fresh_sam_database
    EDIT.setup(sam)
    phases: list[str] = []

    def record(event) -> None:
        if event.name == "phase_changed":
            phases.append(event.data()["phase"])

    result, controller, _ = run(sam, tmp_path, EDIT, gateway=FaultyGateway(sam, fault_at=1),
                                listener=record)
    assert result.restored and controller.phase_label == "Failed at execution; part restored"
    assert phases[-3:] == ["executing", "restoring", "failed"]


def test_a_restore_that_fails_says_exactly_what_may_be_left(fresh_sam_database, tmp_path):
    from sam_plugin.runtime.events import read_events

    sam = fresh_sam_database
    EDIT.setup(sam)
    gateway = FaultyGateway(sam, fault_at=3, persistent=True)  # the host stays broken
    result, controller, _ = run(sam, tmp_path, EDIT, gateway=gateway)
    assert result.status == "failed" and result.error.layer == "execution"
    assert result.restored is False
    message = result.error.message
    assert "Putting the part back failed (RuntimeError: InjectedFault: host call" in message
    assert "rebuilding the part fresh failed too (InjectedFault" in message
    assert "what may be left changed: " in message
    left = message.split("what may be left changed: ", 1)[1].split(". Re-observe", 1)[0]
    assert "element" in left or "node" in left, left  # the edit's changes, named
    assert result.after.fingerprint != result.before.fingerprint
    events = read_events(controller.runs_dir / result.run_id / "events.jsonl")
    failed = [e for e in events if e["event"] == "restore_failed"]
    assert len(failed) == 1 and failed[0]["left"]
    assert "restore_completed" not in [e["event"] for e in events]
    assert controller.phase_label == "Failed at execution"
