"""What ``sam-agent run --yes`` prints of a plan it approves without asking: the destructive
lines, not only a count; and the fingerprint check as one short line."""

from __future__ import annotations

import shutil

from cli_support import run_cli

from sam_plugin.demo.examples import WORKSPACE_FILE, example_by_id


def _replayed(tmp_path, capsys, example_id: str):
    example = example_by_id(example_id)
    workspace = tmp_path / "W.sam.json"
    shutil.copyfile(WORKSPACE_FILE, workspace)
    return run_cli(["run", "--replay", "--yes", "--workspace", str(workspace), "--mode",
                    example.mode, "--model", example.model, "--part", example.part,
                    "--request", example.request, "--runs-dir", str(tmp_path / "runs")],
                   capsys)


def test_yes_prints_the_destructive_lines_it_approves(tmp_path, capsys) -> None:
    run = _replayed(tmp_path, capsys, "copy_merge")
    assert run.code == 0, run.err
    lines = run.err.splitlines()
    approved = lines.index("  plan approved by --yes: 3 call(s), 1 destructive")
    assert lines[approved + 1] == ("  DESTRUCTIVE: call 2 repair_part: removes, beyond what the "
                                   "call names: 5 nodes [26, 31, 36, 41, 46]")
    assert approved < lines.index("[executing] Executing: script submitted once")


def test_the_fingerprint_check_is_one_short_line(tmp_path, capsys) -> None:
    run = _replayed(tmp_path, capsys, "refine")
    assert run.code == 0, run.err
    rest = [line for line in run.out.splitlines() if "rest of the part" in line]
    assert rest == ["  [ok ] the rest of the part is unchanged (fingerprint): as before the run"]
