"""What the MCP tests share: a workspace, a session through the SDK's own client (in memory on
a gate, or a real ``sam-agent mcp`` stdio subprocess), the person at the other end of the
elicitation form, ``sam-agent approve`` at a terminal (a pty), and the fingerprint checks.

A scenario takes a ``Connect`` (``connect(**client_options)`` → an async context manager of a
connected ``mcp.Client``) so that it runs the same way on both transports.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import pty
import subprocess
import sys
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import mcp_types as types
from mcp import Client, StdioServerParameters

ROOT = Path(__file__).resolve().parents[2]
MODEL, PART = "Model-1", "Plate"
Connect = Callable[..., contextlib.AbstractAsyncContextManager[Client]]


PARTS = [PART, *(f"P{n}" for n in range(1, 13))]  # one per scenario of a shared session


def plate_workspace(path: Path, quads: int = 2, parts: list[str] | None = None) -> Path:
    """``Model-1`` with ``Plate`` and ``P1``..``P12``, each a row of ``quads`` unit QUADs,
    saved with the offline stub."""
    import sam
    from sam.database import Mdb
    from samConstants import QUAD

    sam.mdb = Mdb()
    for name in parts or PARTS:
        part = sam.mdb.models[MODEL].Part(name=name)
        for i in range(quads):
            nodes = [part.Node(coordinates=c) for c in
                     [(i, 0.0, 0.0), (i + 1, 0.0, 0.0), (i + 1, 1.0, 0.0), (i, 1.0, 0.0)]]
            part.Element(nodes=nodes, elemShape=QUAD)
    sam.mdb.saveAs(str(path))
    return path


# -- the calls an agent sends -----------------------------------------------------------------


def translate(dx: float, part: str = PART, request: str = "move the plate along X"
              ) -> dict[str, Any]:
    """plan_change arguments: translate the whole plate by (dx, 0, 0)."""
    everything = {"by": "all"}
    return {
        "mode": "part", "model": MODEL, "part": part, "request": request,
        "spec": {"summary": f"Translate the plate by ({dx}, 0, 0).",
                 "steps": [{"capability": "transform", "action": "translate",
                            "scope": everything, "values": {"vector": [dx, 0, 0]},
                            "text": f"Move every node by {dx} along X."}]},
        "calls": [{"name": "transform_part",
                   "arguments": {"operations": [{"op": "translate", "vector": [dx, 0, 0],
                                                 "selection": everything}]}}],
    }


def build(part: str = "Fresh") -> dict[str, Any]:
    patch = {"id": "P", "shape": "QUAD", "divisions": [3, 2],
             "corners": [[0, 0, 0], [3, 0, 0], [3, 2, 0], [0, 2, 0]]}
    return {
        "mode": "part", "model": MODEL, "part": part,
        "request": "build a 3 x 2 plate meshed 3 x 2 with QUADs",
        "spec": {"summary": "Build a 3 x 2 QUAD plate.",
                 "steps": [{"capability": "build", "action": "build",
                            "values": {"shape": "QUAD", "size": [3, 2], "divisions": [3, 2]},
                            "text": "Build a 3 x 2 plate of 3 x 2 QUADs."}],
                 "expected": {"nodes": 12, "elements": 6}},
        "calls": [{"name": "build_part", "arguments": {"patches": [patch]}}],
    }


async def call(client: Client, tool: str, arguments: dict[str, Any]) -> tuple[bool, Any]:
    """(is_error, structuredContent) of one tool call."""
    result = await client.call_tool(tool, arguments)
    assert result.structured_content is not None, result
    # the text is the same JSON, for clients that read only text
    assert json.loads(result.content[0].text) == result.structured_content  # type: ignore[union-attr]
    return bool(result.is_error), result.structured_content


async def plan(client: Client, arguments: dict[str, Any]) -> dict[str, Any]:
    failed, data = await call(client, "plan_change", arguments)
    assert not failed, data
    assert data["status"] == "waiting_for_approval"
    return data


async def execute(client: Client, planned: dict[str, Any], wait: float = 20) -> dict[str, Any]:
    failed, data = await call(client, "execute_plan", {
        "run_id": planned["run_id"], "plan_sha256": planned["plan_sha256"],
        "wait_seconds": wait})
    assert not failed, data
    return data


async def fingerprint(client: Client, part: str = PART) -> str:
    """The part's fingerprint as the server reads it now (observe is read-only)."""
    failed, data = await call(client, "observe", {"model": MODEL, "part": part})
    assert not failed, data
    return str(data["fingerprint"])


# -- the person -------------------------------------------------------------------------------


class People:
    """The elicitation callback of a session shared by scenarios: each part's plans are
    answered by that part's :class:`Person` (the form names the part); others declined."""

    def __init__(self) -> None:
        self.by_part: dict[str, Person] = {}

    def at(self, part: str, person: Person) -> Person:
        self.by_part[part] = person
        return person

    async def __call__(self, context: Any, params: Any) -> types.ElicitResult:
        for part, person in self.by_part.items():
            if f"{MODEL}/{part} (" in params.message or f"{MODEL}/{part} back" in \
                    params.message:
                return await person(context, params)
        return types.ElicitResult(action="decline")


@dataclass
class Person:
    """The person at the client's elicitation form: what they answer, and what they saw."""

    answer: str = "execute"  # execute | no | decline | cancel | never | late | after
    late_seconds: float = 0.0
    asked: int = 0
    seen: str = ""
    # "after": decline once this holds (a decision was made elsewhere meanwhile)
    until: Callable[[], bool] = lambda: False

    async def __call__(self, context: Any, params: Any) -> types.ElicitResult:
        self.asked += 1
        self.seen = params.message
        if self.answer == "never":
            await asyncio.Event().wait()
        if self.answer == "after":
            while not self.until():
                await asyncio.sleep(0.05)
            return types.ElicitResult(action="decline")
        if self.answer == "late":
            await asyncio.sleep(self.late_seconds)
            return types.ElicitResult(action="accept", content={"execute": True})
        if self.answer in ("decline", "cancel"):
            return types.ElicitResult(action=self.answer)  # type: ignore[arg-type]
        return types.ElicitResult(action="accept", content={"execute": self.answer == "execute"})


def approve_at_terminal(runs: Path, run_id: str, answer: str = "y\n", *,
                        decline: bool = False, terminal: bool = True,
                        timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """``sam-agent approve RUN_ID`` in a child process, its stdin a terminal (a pty) or a pipe."""
    argv = [sys.executable, "-m", "sam_plugin.cli", "approve", run_id, "--runs-dir", str(runs)]
    if decline:
        argv.append("--decline")
    env = child_env()
    if not terminal:
        return subprocess.run(argv, input=answer, capture_output=True, text=True, env=env,
                              timeout=timeout, cwd=ROOT)
    leader, follower = pty.openpty()
    try:
        child = subprocess.Popen(argv, stdin=follower, stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True, env=env, cwd=ROOT)
        os.write(leader, answer.encode())
        out, err = child.communicate(timeout=timeout)
    finally:
        os.close(follower)
        os.close(leader)
    return subprocess.CompletedProcess(argv, child.returncode, out, err)


async def approve_when_asked(runs: Path, run_id: str, **kw: Any
                             ) -> subprocess.CompletedProcess[str]:
    """Wait until the server asks for ``run_id``, then approve it at a terminal."""
    request = runs / run_id / "approval_request.json"
    for _ in range(400):
        if request.exists():
            break
        await asyncio.sleep(0.05)
    return await asyncio.to_thread(approve_at_terminal, runs, run_id, **kw)


def child_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("SAM_AGENT_")}
    env["SAM_AGENT_SETTINGS_FILE"] = os.environ["SAM_AGENT_SETTINGS_FILE"]
    env["PYTHONPATH"] = str(ROOT)
    env.update(extra)
    return env


def events(runs: Path, run_id: str) -> list[dict[str, Any]]:
    path = runs / run_id / "events.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


def journal(runs: Path) -> list[dict[str, Any]]:
    path = runs / "submissions.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


# -- the two transports -----------------------------------------------------------------------


def memory_connect(gate: Any) -> Connect:
    from sam_plugin.mcp_server.server import build_server

    server = build_server(gate, transport="memory")

    @contextlib.asynccontextmanager
    async def connect(**options: Any) -> AsyncIterator[Client]:
        async with Client(server, **options) as client:
            yield client

    return connect


def stdio_connect(workspace: Path, runs: Path, save: Path | None = None) -> Connect:
    args = ["-m", "sam_plugin.cli", "mcp", "--workspace", str(workspace), "--runs-dir",
            str(runs)]
    if save is not None:
        args += ["--save", str(save)]

    @contextlib.asynccontextmanager
    async def connect(**options: Any) -> AsyncIterator[Client]:
        parameters = StdioServerParameters(command=sys.executable, args=args, env=child_env(),
                                           cwd=str(ROOT))
        async with Client(parameters, **options) as client:
            yield client

    return connect
