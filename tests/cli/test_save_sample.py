"""``sam-agent demo --save-sample W.sam.json``: the sample workspace, without Qt, and the run
line it prints works as printed (with --yes added for a test without a terminal)."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

from sam_plugin.demo.examples import WORKSPACE_FILE

ROOT = Path(__file__).resolve().parents[2]


def _agent(args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    code = ("import sys\nfrom sam_plugin.cli.main import main\nrc = main(sys.argv[1:])\n"
            "print('qt imported' if 'PySide6' in sys.modules else 'no qt', file=sys.stderr)\n"
            "raise SystemExit(rc)\n")
    env = {"PATH": os.environ.get("PATH", ""), "PYTHONPATH": str(ROOT),
           "SAM_AGENT_SETTINGS_FILE": str(cwd / "settings.json")}
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True,
                          cwd=cwd, env=env, timeout=120)


def test_save_sample_writes_the_workspace_and_a_run_line_that_works(tmp_path: Path) -> None:
    done = _agent(["demo", "--save-sample", "W.sam.json"], tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stderr.strip() == "no qt"
    assert (tmp_path / "W.sam.json").read_bytes() == WORKSPACE_FILE.read_bytes()
    lines = done.stdout.splitlines()
    assert lines[0] == "wrote W.sam.json, the demo's sample workspace."
    assert "sam-agent examples" in done.stdout
    start = next(i for i, line in enumerate(lines) if line.strip().startswith("sam-agent run"))
    command = " ".join(line.strip().rstrip("\\") for line in lines[start:start + 2])
    args = shlex.split(command)[1:] + ["--yes", "--runs-dir", "runs"]
    ran = _agent(args, tmp_path)
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.startswith("Verified") or "\nVerified" in ran.stdout


def test_save_sample_never_overwrites_and_needs_the_folder(tmp_path: Path) -> None:
    (tmp_path / "W.sam.json").write_text("mine")
    done = _agent(["demo", "--save-sample", "W.sam.json"], tmp_path)
    assert done.returncode == 2
    assert "sam-agent demo: --save-sample: W.sam.json exists; give a new file name" in done.stderr
    assert (tmp_path / "W.sam.json").read_text() == "mine"
    missing = _agent(["demo", "--save-sample", "no/W.sam.json"], tmp_path)
    assert missing.returncode == 2 and "no folder no" in missing.stderr
