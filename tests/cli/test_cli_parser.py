"""The one parser (``sam_plugin/cli/main.py``): every command is a module registered there,
each imports its work only when it runs, and ``python -m sam_plugin.cli`` is the console
entry."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from pathlib import Path

import pytest
from cli_support import new_workspace

from sam_plugin.cli import main as cli

ROOT = Path(__file__).resolve().parents[2]
HEAVY = ("PySide6", "qasync", "sam_plugin.ui", "sam_plugin.evaluation",
         "sam_plugin.runtime.run.controller", "httpx", "mcp", "sam_plugin.mcp_server")


def test_every_command_is_one_module_with_a_parser_and_a_handler():
    parser = cli.build_parser()
    commands = next(a for a in parser._actions if a.dest == "command")
    assert tuple(commands.choices) == cli.COMMANDS == (
        "run", "runs", "undo", "rerun", "demo", "eval", "examples", "mcp", "approve", "local")
    for name in cli.COMMANDS:
        module = importlib.import_module(f"sam_plugin.cli.{name}")
        assert callable(module.add_parser)
        assert commands.choices[name].get_default("handler").__module__ == module.__name__


def _modules_loaded_by(code: str) -> list[str]:
    probe = (f"import sys\n{code}\n"
             "import json; print(json.dumps(sorted(sys.modules)))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          cwd=ROOT, timeout=60, check=True)
    return json.loads(done.stdout.splitlines()[-1])


def test_building_the_parser_imports_no_command_s_work():
    loaded = _modules_loaded_by("from sam_plugin.cli.main import build_parser\n"
                                "build_parser().parse_args(['runs', '--json'])")
    assert [m for m in loaded if m.startswith(HEAVY)] == []


def test_the_runtime_never_needs_the_cli():
    loaded = _modules_loaded_by("import sam_plugin.runtime.run.controller")
    assert [m for m in loaded if m.startswith("sam_plugin.cli")] == []


@pytest.mark.parametrize("argv, words", [
    (["--help"], "{run,runs,undo,rerun,demo,eval,examples,mcp,approve,local}"),
    (["rerun", "--help"], "usage: sam-agent rerun"),
    (["examples", "--help"], "usage: sam-agent examples"),
    (["mcp", "--help"], "usage: sam-agent mcp"),
    (["approve", "--help"], "--decline"),
    (["run", "--help"], "--request-file F"),
    (["eval", "--help"], "usage: sam-agent eval"),
    (["undo", "--help"], "usage: sam-agent undo"),
    (["demo", "--help"], "usage: sam-agent demo"),
])
def test_python_m_sam_plugin_cli_is_the_console_entry(argv, words):
    done = subprocess.run([sys.executable, "-m", "sam_plugin.cli", *argv], capture_output=True,
                          text=True, cwd=ROOT, timeout=60)
    assert done.returncode == 0, done.stderr
    assert words in done.stdout


def test_an_unknown_argument_is_a_usage_error(capsys):
    assert cli.main(["runs", "--bogus"]) == 2
    assert "sam-agent runs: error: unrecognized arguments: --bogus" in capsys.readouterr().err


def test_an_unusable_environment_value_is_a_usage_error_naming_it(monkeypatch, capsys, tmp_path):
    workspace = new_workspace(tmp_path / "w.sam.json")
    monkeypatch.setenv("SAM_AGENT_UNDO_RUNS", "many")
    assert cli.main(["run", "--workspace", str(workspace), "--mode", "part", "--model",
                     "Model-1", "--part", "Plate", "--new-part", "--request", "x", "--replay",
                     "--runs-dir", str(tmp_path / "runs")]) == 2
    assert ("sam-agent: error: SAM_AGENT_UNDO_RUNS: 'many' cannot be used; legal: a whole "
            "number, 0 or more (0 turns undo off)\n") in capsys.readouterr().err


@pytest.mark.parametrize(("variable", "value", "legal"), [
    ("SAM_AGENT_UNDO_RUNS", "many", "a whole number, 0 or more (0 turns undo off)"),
    ("SAM_AGENT_UNDO_BUDGET_MB", "lots", "a number of megabytes, 0 or more (0 turns undo off)"),
])
def test_a_bad_undo_variable_stops_eval_in_one_line_before_any_task(
        monkeypatch, capsys, tmp_path, variable, value, legal):
    """It used to fail every task "at runner" and exit 0."""
    monkeypatch.setenv(variable, value)
    code = cli.main(["eval", str(ROOT / "eval" / "suite"), "--replay",
                     str(ROOT / "eval" / "cassettes" / "qwen2.5-coder-1.5b-instruct-q4_k_m"),
                     "--only", "part_transform_translate", "--out", str(tmp_path / "out")])
    err = capsys.readouterr().err
    assert code == 2, err
    assert err.strip().splitlines() == [
        f"sam-agent eval: error: {variable}: {value!r} cannot be used; legal: {legal}"]
    assert not (tmp_path / "out").exists()
