"""The MCP server (the official SDK's low-level ``Server``): the tools declared in
``tools.py`` (their schemas and descriptions for agents, and their dispatch), and the
client's elicitation form as an approval channel (``elicitation.py``, docs/mcp.md).

Results are JSON in ``structuredContent`` (with the same JSON as text, for clients that read
only text); a refusal is a tool result with ``isError`` that names the field and the legal
values, so that an agent can repair its call. The elicitation form is asked the way the
connection allows: pushed mid-call on a handshake-era connection (``elicitation/create``),
returned as an ``InputRequiredResult`` on a 2026-07-28 one (the client calls again with the
answer). Either way the answer is a person's, recorded in the decision file like every other
channel's; no argument of any tool approves anything.
"""

from __future__ import annotations

import logging
from typing import Any

import mcp_types as types
from mcp.server import Server, ServerRequestContext

import sam_plugin
from sam_plugin.errors import ToolRefused
from sam_plugin.mcp_server import tools
from sam_plugin.mcp_server.elicitation import client_name
from sam_plugin.mcp_server.gate import Gate
from sam_plugin.mcp_server.results import refusal_result

log = logging.getLogger(__name__)

SERVER_NAME = "sam-agent"
INSTRUCTIONS = (
    "SAM Agent: propose changes to a SAM part; a person approves every change. Start with "
    "list_targets and observe, read capabilities(mode) for the tools and the spec schema, "
    "then plan_change; show the person the plan text, then execute_plan. Nothing you send "
    "runs as code, and no tool approves a plan: a person does.")


def build_server(gate: Gate, *, transport: str = "stdio") -> Server[Any]:
    """A low-level ``Server`` answering the declared tools (``tools.TOOLS``) through
    ``gate``."""

    async def list_tools(ctx: ServerRequestContext[Any],
                         params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
        return types.ListToolsResult(tools=tools.listed())

    async def call_tool(ctx: ServerRequestContext[Any], params: types.CallToolRequestParams
                        ) -> types.CallToolResult | types.InputRequiredResult:
        try:
            return await dispatch(gate, ctx, params)
        except ToolRefused as refused:
            return refusal_result(refused)

    return Server(SERVER_NAME, version=sam_plugin.__version__,
                  instructions=INSTRUCTIONS, on_list_tools=list_tools, on_call_tool=call_tool)


async def dispatch(gate: Gate, ctx: ServerRequestContext[Any],
                   params: types.CallToolRequestParams
                   ) -> types.CallToolResult | types.InputRequiredResult:
    """``params`` answered by the tool it names; :class:`ToolRefused` for an unknown name or
    arguments its model refuses."""
    spec = tools.find(params.name)
    return await spec.answer(tools.Call(gate, ctx, params, client_name(ctx)))
