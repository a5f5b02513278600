"""Arguments too deep or too large for any tool are answered with the tool's refusal, over
the real stdio transport (the SDK dropped a line it could not parse without an answer: a spec
nested 200 levels deep got none at all), and the line check itself (docs/mcp.md "Tools")."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import mcp_types as types
from mcp_support import call, plan, translate

from sam_plugin.mcp_server import line_guard
from sam_plugin.mcp_server.arguments import MAX_DEPTH

BUDGET = 4 * 1024 * 1024  # max_argument_bytes by default


def _nested(levels: int) -> dict[str, Any]:
    value: dict[str, Any] = {"summary": "x", "steps": []}
    for _ in range(levels):
        value = {"a": value}
    return value


def test_a_spec_200_levels_deep_and_a_huge_call_are_answered_over_stdio(stdio):
    async def scenario() -> None:
        async with stdio.connect() as client:
            deep = {**translate(5), "spec": _nested(200)}
            result = await client.call_tool("plan_change", deep, read_timeout_seconds=30)
            assert result.is_error and result.structured_content == {
                "error": {"layer": "arguments",
                          "message": f"arguments: nested deeper than {MAX_DEPTH} levels; "
                                     "nothing was read"},
                "status": "refused"}
            node = {"id": "N1", "coordinates": [0.5, 0.5, 0.0]}
            huge = {**translate(5), "calls": [{"name": "transform_part", "arguments": {
                "operations": [], "padding": [node] * 200_000}}]}
            result = await client.call_tool("plan_change", huge, read_timeout_seconds=60)
            assert result.is_error and result.structured_content is not None
            message = result.structured_content["error"]["message"]
            assert message.startswith("arguments: the message is ")
            assert f"over the budget of {BUDGET} bytes (max_argument_bytes)" in message
            # the session goes on: the next call is answered as usual
            assert (await plan(client, translate(5)))["status"] == "waiting_for_approval"
            failed, _ = await call(client, "list_targets", {})
            assert not failed

    asyncio.run(scenario())


def _line(arguments: Any, request_id: Any = 7, method: str = "tools/call") -> str:
    return json.dumps({"jsonrpc": "2.0", "id": request_id, "method": method,
                       "params": {"name": "plan_change", "arguments": arguments}}) + "\n"


def test_the_line_check_refuses_only_what_no_tool_takes():
    at_limit: Any = 0
    for _ in range(MAX_DEPTH):
        at_limit = [at_limit]
    assert line_guard.line_refusal(_line({"spec": at_limit}), BUDGET) is None
    assert line_guard.line_refusal(_line({"spec": [[at_limit]]}), BUDGET) == \
        f"arguments: nested deeper than {MAX_DEPTH} levels; nothing was read"
    # brackets inside strings are text, not nesting
    assert line_guard.line_refusal(_line({"request": "[" * 5000}), BUDGET) is None
    assert line_guard.line_refusal(_line({"request": "\\\"[" * 5000}), BUDGET) is None
    assert line_guard.line_refusal(_line({"pad": "x" * (BUDGET + 70_000)}), BUDGET) \
        .startswith("arguments: the message is ")


def test_a_refused_line_is_answered_for_its_own_request():
    # nested deeper than Python's own JSON reader goes: the id is read from the line's head
    line = '{"jsonrpc": "2.0", "id": "req-9", "method": "tools/call", "params": ' \
           '{"name": "plan_change", "arguments": {"spec": ' + "[" * 100_000 + "0" + \
           "]" * 100_000 + "}}}\n"
    refusal = line_guard.line_refusal(line, BUDGET)
    assert refusal is not None
    answer = line_guard.answer(line, refusal)
    assert isinstance(answer, types.JSONRPCResponse) and answer.id == "req-9"
    assert answer.result["isError"] is True
    assert answer.result["structuredContent"]["error"]["layer"] == "arguments"
    other = line_guard.answer(_line([[0]], request_id=3, method="initialize"), refusal)
    assert isinstance(other, types.JSONRPCError) and other.id == 3
    assert other.error.code == types.INVALID_REQUEST
    notification = json.dumps({"jsonrpc": "2.0", "method": "notifications/x",
                               "params": {"a": [[0]]}})
    assert line_guard.answer(notification, refusal) is None
