"""Tool-call collection rounds: what a round offers, what it says, and whether its calls count.

A round offers only the tools still missing (I4), in canonical order, and accepts a prefix of
them (I5): at least one call, no more than remain, no tool twice. Anything else is a
violation that returns the run to Review; nothing has touched SAM at that point (I6).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel

from sam_plugin.compilers.protocol import quote
from sam_plugin.errors import CollectionViolation


class CollectedCall(BaseModel):
    """A call received and checked, not yet compiled and never executed on its own."""

    round: int
    call_id: str
    tool: str
    arguments: str


def max_rounds(expected: Sequence[str]) -> int:
    """Bounded collection: one round per expected tool, plus one."""
    return len(expected) + 1


def check_round(calls: Sequence[Any], remaining: Sequence[str]) -> list[str]:
    """The tool names of an acceptable round, in order; raises :class:`CollectionViolation`.

    ``calls`` are provider ``ToolCall``s (anything with ``.name``); ``remaining`` is the
    expected tools not yet collected, in canonical order.
    """
    names = [call.name for call in calls]
    offered = ", ".join(remaining)
    if not names:
        raise CollectionViolation(f"the response carried no tool call; expected one of: {offered}")
    for name in names:
        if name not in remaining:
            raise CollectionViolation(
                f"tool {quote(name)} was not offered in this round; offered: {offered}"
            )
    duplicates = sorted({name for name in names if names.count(name) > 1})
    if duplicates:
        raise CollectionViolation(
            f"tool {quote(duplicates[0])} was called more than once; each tool is called "
            "exactly once"
        )
    # No "more calls than remain" check: every name is offered and none repeats, so a round
    # can never hold more calls than remain.
    expected_prefix = list(remaining[: len(names)])
    if names != expected_prefix:
        raise CollectionViolation(
            f"calls out of order: received {', '.join(names)}; the canonical order is {offered}"
        )
    return names


def round_messages(
    *,
    system_prompt: str,
    request: str,
    spec: str,
    collected: Sequence[CollectedCall],
    remaining: Sequence[str],
) -> list[dict[str, Any]]:
    """The messages of one collection round (the tools go in the request's ``tools``)."""
    lines = [
        "Original request:",
        request,
        "",
        "Confirmed spec (the analyst approved exactly this):",
        spec,
        "",
    ]
    if collected:
        lines.append("Calls already received (collected, not executed):")
        for call in collected:
            lines.append(f"- {call.tool}({_compact(call.arguments)})")
        lines.append("")
    lines.append(
        "Call these tools now, in this order, each exactly once: " + ", ".join(remaining) + "."
    )
    return [
        {"role": "system", "content": system_prompt},
        {"role": "user", "content": "\n".join(lines)},
    ]


def _compact(arguments: str) -> str:
    try:
        return json.dumps(json.loads(arguments), separators=(",", ":"), ensure_ascii=False)
    except ValueError:
        return arguments
