"""One JSON-RPC line from a stdio client, checked before the SDK parses it (docs/mcp.md
"Tools").

The SDK reads each line whole and parses it with pydantic, whose JSON parser stops at about
200 levels of nesting: a line it cannot parse is dropped without an answer, since its request
id was never read (a 2-5 KB spec nested 200 levels deep got no answer at all). A line of tens
of megabytes costs tens of seconds to parse before any budget is looked at (46 MB: 32 s here).
So a line over the size budget, or nested deeper than any tool's arguments may be, is answered
here at once with the tool's own refusal, and never handed on. So is a line holding a lone
surrogate (``\\ud800``, half of a UTF-16 pair), which that parser refuses as well.
"""

from __future__ import annotations

import json
import re
from typing import Any

import mcp_types as types

from sam_plugin.errors import ToolArgumentError
from sam_plugin.mcp_server.arguments import MAX_DEPTH

ENVELOPE = 64 * 1024  # what a message holds besides its arguments, at most
MAX_NESTING = MAX_DEPTH + 3  # the message, its params and the arguments around the values
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"')
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_PAIR = re.compile(r"\[\]|\{\}")
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")
_SURROGATE = re.compile("[\ud800-\udfff]")
_HEAD = 4096  # where a client puts the id and the method (they come first)
_ID = re.compile(r'"id"\s*:\s*(-?\d+|"[^"\\]*(?:\\.[^"\\]*)*")')
_METHOD = re.compile(r'"method"\s*:\s*"([^"\\]*)"')


def line_refusal(line: str, max_bytes: int) -> str | None:
    """Why ``line`` is answered without being read (None: the SDK reads it)."""
    if len(line) > max_bytes + ENVELOPE:
        return (f"arguments: the message is {len(line)} characters, over the budget of "
                f"{max_bytes} bytes (max_argument_bytes); nothing was read. Describe regular "
                "meshes with patches and lines instead of listing every node")
    if _nested_deeper(line, MAX_NESTING):
        return f"arguments: nested deeper than {MAX_DEPTH} levels; nothing was read"
    lone = _lone_surrogate(line)
    if lone is not None:
        return (f"arguments: a string holds a lone surrogate (\\u{ord(lone):04x}), which is no "
                "character; send the text as UTF-8 (or each character as one \\u escape, a "
                "pair for one outside the BMP); nothing was read")
    return None


def _lone_surrogate(line: str) -> str | None:
    """The first lone surrogate a string on ``line`` holds once parsed (the SDK's parser
    refuses one, and the line would go unanswered), or None."""
    if _SURROGATE_ESCAPE.search(line) is None:
        return None
    try:
        message = json.loads(line)
    except (ValueError, RecursionError):
        return None  # not JSON: the SDK says what is wrong
    found = _SURROGATE.search(json.dumps(message, ensure_ascii=False))
    return found.group() if found else None


def answer(line: str, refusal: str) -> types.JSONRPCMessage | None:
    """The answer to the request on ``line``: a tool call gets the tool's refusal (a result
    with ``isError``), any other request an invalid-request error; a notification or a
    response (no id, or no method) gets none."""
    request_id, method = _request_of(line)
    if request_id is None or method is None:
        return None
    if method == "tools/call":
        from sam_plugin.mcp_server.results import refusal_result

        result = refusal_result(ToolArgumentError(refusal))
        return types.JSONRPCResponse(jsonrpc="2.0", id=request_id, result=result.model_dump(
            by_alias=True, mode="json", exclude_none=True))
    return types.JSONRPCError(jsonrpc="2.0", id=request_id, error=types.ErrorData(
        code=types.INVALID_REQUEST, message=refusal))


def _nested_deeper(line: str, limit: int) -> bool:
    """Whether the JSON on ``line`` nests deeper than ``limit``: strings taken out, then the
    innermost bracket pairs, once per level (at most ``limit`` times, each at C speed)."""
    if line.count("[") + line.count("{") <= limit:
        return False
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", line))
    for _ in range(limit):
        if not brackets:
            return False
        shorter = _PAIR.sub("", brackets)
        if shorter == brackets:
            return False  # not JSON's brackets: the SDK says what is wrong
        brackets = shorter
    return bool(brackets)


def _request_of(line: str) -> tuple[str | int | None, str | None]:
    """The request id and method of ``line``: parsed when it can be, else read from its head."""
    message: Any = None
    if len(line) <= _HEAD * 256:
        try:
            message = json.loads(line)
        except (ValueError, RecursionError):
            message = None
    if isinstance(message, dict):
        found, method = message.get("id"), message.get("method")
        request_id = found if isinstance(found, str | int) and not isinstance(found, bool) \
            else None
        return request_id, method if isinstance(method, str) else None
    head = line[:_HEAD]
    id_match, method_match = _ID.search(head), _METHOD.search(head)
    if id_match is None or method_match is None:
        return None, None
    value = json.loads(id_match.group(1))
    return (value if isinstance(value, str | int) else None), method_match.group(1)
