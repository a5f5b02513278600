"""The fault matrix: a host that fails at the k-th mutating call, for every k of each run.

Every case must end ``failed`` with ``restored: true``, the after-fingerprint equal to the
one before, and a database saved afterwards equal to the one saved before (I12, I14). The
same for a verification failure injected after a PASS. A read-only run (audits) takes no
snapshot: it must end ``failed`` with the part ``unchanged``, proven by the fingerprint. The
matrix is printed when asked (`pytest -s tests/restore/test_fault_matrix.py`) and on a
failure.
"""

from __future__ import annotations

from typing import Any

import pytest
from restore_support import FaultyGateway, run, saved, tree, without_counters
from scenarios import FAULT_MATRIX

from sam_plugin.compilers.evidence import Check
from sam_plugin.runtime.events import read_events
from sam_plugin.runtime.run import execute as controller_module  # where verify is called


def _calls_in_a_clean_run(sam: Any, tmp_path: Any, scenario: Any) -> int:
    sam.mdb = sam.database.Mdb()
    scenario.setup(sam)
    gateway = FaultyGateway(sam)
    result, _, _ = run(sam, tmp_path / "clean", scenario, gateway=gateway)
    assert result.status == "verified", result.error
    return gateway.calls


def _read_only(scenario: Any) -> bool:
    """Audits change nothing: no snapshot, nothing to restore, the readback is the proof."""
    return all(tool.startswith("audit_") for tool, _ in scenario.calls)


def _assert_unchanged(sam: Any, tmp_path: Any, result: Any, before: dict, layer: str,
                      label: str) -> list[str]:
    problems = []
    if result.status != "failed" or result.error is None or result.error.layer != layer:
        problems.append(f"status {result.status} at {result.error and result.error.layer}")
    if result.restored or result.error is None or result.error.part != "unchanged":
        problems.append(f"part {result.error and result.error.part}: "
                        f"{result.error and result.error.message}")
    if result.after is None or result.after.fingerprint != result.before.fingerprint:
        problems.append("after.fingerprint != before.fingerprint")
    if without_counters(saved(sam, tmp_path / f"after-{label}.sam.json")) != \
            without_counters(before):
        problems.append("the saved database differs from the one before the run")
    message = result.error.message if result.error else ""
    if "reads back unchanged" not in message or "nothing to restore" not in message:
        problems.append(f"message does not say the part is unchanged: {message[:200]}")
    return problems


def _assert_put_back(sam: Any, tmp_path: Any, result: Any, before: dict, layer: str,
                     label: str, read_only: bool = False) -> list[str]:
    if read_only:
        return _assert_unchanged(sam, tmp_path, result, before, layer, label)
    problems = []
    if result.status != "failed" or result.error is None or result.error.layer != layer:
        problems.append(f"status {result.status} at {result.error and result.error.layer}")
    if result.restored is not True or result.error is None or result.error.part != "restored":
        problems.append(f"restored={result.restored}: {result.error and result.error.message}")
    if result.after is None or result.after.fingerprint != result.before.fingerprint:
        problems.append("after.fingerprint != before.fingerprint")
    after = saved(sam, tmp_path / f"after-{label}.sam.json")
    if without_counters(after) != without_counters(before):
        problems.append("the saved database differs from the one before the run")
    if tree(after) != tree(before):
        problems.append(f"model tree {tree(after)} != {tree(before)}")
    message = result.error.message if result.error else ""
    if "put back exactly as it was" not in message:
        problems.append(f"message does not say the part is as it was: {message[:200]}")
    return problems


@pytest.mark.parametrize("scenario", FAULT_MATRIX, ids=lambda s: s.name)
def test_every_fault_of_a_run_is_restored_exactly(fresh_sam_database, tmp_path, scenario):
    sam = fresh_sam_database
    total = _calls_in_a_clean_run(sam, tmp_path, scenario)
    assert total >= 1
    rows, problems = [], {}
    for k in range(1, total + 1):
        sam.mdb = sam.database.Mdb()
        scenario.setup(sam)
        before = saved(sam, tmp_path / f"before-{k}.sam.json")
        gateway = FaultyGateway(sam, fault_at=k)
        result, controller, _ = run(sam, tmp_path / f"k{k}", scenario, gateway=gateway)
        assert gateway.fired, f"{scenario.name}: call {k} of {total} never happened"
        found = _assert_put_back(sam, tmp_path, result, before, "execution", f"k{k}",
                                 _read_only(scenario))
        events = [e["event"] for e in read_events(
            controller.runs_dir / result.run_id / "events.jsonl")]
        wanted = set() if _read_only(scenario) else {"snapshot_taken", "restore_completed"}
        if not wanted <= set(events) or "readback_verified" in events or (
                _read_only(scenario) and "snapshot_taken" in events):
            found.append(f"events {events}")
        if found:
            problems[k] = found
        rows.append(f"  {scenario.name:<24} fault at call {k:>2}/{total:<2}  "
                    f"{result.status:<7} restored={result.restored}")
    print(f"\nfault matrix: {scenario.name}\n" + "\n".join(rows))  # shown with -s, or on failure
    assert not problems, problems


@pytest.mark.parametrize("scenario", FAULT_MATRIX, ids=lambda s: s.name)
def test_a_verification_failure_after_a_pass_is_restored(fresh_sam_database, tmp_path,
                                                          monkeypatch, scenario):
    sam = fresh_sam_database
    scenario.setup(sam)
    before = saved(sam, tmp_path / "before.sam.json")
    real_verify = controller_module.verify

    def failing(*args: Any) -> list[Check]:
        return [*real_verify(*args), Check(name="injected", expected="ok", actual="wrong",
                                           ok=False)]

    monkeypatch.setattr(controller_module, "verify", failing)
    result, controller, _ = run(sam, tmp_path, scenario)
    problems = _assert_put_back(sam, tmp_path, result, before, "verification", "verify",
                                _read_only(scenario))
    phases = [e.get("phase") for e in read_events(controller.runs_dir / result.run_id
                                                  / "events.jsonl")]
    assert "injected: expected ok, actual wrong" in result.error.message
    assert controller.phase == "failed"
    assert ("restored" in controller.phase_label) != _read_only(scenario)
    print(f"\nfault matrix: {scenario.name:<24} verification failure after PASS  "
          f"{result.status:<7} restored={result.restored}")  # shown with -s, or on failure
    assert not problems, (problems, phases)
