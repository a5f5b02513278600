"""The MCP server (the official SDK's low-level ``Server``): the tools, their schemas and
descriptions for agents, and the client's elicitation form as an approval channel
(docs/mcp.md).

Results are JSON in ``structuredContent`` (with the same JSON as text, for clients that read
only text); a refusal is a tool result with ``isError`` that names the field and the legal
values, so that an agent can repair its call. The elicitation form is asked the way the
connection allows: pushed mid-call on a handshake-era connection (``elicitation/create``),
returned as an ``InputRequiredResult`` on a 2026-07-28 one (the client calls again with the
answer). Either way the answer is a person's, recorded in the decision file like every other
channel's; no argument of any tool approves anything.
"""

from __future__ import annotations

import json
import logging
from typing import Any

import mcp_types as types
from mcp.server import Server, ServerRequestContext

import sam_plugin
from sam_plugin.errors import ToolRefused
from sam_plugin.mcp_server import approval, reads
from sam_plugin.mcp_server.approval import Channel
from sam_plugin.mcp_server.arguments import (
    ARGUMENTS,
    CapabilitiesArgs,
    ExecutePlanArgs,
    ListRunsArgs,
    ObserveArgs,
    PlanChangeArgs,
    RunStatusArgs,
    UndoRunArgs,
    input_schema,
    parse,
)
from sam_plugin.mcp_server.gate import Gate
from sam_plugin.mcp_server.waiting import Approver, Question

log = logging.getLogger(__name__)

SERVER_NAME = "sam-agent"
APPROVAL_KEY = "approval"  # the key of the elicitation in an InputRequiredResult
APPROVAL_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"execute": {
        "type": "boolean", "title": "Execute",
        "description": "Yes runs it once in SAM and verifies it; no cancels it"}},
    "required": ["execute"],
}

DESCRIPTIONS = {
    "list_targets": "List the models and parts of the open SAM workspace, with their node "
                    "and element counts. Read-only.",
    "observe": "Observe one part: the workspace index, the part in numbers (counts, bounding "
               "box, sets, sections), its regions (components, shapes, sets with label ranges "
               "and boxes) and, with query, up to 200 nodes or elements. Read-only, bounded.",
    "capabilities": "A mode's typed tools in the order plan_change takes them, each with its "
                    "JSON Schema and an example, and the JSON Schema of the spec. Read-only.",
    "plan_change": "Propose a change: the person's request, the spec (JSON: the steps they "
                   "confirm) and the tool calls that carry it out, each operation one "
                   "step with the step's values. Runs the same checks, compilers, binding "
                   "to the spec and plan as the SAM dock and changes nothing. Returns the "
                   "plan (each call against its step, operations, touched entities, before "
                   "-> after, destructive marks, warnings), the spec in words, its "
                   "plan_sha256 and run_id, or diagnostics naming each field or step and "
                   "its legal values to fix and plan again.",
    "execute_plan": "Ask the person to approve a plan, then execute it once in SAM and "
                    "verify the part against the plan. Only a person approves: on this "
                    "client's form, in the SAM dock, or with `sam-agent approve RUN_ID` in a "
                    "terminal; no tool approves. A decision the person recorded already is "
                    "acted on at once (the plan is kept in the runs directory: a server "
                    "started later on the same workspace executes it if the part is "
                    "unchanged). Waits up to wait_seconds; unanswered or declined, the plan is "
                    "cancelled and nothing runs; wait_seconds 0 answers waiting_for_approval "
                    "at once (poll run_status, then call again). Returns verified, failed (and "
                    "whether the part was restored), cancelled or waiting_for_approval.",
    "undo_run": "Ask the person to approve undoing a verified run, then put the part back "
                "exactly as it was before it. Refused when the part changed since.",
    "run_status": "The status of one run: waiting for approval, approved or declined (not "
                  "acted on yet: call execute_plan), or its result.",
    "list_runs": "The newest runs, with their status and request.",
}
READ_ONLY = {"list_targets", "observe", "capabilities", "run_status", "list_runs"}


def tools() -> list[types.Tool]:
    listed = []
    for name in ARGUMENTS:
        annotations = types.ToolAnnotations(
            read_only_hint=name in READ_ONLY,
            destructive_hint=name in ("execute_plan", "undo_run"),
            idempotent_hint=name in READ_ONLY, open_world_hint=False)
        listed.append(types.Tool(name=name, description=DESCRIPTIONS[name],
                                 input_schema=input_schema(name), annotations=annotations))
    return listed


def build_server(gate: Gate, *, transport: str = "stdio") -> Server[Any]:
    """A low-level ``Server`` answering the eight tools through ``gate``."""

    async def list_tools(ctx: ServerRequestContext[Any],
                         params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
        return types.ListToolsResult(tools=tools())

    async def call_tool(ctx: ServerRequestContext[Any], params: types.CallToolRequestParams
                        ) -> types.CallToolResult | types.InputRequiredResult:
        try:
            return await _dispatch(gate, ctx, params)
        except ToolRefused as refused:
            return refusal_result(refused)

    return Server(SERVER_NAME, version=sam_plugin.__version__,
                  instructions=INSTRUCTIONS, on_list_tools=list_tools, on_call_tool=call_tool)


INSTRUCTIONS = (
    "SAM Agent: propose changes to a SAM part; a person approves every change. Start with "
    "list_targets and observe, read capabilities(mode) for the tools and the spec schema, "
    "then plan_change; show the person the plan text, then execute_plan. Nothing you send "
    "runs as code, and no tool approves a plan: a person does.")


async def _dispatch(gate: Gate, ctx: ServerRequestContext[Any],
                    params: types.CallToolRequestParams
                    ) -> types.CallToolResult | types.InputRequiredResult:
    name = params.name
    args = parse(name, params.arguments, max_bytes=gate.settings.max_argument_bytes)
    client = client_name(ctx)
    if isinstance(args, ObserveArgs):
        return _ok(await reads.observe_part(gate, args))
    if isinstance(args, CapabilitiesArgs):
        return _ok(reads.capabilities(args.mode))
    if isinstance(args, PlanChangeArgs):
        return _ok(await gate.plan_change(args, client))
    if isinstance(args, ExecutePlanArgs):
        return await _execute(gate, ctx, params, args, client)
    if isinstance(args, UndoRunArgs):
        approvers, channels = _channels(gate, ctx, push_only=True)
        return _ok(await gate.undo_run(args, client, approvers, channels))
    if isinstance(args, RunStatusArgs):
        return _ok(reads.run_status(gate, args))
    if isinstance(args, ListRunsArgs):
        return _ok(reads.runs(gate, args))
    return _ok(await reads.list_targets(gate))


async def _execute(gate: Gate, ctx: ServerRequestContext[Any],
                   params: types.CallToolRequestParams, args: ExecutePlanArgs, client: str
                   ) -> types.CallToolResult | types.InputRequiredResult:
    approvers, channels = _channels(gate, ctx, push_only=False)
    answered = (params.input_responses or {}).get(APPROVAL_KEY)
    if params.request_state is not None and isinstance(answered, types.ElicitResult):
        found = gate.answer(args.run_id, params.request_state)
        if found is not None:  # still open: the person's answer on the form is recorded
            request, run_dir = found
            verdict, by = _verdict(answered, client)
            approval.decide(run_dir, request, verdict, "elicitation", by)
        return _ok(await gate.settled(args, params.request_state))
    if "elicitation" not in channels or ctx.session.can_send_request or \
            args.wait_seconds == 0 or gate.has_decision(args.run_id):
        return _ok(await gate.execute_plan(args, client, approvers, channels))
    # a 2026-07-28 connection: the form is returned, the client calls again with the answer
    request = await gate.open_request(args, channels)
    question = types.ElicitRequest(params=types.ElicitRequestFormParams(
        message=_form_message(request.summary, request.text),
        requested_schema=APPROVAL_SCHEMA))
    return types.InputRequiredResult(input_requests={APPROVAL_KEY: question},
                                     request_state=request.request_id)


def _channels(gate: Gate, ctx: ServerRequestContext[Any], *, push_only: bool
              ) -> tuple[list[Approver], tuple[Channel, ...]]:
    """This call's channels among those the server allows (``--approval``): the client's
    form when it can show one, this process's other channels (the dock), and ``sam-agent
    approve``."""
    allowed = gate.channels
    approvers: list[Approver] = [a for a in gate.approvers if a.channel in allowed]
    channels: list[Channel] = []
    if "elicitation" in allowed and _can_elicit(ctx) and \
            (ctx.session.can_send_request or not push_only):
        channels.append("elicitation")
        if ctx.session.can_send_request:
            approvers.insert(0, ElicitationApprover(ctx, client_name(ctx)))
    channels += [a.channel for a in approvers if a.channel not in channels]
    if "command" in allowed:
        channels.append("command")
    return approvers, tuple(channels)


def _can_elicit(ctx: ServerRequestContext[Any]) -> bool:
    capabilities = ctx.session.client_capabilities
    return capabilities is not None and capabilities.elicitation is not None


class ElicitationApprover:
    """The client's form (``elicitation/create``), pushed during the call."""

    channel: Channel = "elicitation"

    def __init__(self, ctx: ServerRequestContext[Any], client: str) -> None:
        self._ctx = ctx
        self._client = client

    async def ask(self, question: Question) -> None:
        result = await self._ctx.session.elicit_form(
            _form_message(question.title, question.text), APPROVAL_SCHEMA,
            related_request_id=self._ctx.request_id)
        verdict, by = _verdict(result, self._client)
        question.answer(verdict, "elicitation", by)


def _verdict(result: types.ElicitResult, client: str) -> tuple[Any, str]:
    """``approved`` only for an accepted form that says execute; a decline, a dismissed form
    or anything else declines."""
    content = result.content or {}
    if result.action == "accept" and content.get("execute") is True:
        return "approved", f"a person, on {client}'s form"
    return "declined", f"a person, on {client}'s form ({result.action})"


def _form_message(title: str, text: str) -> str:
    return f"{title}\n\n{text}\n\nExecute this plan in SAM? Nothing runs unless you say yes."


def client_name(ctx: ServerRequestContext[Any]) -> str:
    params = ctx.session.client_params
    info = params.client_info if params is not None else None
    if info is None:
        return "an MCP client"
    name = "".join(ch for ch in f"{info.name} {info.version}".strip() if ch.isprintable())
    return name[:80] or "an MCP client"


def _ok(data: dict[str, Any]) -> types.CallToolResult:
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=json.dumps(data, ensure_ascii=False))],
        structured_content=data)


def refusal_result(refused: ToolRefused) -> types.CallToolResult:
    """A refusal as a tool result: ``isError``, the layer and the words, and its data."""
    data: dict[str, Any] = {"error": {"layer": refused.layer, "message": refused.message},
                            **refused.data}
    data.setdefault("status", "refused")
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=json.dumps(data, ensure_ascii=False))],
        structured_content=data, is_error=True)
