"""``sam-agent examples`` names the requests the Replay answers, and each one it names is
answered: run with ``--replay`` on a fresh sample workspace, it ends verified."""

from __future__ import annotations

import argparse
import io
import json
import shlex
import shutil

import pytest
from cli_support import run_cli

from sam_plugin.cli.examples import examples_command
from sam_plugin.demo.examples import WORKSPACE_FILE, load_examples


def _listed(json_output: bool = False) -> str:
    out = io.StringIO()
    assert examples_command(argparse.Namespace(json=json_output), out=out) == 0
    return out.getvalue()


def test_the_list_has_a_header_and_every_request_in_both_languages() -> None:
    text = _listed()
    lines = text.splitlines()
    assert lines[0].startswith("The requests the bundled Replay answers, word for word")
    assert "sam-agent demo --save-sample W.sam.json" in lines[1]
    assert lines[3].split() == ["id", "mode", "model", "/", "part", "request"]
    for example in load_examples():
        row = next(line for line in lines if line.startswith(example.id + " "))
        assert row.split()[1] == example.mode
        assert f"{example.model} / {example.part}" in row and row.endswith(example.request)
        assert f"zh: {example.request_zh}" in text


def test_the_example_line_at_the_end_runs_as_printed(tmp_path, capsys) -> None:
    line = _listed().splitlines()[-1].strip()
    assert line.startswith("sam-agent run --replay --workspace W.sam.json")
    shutil.copyfile(WORKSPACE_FILE, tmp_path / "W.sam.json")
    args = shlex.split(line)[1:]
    args[args.index("W.sam.json")] = str(tmp_path / "W.sam.json")
    run = run_cli([*args, "--yes", "--json", "--runs-dir", str(tmp_path / "runs")], capsys)
    assert run.code == 0, run.err
    assert run.result["status"] == "verified"


@pytest.mark.parametrize("language", ["request", "request_zh"])
def test_every_listed_request_is_answered_by_the_replay(tmp_path, capsys, language) -> None:
    for row in json.loads(_listed(json_output=True)):
        workspace = tmp_path / f"{row['id']}-{language}.sam.json"
        shutil.copyfile(WORKSPACE_FILE, workspace)
        run = run_cli(["run", "--replay", "--yes", "--json", "--workspace", str(workspace),
                       "--mode", row["mode"], "--model", row["model"], "--part", row["part"],
                       *(["--new-part"] if row["new_part"] else []),
                       "--request", row[language], "--runs-dir", str(tmp_path / "runs")],
                      capsys)
        assert run.code == 0, (row["id"], language, run.err[-600:])
        assert run.result["status"] == "verified", row["id"]
