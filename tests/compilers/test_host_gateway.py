"""The in-process executor: once, PASS only with the completion marker, traceback on FAIL."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sam_plugin.compilers.protocol import Target
from sam_plugin.runtime.host_gateway import HostGateway

TARGET = Target(model_name="Model-1", part_name="P")


def test_pass_needs_the_completion_marker(fresh_sam: Any, tmp_path: Path) -> None:
    gateway = HostGateway(fresh_sam)
    script = ("from sam import mdb\n"
              "from sam_plugin.samops import part_audit as _part_audit\n"
              "mdb.models[SAM_AGENT_TARGET['model_name']].Part(name=SAM_AGENT_TARGET"
              "['part_name'])\n"
              "_part_audit.write_audit(mdb.models['Model-1'].parts['P'], SAM_AGENT_OUTPUT_DIR, "
              "('counts',))\n"
              "SAM_AGENT_COMPLETED = True\n")
    receipt = gateway.execute(script, TARGET, tmp_path / "out")
    assert receipt.status == "PASS" and receipt.traceback is None
    assert (tmp_path / "out" / "part_audit.json").is_file()  # the output dir was injected
    assert gateway.part(TARGET) is not None
    assert gateway.readback(TARGET).part_exists


def test_missing_marker_fails(fresh_sam: Any, tmp_path: Path) -> None:
    receipt = HostGateway(fresh_sam).execute("x = 1\n", TARGET, tmp_path)
    assert receipt.status == "FAIL"
    assert receipt.traceback == "the script ended without setting SAM_AGENT_COMPLETED"


def test_exception_fails_with_traceback_and_runs_once(fresh_sam: Any, tmp_path: Path) -> None:
    script = ("from sam import mdb\n"
              "mdb.models['Model-1'].Part(name='Once')\n"
              "raise RuntimeError('boom here')\n")
    gateway = HostGateway(fresh_sam)
    receipt = gateway.execute(script, TARGET, tmp_path)
    assert receipt.status == "FAIL"
    assert "RuntimeError: boom here" in receipt.traceback
    assert "<sam_agent_script>" in receipt.traceback
    assert list(gateway.mdb.models["Model-1"].parts.keys()) == ["Once"]


def test_syntax_error_fails_without_running(fresh_sam: Any, tmp_path: Path) -> None:
    receipt = HostGateway(fresh_sam).execute("def (:\n", TARGET, tmp_path)
    assert receipt.status == "FAIL" and receipt.stage == "refused"
    assert "line 1: not valid Python (invalid syntax)" in receipt.traceback


def test_mdb_follows_the_module_after_replacement(fresh_sam: Any) -> None:
    from sam.database import Mdb

    gateway = HostGateway(fresh_sam)
    first = gateway.mdb
    fresh_sam.mdb = Mdb()
    assert gateway.mdb is fresh_sam.mdb is not first
    assert gateway.model("Nope") is None
    assert gateway.part(TARGET) is None
    assert gateway.readback(TARGET).part_exists is False


def test_lazy_import_of_sam(fresh_sam: Any) -> None:
    assert HostGateway().mdb is fresh_sam.mdb



def test_the_script_and_the_mesh_operations_share_one_nesting_collector_pause(
        fresh_sam: Any, tmp_path: Path, monkeypatch: Any) -> None:
    import gc
    import sys
    import types

    import sam_plugin.samops as samops
    from sam_plugin.compilers import script_guard
    from sam_plugin.runtime import host_gateway
    from sam_plugin.samops import gc_pause, mesh_ops

    assert host_gateway.collector_paused is gc_pause.collector_paused
    assert mesh_ops.collector_paused is gc_pause.collector_paused
    assert gc.isenabled()
    seen = []
    # the script itself may not import gc or use with: a helper reports what it sees
    probe = types.ModuleType("sam_plugin.samops.gc_probe")

    def look() -> None:
        seen.append(gc.isenabled())
        with gc_pause.collector_paused():
            seen.append(gc.isenabled())
        seen.append(gc.isenabled())

    probe.look = look  # type: ignore[attr-defined]
    script = ("from sam_plugin.samops import gc_probe as _gc_probe\n"
              "_gc_probe.look()\n"
              "SAM_AGENT_COMPLETED = True\n")
    known = script_guard.helper_modules() | {"gc_probe"}
    with monkeypatch.context() as patch:
        patch.setitem(sys.modules, "sam_plugin.samops.gc_probe", probe)
        patch.setattr(samops, "gc_probe", probe, raising=False)
        patch.setattr(script_guard, "helper_modules", lambda: known)
        receipt = HostGateway(fresh_sam).execute(script, TARGET, tmp_path)
    assert receipt.status == "PASS", receipt.traceback
    assert seen == [False, False, False]
    assert gc.isenabled()
    gc.disable()
    try:
        with gc_pause.collector_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()  # a pause never enables a collector it found disabled
    finally:
        gc.enable()


def test_the_receipt_says_whether_a_failure_came_before_the_first_mutation(
    fresh_sam: Any, tmp_path: Path
) -> None:
    from sam_plugin.compilers.composer import compose
    from sam_plugin.compilers.evidence import Prediction, Readback
    from sam_plugin.compilers.protocol import Fragment

    state = Prediction.from_readback(Readback(part_exists=False))
    target = Target(model_name="Model-1", part_name="Plate")
    gateway = HostGateway(fresh_sam)

    def run(preflight: str, mutation: str) -> Any:
        fragment = Fragment(tool="t", preflight=preflight, mutation=mutation, normalized={},
                            evidence=state)
        return gateway.execute(compose([fragment]).text, target, tmp_path / "out")

    stopped = run("raise RuntimeError('label 9 does not exist')\n", "_model.Part(name='X')\n")
    assert (stopped.status, stopped.stage, stopped.nothing_changed) == ("FAIL", "preflight", True)
    assert "X" not in fresh_sam.mdb.models["Model-1"].parts.keys()

    partial = run("", "_model.Part(name='Y')\nraise RuntimeError('host refused')\n")
    assert (partial.status, partial.stage, partial.nothing_changed) == ("FAIL", "mutation", False)
