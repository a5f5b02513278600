"""A tool's answer on the wire: its JSON in ``structuredContent``, with the same JSON as text
for clients that read only text; a refusal is such a result with ``isError``."""

from __future__ import annotations

import json
from typing import Any

import mcp_types as types

from sam_plugin.errors import ToolRefused


def ok(data: dict[str, Any]) -> types.CallToolResult:
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
