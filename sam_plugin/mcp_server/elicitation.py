"""The client's elicitation form as an approval channel, asked the way the connection allows:
pushed mid-call on a handshake-era connection (``elicitation/create``), returned as an
``InputRequiredResult`` on a 2026-07-28 one (the client calls again with the answer). Either
way the answer is a person's, recorded in the decision file like every other channel's."""

from __future__ import annotations

from typing import Any

import mcp_types as types
from mcp.server import ServerRequestContext

from sam_plugin.mcp_server import approval
from sam_plugin.mcp_server.approval import Channel
from sam_plugin.mcp_server.arguments import ExecutePlanArgs
from sam_plugin.mcp_server.gate import Gate
from sam_plugin.mcp_server.results import ok
from sam_plugin.mcp_server.waiting import Approver, Question

APPROVAL_KEY = "approval"  # the key of the elicitation in an InputRequiredResult
APPROVAL_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"execute": {
        "type": "boolean", "title": "Execute",
        "description": "Yes runs it once in SAM and verifies it; no cancels it"}},
    "required": ["execute"],
}


async def execute(gate: Gate, ctx: ServerRequestContext[Any],
                  params: types.CallToolRequestParams, args: ExecutePlanArgs, client: str
                  ) -> types.CallToolResult | types.InputRequiredResult:
    approvers, allowed = channels(gate, ctx, push_only=False)
    answered = (params.input_responses or {}).get(APPROVAL_KEY)
    if params.request_state is not None and isinstance(answered, types.ElicitResult):
        found = gate.answer(args.run_id, params.request_state)
        if found is not None:  # still open: the person's answer on the form is recorded
            request, run_dir = found
            verdict, by = _verdict(answered, client)
            approval.decide(run_dir, request, verdict, "elicitation", by)
        return ok(await gate.settled(args, params.request_state))
    if "elicitation" not in allowed or ctx.session.can_send_request or \
            args.wait_seconds == 0 or gate.has_decision(args.run_id):
        return ok(await gate.execute_plan(args, client, approvers, allowed))
    # a 2026-07-28 connection: the form is returned, the client calls again with the answer
    request = await gate.open_request(args, allowed)
    question = types.ElicitRequest(params=types.ElicitRequestFormParams(
        message=_form_message(request.summary, request.text),
        requested_schema=APPROVAL_SCHEMA))
    return types.InputRequiredResult(input_requests={APPROVAL_KEY: question},
                                     request_state=request.request_id)


def channels(gate: Gate, ctx: ServerRequestContext[Any], *, push_only: bool
             ) -> tuple[list[Approver], tuple[Channel, ...]]:
    """This call's channels among those the server allows (``--approval``): the client's
    form when it can show one, this process's other channels (the dock), and ``sam-agent
    approve``."""
    allowed = gate.channels
    approvers: list[Approver] = [a for a in gate.approvers if a.channel in allowed]
    found: list[Channel] = []
    if "elicitation" in allowed and _can_elicit(ctx) and \
            (ctx.session.can_send_request or not push_only):
        found.append("elicitation")
        if ctx.session.can_send_request:
            approvers.insert(0, ElicitationApprover(ctx, client_name(ctx)))
    found += [a.channel for a in approvers if a.channel not in found]
    if "command" in allowed:
        found.append("command")
    return approvers, tuple(found)


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
