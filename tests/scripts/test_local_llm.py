"""scripts/local-llm.sh is a thin wrapper over ``sam-agent local``: it says its usage, passes
status on, and with no one at the terminal its build stops before downloading anything."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "local-llm.sh"


def _run(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHON": sys.executable, "SAM_AGENT_LLM_HOME": str(tmp_path / "llm")}
    return subprocess.run(["bash", str(SCRIPT), *args], capture_output=True, text=True,
                          env=env, stdin=subprocess.DEVNULL, timeout=60, check=False)


def test_usage_names_the_verbs(tmp_path: Path) -> None:
    done = _run(tmp_path)
    assert done.returncode == 2
    for verb in ("build", "serve", "all", "stop", "status", "sam-agent local"):
        assert verb in done.stdout


def test_status_is_sam_agent_local_status(tmp_path: Path) -> None:
    done = _run(tmp_path, "status", "--json")
    assert done.returncode == 0, done.stderr
    status = json.loads(done.stdout)
    assert status["state"] == "not set up" and status["home"] == str(tmp_path / "llm")


def test_build_with_no_one_at_the_terminal_downloads_nothing(tmp_path: Path) -> None:
    done = _run(tmp_path, "build", "0.5b")
    assert done.returncode == 3, done.stderr
    assert "nothing was downloaded or built" in done.stdout
    assert not (tmp_path / "llm").exists()
