"""A request holding a lone surrogate (``\\ud800``, a half of a UTF-16 pair that is no
character) is answered with the tool's refusal over stdio (docs/mcp.md "Tools"). On main the
SDK's parser refused the line and dropped it without an answer, so the client waited forever."""

from __future__ import annotations

import json
import select
import subprocess
import sys
import time
from typing import Any

from mcp_support import ROOT, child_env, plate_workspace

from sam_plugin.mcp_server import line_guard

BUDGET = 4 * 1024 * 1024
SURROGATE = ("arguments: a string holds a lone surrogate (\\ud800), which is no character; "
             "send the text as UTF-8 (or each character as one \\u escape, a pair for one "
             "outside the BMP); nothing was read")


def _call(text: str, request_id: int = 7) -> str:
    """A tools/call line whose request holds ``text`` as written (escapes and all)."""
    head = json.dumps({"jsonrpc": "2.0", "id": request_id, "method": "tools/call",
                       "params": {"name": "plan_change", "arguments": {"request": "@"}}})
    return head.replace("@", text) + "\n"


def test_the_line_check_refuses_a_lone_surrogate_and_passes_a_pair():
    assert line_guard.line_refusal(_call("lift \\ud800 it"), BUDGET) == SURROGATE
    assert line_guard.line_refusal(_call("lift \\udc00"), BUDGET) == SURROGATE.replace(
        "ud800", "udc00")
    assert line_guard.line_refusal(_call("a dolphin \\ud83d\\udc2c"), BUDGET) is None
    assert line_guard.line_refusal(_call("a backslash \\\\ud800"), BUDGET) is None
    answer = line_guard.answer(_call("\\ud800"), SURROGATE)
    assert answer is not None
    dumped = answer.model_dump(by_alias=True, mode="json", exclude_none=True)
    assert dumped["id"] == 7 and dumped["result"]["isError"] is True


def _read_answer(child: subprocess.Popen[str], request_id: int, seconds: float) -> Any:
    assert child.stdout is not None
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        ready, _, _ = select.select([child.stdout], [], [], max(0.0, end - time.monotonic()))
        if not ready:
            break
        line = child.stdout.readline()
        if not line:
            break
        message = json.loads(line)
        if message.get("id") == request_id:
            return message
    return None


def test_a_lone_surrogate_is_answered_over_stdio(tmp_path, monkeypatch):
    workspace = plate_workspace(tmp_path / "w.sam.json", 2)
    argv = [sys.executable, "-m", "sam_plugin.cli", "mcp", "--workspace", str(workspace),
            "--runs-dir", str(tmp_path / "runs")]
    child = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, text=True, env=child_env(),
                             cwd=ROOT)
    try:
        assert child.stdin is not None
        child.stdin.write(json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                                      "params": {"protocolVersion": "2025-06-18",
                                                 "capabilities": {},
                                                 "clientInfo": {"name": "t", "version": "1"}}})
                          + "\n")
        child.stdin.flush()
        assert _read_answer(child, 1, 60) is not None
        child.stdin.write(json.dumps({"jsonrpc": "2.0",
                                      "method": "notifications/initialized"}) + "\n")
        child.stdin.write(_call("lift \\ud800 it", request_id=2))
        child.stdin.flush()
        answer = _read_answer(child, 2, 30)
        assert answer is not None, "the request was never answered"
        assert answer["result"]["isError"] is True
        assert answer["result"]["structuredContent"] == {
            "error": {"layer": "arguments", "message": SURROGATE}, "status": "refused"}
    finally:
        child.kill()
        child.wait()
