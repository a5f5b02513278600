"""Two processes on one workspace or one runs directory (issue 15): a save that would lose the
other's build is refused; a run a live process holds is never recovered; the unknown warning
is said once and can be acknowledged."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from cli_support import StubQuadModule, base_args, new_workspace, run_cli, saved_counts

from sam_plugin.compilers import registry
from sam_plugin.errors import NotUnknown
from sam_plugin.runtime.store.journal import SubmissionJournal
from sam_plugin.runtime.store.run_history import acknowledge_unknown_run, list_runs
from sam_plugin.runtime.store.run_store import JOURNAL_NAME, LOCK_NAME
from sam_plugin.runtime.store.workspace_save import OpenedWorkspace, SaveConflict
from tests.support.fake_vocabulary import fake_spec

SPEC = fake_spec("build", "audit", summary="Add two unit QUADs at z=5 and audit.")
RUN_ID = "20261129T080000Z-c0ffee"


@pytest.fixture
def stub_module(monkeypatch):
    module = StubQuadModule()
    monkeypatch.setattr(registry, "get_module", lambda mode: module)
    return module


def saved_elsewhere_meanwhile(fake, path: Path, quads: int) -> None:
    """The provider's second answer comes after another process saved ``path``."""
    answers = [SPEC, None]

    def responder(request):
        answer = answers.pop(0)
        if answer is None:
            import sam

            mine = sam.mdb
            new_workspace(path, quads=quads)  # the other process's save
            sam.mdb = mine
            from sam_plugin.demo.streams import openai_stream

            return openai_stream(tool_calls=[("build_part", '{"quads": 2}'),
                                             ("audit_part", "{}")])
        from sam_plugin.demo.streams import openai_stream

        return openai_stream(content=answer)

    fake.responder = responder


def test_save_onto_a_workspace_another_process_saved_is_refused(
    tmp_path, capsys, provider_env, stub_module
):
    workspace = new_workspace(tmp_path / "w.sam.json", quads=1)
    saved_elsewhere_meanwhile(provider_env, workspace, quads=5)
    args = base_args(workspace, tmp_path / "runs") + [
        "--request", "add two quads", "--yes", "--json", "--save", str(workspace)]
    run = run_cli(args, capsys)
    assert run.code == 1, run.err
    result = run.result
    assert result["status"] == "verified"  # the run itself stays verified
    assert result["save"]["saved"] is False and result["save"]["path"] == str(workspace)
    assert f"{workspace.resolve()} changed since the workspace was opened (another process " \
        "saved it?)" in result["save"]["message"]
    assert saved_counts(workspace) == (20, 5)  # the other build is not lost
    assert "the run is verified, but " in run.err and "was not saved: " in run.err
    on_disk = json.loads((tmp_path / "runs" / result["run_id"] / "result.json").read_text())
    assert on_disk["save"] == result["save"]


def test_save_onto_an_output_another_process_created_is_refused(
    tmp_path, capsys, provider_env, stub_module
):
    workspace = new_workspace(tmp_path / "w.sam.json", quads=1)
    out = tmp_path / "out.sam.json"
    saved_elsewhere_meanwhile(provider_env, out, quads=3)
    args = base_args(workspace, tmp_path / "runs") + [
        "--request", "add two quads", "--yes", "--save", str(out)]
    run = run_cli(args, capsys)
    assert run.code == 1
    assert f"{out.resolve()} was created since the workspace was opened" in run.out
    assert saved_counts(out) == (12, 3)


def test_an_unchanged_workspace_saves_and_the_result_says_where(
    tmp_path, capsys, provider_env, stub_module
):
    workspace = new_workspace(tmp_path / "w.sam.json", quads=1)
    provider_env.enqueue_reply(SPEC)
    provider_env.enqueue_reply(tool_calls=[("build_part", '{"quads": 2}'), ("audit_part", "{}")])
    args = base_args(workspace, tmp_path / "runs") + [
        "--request", "q", "--yes", "--json", "--save", str(workspace)]
    run = run_cli(args, capsys)
    assert run.code == 0, run.err
    assert run.result["save"] == {"path": str(workspace), "saved": True, "message": None}
    assert saved_counts(workspace) == (12, 3)


def test_the_save_check_and_write_are_one_step_under_a_lock(tmp_path):
    import sam

    workspace = new_workspace(tmp_path / "w.sam.json", quads=1)
    first, second = OpenedWorkspace.opened(workspace), OpenedWorkspace.opened(workspace)
    sam.mdb.models["Model-1"].Part(name="Built-by-the-first")
    first.save(sam.mdb, workspace)
    with pytest.raises(SaveConflict, match="changed since the workspace was opened"):
        second.save(sam.mdb, workspace)


def hold_lock(path: Path) -> subprocess.Popen:
    """Another live process holding ``path``'s lock, as a run's owner does."""
    code = ("import fcntl, sys, time\n"
            "f = open(sys.argv[1], 'a')\n"
            "fcntl.flock(f, fcntl.LOCK_EX)\n"
            "print('held', flush=True)\n"
            "time.sleep(120)\n")
    holder = subprocess.Popen([sys.executable, "-c", code, str(path)], stdout=subprocess.PIPE,
                              text=True)
    assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
    return holder


def executing_run(runs: Path) -> Path:
    run_dir = runs / RUN_ID
    run_dir.mkdir(parents=True)
    (run_dir / "request.txt").write_text("add quads")
    (run_dir / "result.json").write_text(json.dumps({
        "run_id": RUN_ID, "status": "unknown", "phase": "executing", "module": "part",
        "target": {"model_name": "Model-1", "part_name": "Plate"}, "submissions": 1}))
    SubmissionJournal(runs / JOURNAL_NAME).record_submitted(RUN_ID, "0" * 64, "k")
    return run_dir


def start_controller(runs: Path):
    from sam_plugin.runtime.config.settings import ProviderSettings
    from sam_plugin.runtime.run.controller import RunController

    return RunController(runs_dir=runs, settings=ProviderSettings(), host=None)


def test_recovery_leaves_a_run_held_by_a_live_process_alone(tmp_path):
    runs = tmp_path / "runs"
    run_dir = executing_run(runs)
    before = (run_dir / "result.json").read_bytes()
    holder = hold_lock(run_dir / LOCK_NAME)
    try:
        other = start_controller(runs)
        assert other.unknown_runs == [] and other.recovered_runs == []
        assert (run_dir / "result.json").read_bytes() == before  # not overwritten
    finally:
        holder.kill()  # the owner crashes: the OS releases its lock
        holder.wait()
    later = start_controller(runs)
    assert later.unknown_runs == [RUN_ID] and later.recovered_runs == [RUN_ID]
    assert json.loads((run_dir / "result.json").read_text())["error"]["layer"] == "execution"


def test_the_unknown_warning_is_said_once_and_can_be_acknowledged(tmp_path, capsys):
    from sam_plugin.cli import main as cli

    runs = tmp_path / "runs"
    executing_run(runs)
    assert start_controller(runs).recovered_runs == [RUN_ID]
    again = start_controller(runs)
    assert again.recovered_runs == [] and again.unknown_runs == [RUN_ID]  # said once
    assert cli.main(["runs", "--runs-dir", str(runs)]) == 0
    assert f"(unacknowledged: sam-agent runs --ack {RUN_ID})" in capsys.readouterr().out
    assert cli.main(["runs", "--runs-dir", str(runs), "--ack", RUN_ID]) == 0
    assert f"acknowledged: run {RUN_ID}" in capsys.readouterr().out
    [summary] = list_runs(runs)
    assert summary.status == "unknown" and summary.acknowledged
    assert acknowledge_unknown_run(runs, RUN_ID) is False  # idempotent
    assert cli.main(["runs", "--runs-dir", str(runs)]) == 0
    assert "unacknowledged" not in capsys.readouterr().out


def test_only_an_unknown_run_can_be_acknowledged(tmp_path, capsys):
    from sam_plugin.cli import main as cli

    runs = tmp_path / "runs"
    runs.mkdir()
    with pytest.raises(NotUnknown, match="not a run with an unknown outcome"):
        acknowledge_unknown_run(runs, RUN_ID)
    assert cli.main(["runs", "--runs-dir", str(runs), "--ack", RUN_ID]) == 2
    assert "--ack: run " in capsys.readouterr().err


def test_a_run_is_locked_while_its_controller_owns_it(tmp_path):
    import asyncio

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "controller"))
    from controller_fakes import (
        TARGET,
        FakeHost,
        FakePartModule,
        ScriptedProvider,
        design,
        settings,
    )

    from sam_plugin.runtime.run.controller import RunController
    from sam_plugin.runtime.store.file_lock import is_locked

    provider = ScriptedProvider(design(SPEC), design(SPEC))
    controller = RunController(runs_dir=tmp_path / "runs", settings=settings(), host=FakeHost(),
                               provider_factory=provider.factory,
                               module_factory=lambda mode: FakePartModule())
    asyncio.run(controller.submit("x", "part", TARGET))
    first = tmp_path / "runs" / controller.run_id / LOCK_NAME
    assert is_locked(first)
    asyncio.run(controller.cancel())
    asyncio.run(controller.submit("y", "part", TARGET))
    assert not is_locked(first)  # a new run: this process let go of the old one
    assert is_locked(tmp_path / "runs" / controller.run_id / LOCK_NAME)
