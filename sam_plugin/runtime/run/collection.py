"""Tool-call collection rounds: what a round offers, what it says, and whether its calls count.

A round offers only the tools still missing (I4), in canonical order, and accepts a prefix of
them (I5): at least one call, no more than remain, no tool twice. Anything else is a
violation: a repair round (runtime/run/repair.py) or, when the budget is spent, back to Review;
nothing has touched SAM at that point (I6). Where the server needs it, a round offers the
next tool only (``one_call_per_round``).

A response without a structured call may still hold calls written as text in its content
(runtime/run/text_tool_calls.py): taken when the profile allows it and the call is the whole
answer, named in the rejection when it does not, or when call-shaped text sits anywhere else.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel

from sam_plugin.compilers.protocol import Target, quote
from sam_plugin.compilers.spec.model_json import model_json
from sam_plugin.errors import CollectionViolation
from sam_plugin.runtime.run.repair import Rejection, SentCall, rejection, repair_lines
from sam_plugin.runtime.run.run_phrases import in_round, said, tool, tools
from sam_plugin.runtime.run.text_tool_calls import find_text_calls, stray_call_text
from sam_plugin.words.phrase import Phrase, phrase

# Where a call came from (``tool_calls.json``, docs/architecture.md §7): "model": the
# model's structured tool call; "text": recovered from the message content; "content": the
# content of a round held to the call's schema (runtime/run/constrained.py); "spec": computed
# from the confirmed steps; "mcp": handed to ``plan_calls`` by an MCP agent; "given": by
# another caller (a rerun's source calls)
CallSource = Literal["model", "text", "content", "spec", "mcp", "given"]
TEXT_SETTING = "text_tool_calls"
WHOLE_ANSWER = ("a call written as text is taken only when it is the whole answer: one fenced "
                "block, one <tool_call> block or one bare JSON object, holding one call")


class CollectedCall(BaseModel):
    """A call received and checked, not yet compiled and never executed on its own."""

    round: int
    call_id: str
    tool: str
    arguments: str
    source: CallSource = "model"
    repair: int = 0  # the repair round that delivered it (0: a first answer)


@dataclass(frozen=True)
class RoundCall:
    """One call of a round's answer, structured or recovered from text."""

    index: int
    id: str
    name: str
    arguments: str
    source: CallSource = "model"


def max_rounds(expected: Sequence[str], *, one_call_per_round: bool = False) -> int:
    """Bounded collection (repair rounds come on top): one round per expected tool, plus one
    for an answer that delivered only a prefix (none when each round asks for one tool)."""
    return len(expected) + (0 if one_call_per_round else 1)


def offered_tools(remaining: Sequence[str], *, one_call_per_round: bool) -> list[str]:
    """The tools a round offers: every remaining one, or the next one only."""
    return list(remaining[:1]) if one_call_per_round else list(remaining)


# llama.cpp's in-stream (or HTTP 500) error when its tool-call parser cannot read the answer:
# "The model produced output that does not match the expected ... format"; older builds:
# "Failed to parse tool call". The model's call was malformed: a repair, not a provider fault.
_CALL_FORMAT_ERRORS = ("does not match the expected", "failed to parse tool call",
                       "failed to parse input")


def is_call_format_error(message: str) -> bool:
    """Whether a provider error says the server could not parse the model's tool call."""
    lowered = message.lower()
    return any(words in lowered for words in _CALL_FORMAT_ERRORS)


def round_calls(
    response: Any, offered: Sequence[str], known: Collection[str], *, text_calls: bool
) -> list[RoundCall]:
    """The calls of one answer: its structured calls, else calls it wrote as text.

    Text candidates are kept when their name is one of the module's tools (``known``); a
    known tool that was not offered is then refused by :func:`check_round` like a structured
    one. Raises :class:`CollectionViolation` for text calls when ``text_calls`` is off, and
    for text that names only tools that do not exist.
    """
    if response.tool_calls:
        return [RoundCall(c.index, c.id, c.name, c.arguments) for c in response.tool_calls]
    candidates = find_text_calls(response.content or "")
    if not candidates:
        if text_calls and stray_call_text(response.content or ""):
            raise CollectionViolation(
                "the answer holds call-shaped text (inside prose, quoted, in thinking, nested "
                f"in another object, or more than one call), which is never taken; {WHOLE_ANSWER}"
            )
        return []
    taken = [c for c in candidates if c.name in known]
    names = ", ".join(dict.fromkeys(c.name for c in candidates))
    if not taken:
        raise CollectionViolation(
            f"the model wrote a call to {names} as text; no such tool was offered in this "
            f"round; offered: {', '.join(offered)}"
        )
    if not text_calls:
        raise CollectionViolation(
            f"the model wrote its call ({names}) as text in the message instead of a "
            f"structured tool call; turn on the provider setting {TEXT_SETTING} (tool calls "
            "written as text; on by default for the ollama, vllm and llamacpp profiles) to "
            "recover such calls, or use a model that sends tool calls"
        )
    return [
        RoundCall(i, f"text_call_{i}", c.name, c.arguments, "text") for i, c in enumerate(taken)
    ]


def check_round(calls: Sequence[Any], remaining: Sequence[str]) -> list[str]:
    """The tool names of an acceptable round, in order; raises :class:`CollectionViolation`.

    ``calls`` are provider ``ToolCall``s (anything with ``.name``); ``remaining`` is the
    expected tools not yet collected, in canonical order.
    """
    names = [call.name for call in calls]
    offered = ", ".join(remaining)
    if not names:
        raise CollectionViolation(f"the response carried no tool call; expected one of: {offered}",
                                  phrase("run.no_tool_call", expected=tools(remaining)))
    for name in names:
        if name not in remaining:
            raise CollectionViolation(
                f"tool {quote(name)} was not offered in this round; offered: {offered}",
                phrase("run.not_offered", quoted=quote(name), tool=tool(name),
                       offered=tools(remaining)),
            )
    duplicates = sorted({name for name in names if names.count(name) > 1})
    if duplicates:
        raise CollectionViolation(
            f"tool {quote(duplicates[0])} was called more than once; each tool is called "
            "exactly once",
            phrase("run.called_twice", quoted=quote(duplicates[0]), tool=tool(duplicates[0])),
        )
    # No "more calls than remain" check: every name is offered and none repeats, so a round
    # can never hold more calls than remain.
    expected_prefix = list(remaining[: len(names)])
    if names != expected_prefix:
        raise CollectionViolation(
            f"calls out of order: received {', '.join(names)}; the canonical order is {offered}",
            phrase("run.out_of_order", received=tools(names), offered=tools(remaining)),
        )
    return names


def design_messages(
    *,
    system_prompt: str,
    mode: str,
    target: Target,
    target_note: str,
    observation: Any,
    exploration: str,
    request: str,
    selection: str = "",
    quantities: str = "",
    places: str = "",
) -> list[dict[str, Any]]:
    """The messages of the design request (which carries no tools, I1): the module's design
    prompt, then the frozen target and what it holds, the bounded observation and the
    analyst's request; then ``selection``, the line saying what the analyst picked,
    ``quantities``, the request's quantities converted into the model's units, and
    ``places``, the places it names as the part's boxes and points, each only when there is
    one (without them the request is byte for byte what it always was)."""
    explored = f"Exploration (read-only): {exploration}\n" if exploration else ""
    user = (
        f"Mode: {mode}. Target: model {target.model_name!r}, part {target.part_name!r}.\n"
        f"{target_note}\n"
        f"Workspace observation (JSON): "
        f"{model_json(observation)}\n"
        f"{explored}\n"
        f"Request:\n{request}"
        + (f"\n{selection}" if selection else "")
        + (f"\n{quantities}" if quantities else "")
        + (f"\n{places}" if places else "")
    )
    return [
        {"role": "system", "content": system_prompt},
        {"role": "user", "content": user},
    ]


def round_messages(
    *,
    system_prompt: str,
    request: str,
    spec: str,
    collected: Sequence[CollectedCall],
    remaining: Sequence[str],
    repair: Rejection | None = None,
) -> list[dict[str, Any]]:
    """The messages of one collection round (the tools go in the request's ``tools``); a
    repair round also says what was rejected and why (``repair``)."""
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
    if repair is not None:
        lines += repair_lines(repair)
    if len(remaining) == 1:
        lines.append(f"Call this tool now, exactly once, as a tool call: {remaining[0]}.")
    else:
        lines.append(
            "Call these tools now, in this order, each exactly once: " + ", ".join(remaining)
            + "."
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


@dataclass(frozen=True)
class RoundAnswer:
    """What one round's answer held: its calls, and why it is refused (None: accepted)."""

    calls: list[RoundCall]
    refused: Rejection | None


def read_round(
    response: Any,
    offered: Sequence[str],
    known: Collection[str],
    *,
    text_calls: bool,
    round_number: int,
    guard: Callable[[Sequence[RoundCall]], None] = lambda calls: None,
) -> RoundAnswer:
    """The calls of one answer, checked: structured or text (:func:`round_calls`), not cut
    off, offered, in order, none twice (:func:`check_round`), then ``guard`` (call_guard:
    size, secrets, strict JSON). A call the guard refuses is never echoed back to the model:
    it may be huge, or hold the API key."""
    calls: list[RoundCall] = []
    try:
        calls = round_calls(response, offered, known, text_calls=text_calls)
        if response.finish_reason == "length":
            raise CollectionViolation("the response was cut off (finish_reason=length)")
        check_round(calls, offered)
    except CollectionViolation as violation:
        sent = [SentCall(c.name, c.arguments, c.source) for c in calls]
        return RoundAnswer(calls, rejection(
            "tool_call", offered[0], f"round {round_number}: {violation}",
            headline=str(violation), sent=sent, content="" if sent else response.content,
            phrase=round_phrase(round_number, violation),
        ))
    try:
        guard(calls)
    except CollectionViolation as violation:
        return RoundAnswer(calls, rejection(
            "tool_call", offered[0], f"round {round_number}: {violation}",
            headline=str(violation), phrase=round_phrase(round_number, violation),
        ))
    return RoundAnswer(calls, None)


def call_format_rejection(message: str, offered: Sequence[str], round_number: int) -> Rejection:
    """The repair a server's "cannot parse the tool call" error calls for."""
    reason = (
        f"the server could not read the answer as a tool call ({message}); send exactly one "
        f"tool call, {offered[0]}, and nothing else"
    )
    return rejection("tool_call", offered[0], f"round {round_number}: {reason}", headline=reason,
                     phrase=in_round(round_number, said(reason)))


def round_phrase(round_number: int, violation: CollectionViolation) -> Phrase:
    """A round's violation as data: its phrase, or its English when it has none."""
    reason = violation.phrase if violation.phrase is not None else said(str(violation))
    return in_round(round_number, reason)
