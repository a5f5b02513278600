"""The MCP Inspector's CLI over stdio, as a new agent developer drives it (docs/mcp.md "Try
it with the MCP Inspector"): every call starts its own ``sam-agent mcp``, so the change only
finishes because a plan outlives the server that made it.

The real ``npx @modelcontextprotocol/inspector --cli`` runs when node and the package are
present: installed once, outside the repository, with ``npm install --prefix DIR
@modelcontextprotocol/inspector@0.17.2`` (DIR is ``SAM_AGENT_INSPECTOR_DIR``, else the
per-user cache below); ``npx --no`` never downloads it during the test. Else it skips, saying
why.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import platformdirs
import pytest
from mcp_support import MODEL, PART, approve_at_terminal, child_env, journal, translate

INSPECTOR = "@modelcontextprotocol/inspector"
VERSION = "0.17.2"  # --header came in 0.16.6; node 20 runs it (its engines ask for 22)
SAM_AGENT = Path(sys.executable).with_name("sam-agent")


def _inspector_dir() -> Path:
    found = os.environ.get("SAM_AGENT_INSPECTOR_DIR")
    return Path(found) if found else Path(platformdirs.user_cache_dir("sam-agent-tests")) / \
        "inspector"


@pytest.fixture(scope="module")
def inspector() -> Path:
    where = _inspector_dir()
    if shutil.which("node") is None or shutil.which("npx") is None:
        pytest.skip("node and npx are not installed: the MCP Inspector needs them")
    if not (where / "node_modules" / INSPECTOR / "package.json").exists():
        pytest.skip(f"the MCP Inspector is not installed in {where}: npm install --prefix "
                    f"{where} {INSPECTOR}@{VERSION} (or set SAM_AGENT_INSPECTOR_DIR)")
    if not SAM_AGENT.exists():
        pytest.skip(f"no sam-agent console script beside {sys.executable}")
    return where


def _call(where: Path, server: list[str], tool: str, **arguments: Any) -> dict[str, Any]:
    """One ``tools/call`` through the Inspector's CLI: a fresh server for this call alone."""
    argv = ["npx", "--no", "--", INSPECTOR, "--cli", *server, "--method", "tools/call",
            "--tool-name", tool]
    for key, value in arguments.items():
        text = value if isinstance(value, str) else json.dumps(value)
        argv += ["--tool-arg", f"{key}={text}"]
    done = subprocess.run(argv, cwd=where, env=child_env(), capture_output=True, text=True,
                          timeout=180)
    assert done.returncode == 0, (done.stdout, done.stderr)
    answer = json.loads(done.stdout)
    assert json.loads(answer["content"][0]["text"]) == answer["structuredContent"]
    return dict(answer["structuredContent"])


def test_the_inspector_cli_finishes_a_change_a_person_approved(inspector, stdio):
    server = [str(SAM_AGENT), "mcp", "--workspace", str(stdio.workspace), "--runs-dir",
              str(stdio.runs), "--save", str(stdio.save)]
    targets = _call(inspector, server, "list_targets")
    assert {"name": PART, "nodes": 8, "elements": 2} in targets["models"][0]["parts"]
    asked = translate(5)
    planned = _call(inspector, server, "plan_change", **asked)
    assert planned["status"] == "waiting_for_approval" and planned["plan"]["target"] == {
        "model_name": MODEL, "part_name": PART}
    assert f"sam-agent approve {planned['run_id']} --runs-dir {stdio.runs}" in planned["next"]
    approved = approve_at_terminal(stdio.runs, planned["run_id"])  # the person, at a terminal
    assert approved.returncode == 0, approved.stderr
    assert "no execute_plan waits for it now: the decision is recorded" in approved.stdout
    done = _call(inspector, server, "execute_plan", run_id=planned["run_id"],
                 plan_sha256=planned["plan_sha256"])
    assert (done["status"], done["decision"]["channel"]) == ("verified", "command")
    assert done["result"]["save"]["saved"] is True
    submitted = [e["run_id"] for e in journal(stdio.runs) if e["state"] == "submitted"]
    assert submitted == [planned["run_id"]]
