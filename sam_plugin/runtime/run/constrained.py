"""A collection round held to its tool's schema: its shape per profile, how its answer is
read, and when the constraint is given up (docs/architecture.md §6 "Requests").

A constrained request the server refuses (an HTTP error naming the request) or breaks (a
200 answer that is not the constrained JSON: a grammar that failed to build is generated
unconstrained, llama.cpp #19051) is read as the unconstrained answer it is (structured calls,
or calls written as text where the profile recovers them); when that holds no call, or the
server refused, the round is asked again once, unconstrained, and read the same way. The
``constraint_dropped`` event records it, and that tool's later rounds stay unconstrained.
An answer cut at its ``max_tokens`` is said so in one line and gets a repair round with twice
the bound (runtime/run/budgets.py).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from typing import Any

from sam_plugin.compilers.signature import signature
from sam_plugin.errors import CollectionViolation, ProviderError, StrictJSONError
from sam_plugin.runtime.config.settings import ProviderSettings
from sam_plugin.runtime.provider.constraint import (
    RoundShape,
    content_arguments,
    round_shape,
    unconstrained,
)
from sam_plugin.runtime.run import budgets
from sam_plugin.runtime.run.collection import (
    RoundAnswer,
    RoundCall,
    check_round,
    read_round,
    round_phrase,
)
from sam_plugin.runtime.run.repair import Rejection, rejection
from sam_plugin.runtime.run.run_phrases import in_round, said
from sam_plugin.runtime.run.text_tool_calls import find_text_calls, stray_call_text

# provider errors that mean "this request shape", never "the server is away"
REFUSED_KINDS = frozenset({"bad_request", "server"})
CONTENT_CALL_ID = "content_call_0"


def shape_for(settings: ProviderSettings, definitions: Sequence[dict[str, Any]], *,
              entities: int, dropped: Collection[str], max_tokens: int | None = None
              ) -> RoundShape:
    """The round's request: constrained as the profile says unless that tool's constraint was
    dropped earlier in the run; ``max_tokens`` as the budget says (or as given, after a
    cut)."""
    tokens = max_tokens or budgets.call_tokens(
        settings, _parameters(definitions), entities)
    constraint = settings.capabilities.constraint
    names = [str(d.get("function", {}).get("name", "")) for d in definitions]
    if len(names) == 1 and names[0] in dropped:
        constraint = "none"
    return round_shape(definitions, constraint, max_tokens=tokens)


def refused(error: ProviderError, shape: RoundShape) -> bool:
    """Whether a constrained request's error is the server refusing its shape."""
    return shape.constrained and error.kind in REFUSED_KINDS


def read_answer(response: Any, shape: RoundShape, offered: Sequence[str], known: Collection[str],
                *, text_calls: bool, round_number: int,
                guard: Callable[[Sequence[RoundCall]], None]) -> RoundAnswer | None:
    """The round's answer read as its shape asked; None when a constrained answer is broken
    (the caller asks again, unconstrained)."""
    if response.finish_reason == "length":
        return RoundAnswer([], cut_rejection(shape, offered, round_number))
    if not shape.reads_content or response.tool_calls:
        return read_round(response, offered, known, text_calls=text_calls,
                          round_number=round_number, guard=guard)
    try:
        arguments = content_arguments(response.content or "", shape)
    except StrictJSONError as error:
        reason = f"the arguments of {shape.tool} are not strict JSON: {error}"
        return RoundAnswer([], rejection("tool_call", shape.tool,
                                         f"round {round_number}: {reason}", headline=reason,
                                         phrase=in_round(round_number, said(reason))))
    if arguments is None:
        return None
    calls = [RoundCall(0, CONTENT_CALL_ID, shape.tool, arguments, "content")]
    try:
        check_round(calls, offered)
        guard(calls)
    except CollectionViolation as violation:
        return RoundAnswer(calls, rejection("tool_call", shape.tool,
                                            f"round {round_number}: {violation}",
                                            headline=str(violation),
                                            phrase=round_phrase(round_number, violation)))
    return RoundAnswer(calls, None)


def read_broken(response: Any, offered: Sequence[str], known: Collection[str], *,
                text_calls: bool, round_number: int,
                guard: Callable[[Sequence[RoundCall]], None]) -> RoundAnswer | None:
    """A broken constrained answer is an unconstrained one: read as such (structured calls,
    or text recovery where the profile allows it, with its refusals); None when it holds
    nothing call-shaped at all (the round is then asked again, unconstrained)."""
    content = response.content or ""
    if not (response.tool_calls or find_text_calls(content) or stray_call_text(content)):
        return None
    return read_round(response, offered, known, text_calls=text_calls,
                      round_number=round_number, guard=guard)


def cut_rejection(shape: RoundShape, offered: Sequence[str], round_number: int) -> Rejection:
    limit = shape.options.max_tokens
    bound = f"its limit of {limit} tokens (max_tokens)" if limit else "the server's limit"
    reason = (f"the answer was cut off at {bound} before the call was complete; send the "
              f"{offered[0]} call again, complete and no longer than it needs to be")
    return rejection("tool_call", offered[0], f"round {round_number}: {reason}",
                     headline=f"the answer was cut off at {bound}", cut_tokens=limit or 0,
                     phrase=in_round(round_number, said(reason)))


def with_call_note(messages: list[dict[str, Any]], shape: RoundShape,
                   definitions: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """A round that reads its call from the content sends no tools: its last message says
    what to answer, what the tool does and the signature of its arguments."""
    if not shape.reads_content or not definitions or not messages:
        return messages
    function = definitions[0].get("function", {})
    if shape.constraint == "wrapped":
        answer = (f'Answer with one JSON object and nothing else: {{"name": "{shape.tool}", '
                  '"arguments": {...}}.')
    else:
        answer = f"Answer with the arguments of {shape.tool} as one JSON object and nothing else."
    note = (f"\n\n{answer}\n{shape.tool}: {function.get('description', '')}\n"
            "Arguments (? marks an optional field):\n"
            f"{signature(function.get('parameters') or {})}")
    last = dict(messages[-1])
    last["content"] = f"{last.get('content', '')}{note}"
    return [*messages[:-1], last]


def retry_shape(shape: RoundShape, definitions: Sequence[dict[str, Any]]) -> RoundShape:
    return unconstrained(shape, definitions)


def _parameters(definitions: Sequence[dict[str, Any]]) -> dict[str, Any] | None:
    if len(definitions) != 1:
        merged: dict[str, Any] = {"properties": {}}
        for i, definition in enumerate(definitions):
            merged["properties"][str(i)] = definition.get("function", {}).get("parameters", {})
        return merged
    params = definitions[0].get("function", {}).get("parameters")
    return params if isinstance(params, dict) else None
