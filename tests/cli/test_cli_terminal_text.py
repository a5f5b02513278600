"""Every line the CLI writes to a terminal is free of control characters
(docs/architecture.md §6): a stored request with terminal escapes changed the window title
and cleared the screen when ``sam-agent runs`` printed it."""

from __future__ import annotations

import json

from cli_support import run_cli

from sam_plugin.runtime.store.run_store import RunDir, new_run_id

HOSTILE = "move S1\x1b]0;pwned\x07\x1b[2J\x1b[H\x08\u009b31m\u202eevil"


def _stored_run(runs):
    run = RunDir(runs, new_run_id()).create()
    run.write_text("request.txt", HOSTILE)
    run.write_json("workspace.json", {"mode": "part\x1b[31m"})
    return run


def test_sam_agent_runs_prints_no_control_character(tmp_path, capsys):
    _stored_run(tmp_path / "runs")
    run = run_cli(["runs", "--runs-dir", str(tmp_path / "runs")], capsys)
    assert run.code == 0, run.err
    for char in run.out:
        assert char in "\n\t" or (ord(char) >= 0x20 and not 0x7f <= ord(char) < 0xa0
                                  and char != "\u202e"), repr(char)
    assert "move S1]0;pwned[2J[H31mevil" in run.out


def test_runs_json_keeps_the_data_and_escapes_what_a_terminal_would_obey(tmp_path, capsys):
    _stored_run(tmp_path / "runs")
    run = run_cli(["runs", "--runs-dir", str(tmp_path / "runs"), "--json"], capsys)
    assert run.code == 0, run.err
    assert json.loads(run.out)[0]["request"] == HOSTILE  # the stored text, exactly
    assert all(ord(c) >= 0x20 and not 0x7f <= ord(c) < 0xa0 and c != "\u202e"
               for c in run.out if c not in "\n\t")
