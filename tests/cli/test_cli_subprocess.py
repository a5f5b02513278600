"""The real command line in a fresh process: the stub is found and announced, exit codes hold."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from cli_support import API_KEY, new_workspace

from tests.support.specs import answer, step

ROOT = Path(__file__).resolve().parents[2]


def cli(args: list[str], env: dict[str, str], stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "sam_plugin.cli", *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=60,
    )


def test_fresh_process_puts_the_stub_on_the_path_and_says_so(tmp_path, fake_provider):
    workspace = new_workspace(tmp_path / "w.sam.json")
    fake_provider.enqueue_reply(answer(step("build", shape="QUAD", divisions=[2, 1]),
                                       summary="Build a 2 x 1 plate, 2 x 1 QUADs."))
    plate = {
        "patches": [
            {
                "id": "P",
                "shape": "QUAD",
                "corners": [[0, 0, 0], [2, 0, 0], [2, 1, 0], [0, 1, 0]],
                "divisions": [2, 1],
            }
        ]
    }
    fake_provider.enqueue_reply(tool_calls=[("build_part", json.dumps(plate))])
    env = {
        "PATH": os.environ.get("PATH", ""),
        "PYTHONPATH": str(ROOT),
        "SAM_AGENT_BASE_URL": fake_provider.base_url,
        "SAM_AGENT_API_KEY": API_KEY,
        "SAM_AGENT_MODEL": "fake-model",
        "SAM_AGENT_PROFILE": "generic",
        "SAM_AGENT_CALLS": "model",  # the scripted answer holds the call
    }
    args = [
        "run", "--workspace", str(workspace), "--mode", "part", "--model", "Model-1",
        "--part", "Plate", "--new-part", "--request", "a 2 x 1 plate",
        "--runs-dir", str(tmp_path / "runs"), "--json",
    ]  # fmt: skip
    done = cli(args, env, stdin="y\ny\n")  # the spec, then the plan
    assert done.returncode == 0, done.stderr
    assert f"sam-agent: using the offline SAM stub from {ROOT / 'stubs'}" in done.stderr
    assert "[y/N]" in done.stderr
    result = json.loads(done.stdout)
    assert result["status"] == "verified" and result["after"]["element_count"] == 2
    assert result["plan"]["script_sha256"] == result["script_sha256"]

    usage = cli(["run", "--mode", "part"], env)
    assert usage.returncode == 2 and "the following arguments are required" in usage.stderr
