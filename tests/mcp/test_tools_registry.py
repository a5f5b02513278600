"""One record per MCP tool (``tools.TOOLS``): what tools/list shows, the input schemas and the
dispatch are all read from the declarations, and a name not declared is refused in words that
name the tools (docs/architecture.md "Adding an MCP tool")."""

from __future__ import annotations

import asyncio
import dataclasses

from mcp_support import call
from pydantic import BaseModel

from sam_plugin.mcp_server import tools
from sam_plugin.mcp_server.results import ok

RUN_ID = "20260101T000000Z-abcdef"
VALID = {  # the least each tool takes
    "list_targets": {},
    "observe": {"model": "Model-1", "part": "Plate"},
    "capabilities": {"mode": "part"},
    "plan_change": {"mode": "part", "model": "Model-1", "part": "Plate",
                    "request": "move it", "spec": {}},
    "execute_plan": {"run_id": RUN_ID, "plan_sha256": "0" * 64},
    "undo_run": {"run_id": RUN_ID},
    "run_status": {"run_id": RUN_ID},
    "list_runs": {},
}


def _untitled(schema):
    if isinstance(schema, dict):
        return {k: _untitled(v) for k, v in schema.items()
                if not (k == "title" and isinstance(v, str))}
    if isinstance(schema, list):
        return [_untitled(v) for v in schema]
    return schema


def _recording(spec):
    """``spec`` with a handler that answers which tool and which argument model it got."""

    async def handler(call_, args):
        return ok({"tool": spec.name, "model": type(args).__name__,
                   "args": args.model_dump(mode="json")})

    return dataclasses.replace(spec, handler=handler)


def _declare(monkeypatch, declared):
    monkeypatch.setattr(tools, "TOOLS", declared)
    monkeypatch.setattr(tools, "BY_NAME", {spec.name: spec for spec in declared})


def test_every_declared_tool_is_listed_with_its_models_schema(in_memory):
    async def scenario():
        async with in_memory.connect() as client:
            return (await client.list_tools()).tools

    listed = asyncio.run(scenario())
    assert [tool.name for tool in listed] == [spec.name for spec in tools.TOOLS]
    assert len(tools.BY_NAME) == len(tools.TOOLS) == len(VALID)
    for tool, spec in zip(listed, tools.TOOLS, strict=True):
        assert tool.input_schema == _untitled(spec.arguments.model_json_schema()), spec.name
        assert tool.description == spec.description
        hints = tool.annotations
        assert hints is not None
        assert (hints.read_only_hint, hints.destructive_hint, hints.idempotent_hint,
                hints.open_world_hint) == (spec.read_only, spec.destructive, spec.read_only,
                                           False), spec.name
    readonly = {spec.name for spec in tools.TOOLS if spec.read_only}
    assert readonly == {"list_targets", "observe", "capabilities", "run_status", "list_runs"}
    assert {spec.name for spec in tools.TOOLS if spec.destructive} == {"execute_plan",
                                                                      "undo_run"}


def test_every_declared_tool_is_dispatched_to_its_own_handler(in_memory, monkeypatch):
    _declare(monkeypatch, tuple(_recording(spec) for spec in tools.TOOLS))

    async def scenario():
        async with in_memory.connect() as client:
            return {name: await call(client, name, VALID[name]) for name in VALID}

    answers = asyncio.run(scenario())
    for spec in tools.TOOLS:
        failed, data = answers[spec.name]
        assert not failed, data
        assert data["tool"] == spec.name and data["model"] == spec.arguments.__name__
        assert spec.arguments.model_validate(data["args"])


def test_a_tool_added_to_the_declarations_is_listed_and_dispatched(in_memory, monkeypatch):
    class EchoArgs(BaseModel):
        model_config = {"extra": "forbid"}
        word: str

    async def echo(call_, args):
        return ok({"echo": args.word})

    added = tools.ToolSpec("echo", EchoArgs, "Say the word back. Read-only.", echo,
                           read_only=True, destructive=False)
    _declare(monkeypatch, (*tools.TOOLS, added))

    async def scenario():
        async with in_memory.connect() as client:
            listed = (await client.list_tools()).tools
            return listed, await call(client, "echo", {"word": "hi"}), \
                await call(client, "echo", {"word": "hi", "extra": 1})

    listed, answered, refused = asyncio.run(scenario())
    assert listed[-1].name == "echo" and listed[-1].input_schema["required"] == ["word"]
    assert answered == (False, {"echo": "hi"})
    assert refused[0] and refused[1]["error"]["message"] == \
        "extra: not an argument of echo; its arguments: word"


def test_an_unknown_tool_is_refused_naming_the_tools(in_memory):
    async def scenario():
        async with in_memory.connect() as client:
            return await call(client, "approve", {"run_id": RUN_ID}), \
                await call(client, "list_target", {})

    (failed, data), (near_failed, near) = asyncio.run(scenario())
    assert failed and near_failed
    assert data["status"] == "refused"
    assert data["error"]["message"] == (
        "unknown tool 'approve'; tools: list_targets, observe, capabilities, plan_change, "
        "execute_plan, undo_run, run_status, list_runs")
    assert near["error"]["message"].startswith("unknown tool 'list_target'; tools: ")
    assert "models" not in near  # never answered as list_targets


def test_a_tool_cannot_be_read_only_and_destructive():
    spec = tools.TOOLS[0]
    try:
        dataclasses.replace(spec, read_only=True, destructive=True)
    except ValueError as error:
        assert "read-only or destructive" in str(error)
    else:
        raise AssertionError("accepted a read-only destructive tool")


def test_execute_plan_waits_less_than_a_clients_60_s_by_default() -> None:
    """A call that outlives the client's timeout is cancelled by the SDK: the default wait
    stays below it, and docs/mcp.md gives the wait_seconds 0 and poll recipe."""
    from pathlib import Path

    from sam_plugin.mcp_server.arguments import ExecutePlanArgs, UndoRunArgs

    assert ExecutePlanArgs.model_fields["wait_seconds"].default == 50
    assert UndoRunArgs.model_fields["wait_seconds"].default == 50
    doc = (Path(__file__).resolve().parents[2] / "docs" / "mcp.md").read_text(encoding="utf-8")
    assert "`run_id, plan_sha256, wait_seconds?` (default 50, 0 to 3600)" in doc
    assert "`execute_plan {run_id, plan_sha256, wait_seconds: 0}` → `waiting_for_approval`" in doc
    assert "poll `run_status {run_id}`" in doc
    assert "--cli http://127.0.0.1:8765/mcp --transport http" in doc
    assert "`structured_content`" in doc
    assert "is an agent approving its own plan" in doc
