"""The exploration phase: a bounded, read-only conversation between Observing and Designing.

The model sees the request and the compact observation and may ask for detail with two
read-only tools, ``query_regions`` (L2, whole or zoomed into a box) and ``query_entities``
(L3: nodes/elements by labels, set, box or nearest to a point). Nothing else is in the
allowlist: any other tool name is refused (an error result goes back to the model) and never
executed. The loop is bounded by ``max_turns`` (4) and ``max_queries_per_turn`` (4); queries
run one at a time on the caller's thread, since the host API is single-threaded. A query that
fails hands its error text back as the tool result. Every exit has a reason:

- ``stop``: the model answered without tool calls (its text is kept as ``summary``);
- ``max_turns``: the budget ran out; the facts gathered so far are a *checkpoint*
  (``checkpoint=True``) and must not be presented as an answer;
- ``tool_error``: ``max_failed_turns`` (2) turns in a row in which every call failed or was
  refused; the facts gathered before are kept.

The part's fingerprint is taken before and after; if it changed, ``ExplorationChangedModel``
is raised (exploration must never modify the model). Provider errors and cancellation
propagate unchanged (``ProviderError``, ``asyncio.CancelledError``).

How the controller calls it (between Observing and Designing, when ``explore=True``; skip it
when the target part is missing or empty, there is nothing to ask)::

    from sam_plugin.runtime.observe.exploration import ExplorationChangedModel, explore
    from sam_plugin.runtime.observe.observation import target_fingerprint

    result = await explore(
        provider,                                  # the run's ChatProvider
        request=run.request,
        observation_summary=json.loads(observation.prompt_json()),  # compact L0/L1 (+ L2)
        part=host.part(target),                    # the live host part (read only)
        fingerprint_fn=lambda: target_fingerprint(host.readback(target)),
        fingerprint=observation.fingerprint,       # the observation's; skips one re-read
        listener=functools.partial(bus.emit, run_id),
    )
    run.dir.write_json("exploration.json", result)   # = result.model_dump() (no raw SSE)
    for turn, raw in enumerate(result.raw_sse, start=1):  # optional, like provider_*.sse
        (run_dir / f"provider_exploration_response.{turn}.sse").write_bytes(raw)
    context = result.design_context()  # append to the design request's user message

``ExplorationChangedModel`` means the run must fail at the observation layer (the model was
changed while it was being explored); ``ProviderError`` fails it at the provider layer (or the
controller may go on without exploration facts: nothing was asked of the model yet).

The design request itself still carries no tools (I1): ``design_context()`` goes in as text,
headed as a checkpoint when ``result.checkpoint`` is true. Events go to ``listener`` as
``(name, data)``: ``exploration_started``, ``exploration_query`` (one per call),
``exploration_turn`` (one per turn), ``exploration_completed``.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Mapping
from typing import Any, Literal

from pydantic import BaseModel, Field

from sam_plugin.errors import ExplorationChangedModel, QueryError
from sam_plugin.runtime.event_types import (
    ExplorationCompleted,
    ExplorationQuery,
    ExplorationStarted,
    RunEvent,
)
from sam_plugin.runtime.event_types import (
    ExplorationTurn as ExplorationTurnEvent,
)
from sam_plugin.runtime.observe.detail import (
    ENTITY_QUERY_SCHEMA,
    query_entities,
)
from sam_plugin.runtime.observe.region_query import REGION_QUERY_SCHEMA, query_regions
from sam_plugin.runtime.observe.regions import RegionIndexCache
from sam_plugin.runtime.provider.types import (
    ChatResponse,
    RequestOptions,
    StreamListener,
    ToolCall,
)

log = logging.getLogger(__name__)

QUERY_REGIONS = "query_regions"
QUERY_ENTITIES = "query_entities"
ALLOWED_TOOLS: tuple[str, ...] = (QUERY_REGIONS, QUERY_ENTITIES)
DEFAULT_MAX_TURNS = 4
DEFAULT_MAX_QUERIES_PER_TURN = 4
DEFAULT_MAX_FAILED_TURNS = 2
QUERY_CONCURRENCY = 1  # the host API is single-threaded: queries of a turn run one by one
DESIGN_CONTEXT_CHARS = 24_000
# the dock switches exploration on by default above this many nodes + elements (the CLI
# never does: ``--explore`` is off unless given)
EXPLORE_DEFAULT_THRESHOLD = 20_000

ExitReason = Literal["stop", "max_turns", "tool_error"]
ExplorationListener = Callable[[RunEvent], object]  # its return is ignored

QUERY_TOOLS: list[dict[str, Any]] = [
    {
        "type": "function",
        "function": {
            "name": QUERY_REGIONS,
            "description": (
                "Read-only. The region index of the target part: connected components, a "
                "coarse grid of occupied cells, sets, per-shape extents and station lines "
                "along the longest axis, each with bounding boxes, counts and label ranges. "
                "Give 'box' to zoom into a place with a finer grid; 'section' to get one part."
            ),
            "parameters": REGION_QUERY_SCHEMA,
        },
    },
    {
        "type": "function",
        "function": {
            "name": QUERY_ENTITIES,
            "description": (
                "Read-only. Nodes (label, coordinates) or elements (label, shape, connectivity) "
                "picked by labels, by set name, by box (inclusive; an element when all its "
                "nodes are inside) or the k nearest to a point (elements by centroid). At "
                "most 'limit' (200) are listed; the answer gives the total and says when the "
                "list was cut."
            ),
            "parameters": ENTITY_QUERY_SCHEMA,
        },
    },
]

EXPLORATION_PROMPT = """\
You are preparing to write a change specification for a mesh part in SAM, a CAE \
pre-processor. Before the specification is written you may ask read-only questions about the \
target part with the tools query_regions and query_entities. Nothing you do here changes \
the model, and no other tool exists in this phase.
Budget: at most {max_turns} turns and {max_queries} queries per turn. Ask only what the \
request needs: where a named place is, which labels or sets lie there, what is near a point.
When you know enough, answer without any tool call: a short plain list of the facts \
(labels, sets, coordinates) the specification should rely on. Do not write the \
specification itself."""


class QueryRecord(BaseModel):
    id: str
    tool: str
    arguments: Any
    result: Any = None
    error: str | None = None

    @property
    def ok(self) -> bool:
        return self.error is None


class ExplorationTurn(BaseModel):
    turn: int
    content: str = ""
    finish_reason: str | None = None
    queries: list[QueryRecord] = Field(default_factory=list)


class Fact(BaseModel):
    """One successful query and its answer, as the design request will see it."""

    tool: str
    arguments: Any
    result: Any


class ExplorationResult(BaseModel):
    """``exploration.json``: ``model_dump()`` of this (raw SSE excluded)."""

    exit_reason: ExitReason
    checkpoint: bool
    turns: list[ExplorationTurn]
    facts: list[Fact]
    summary: str | None = None
    usage: dict[str, int] = Field(default_factory=dict)
    max_turns: int
    max_queries_per_turn: int
    fingerprint: str
    raw_sse: list[bytes] = Field(default_factory=list, exclude=True)

    def design_context(self, max_chars: int = DESIGN_CONTEXT_CHARS) -> str:
        """The facts as text for the design request; a checkpoint says it is not an answer."""
        if self.checkpoint:
            head = (f"Read-only exploration of the target part was cut after "
                    f"{len(self.turns)} turn(s) (max_turns). The query results below are a "
                    "partial checkpoint, not an answer: use them only as context.")
        elif self.exit_reason == "tool_error":
            head = ("Read-only exploration of the target part stopped after repeated query "
                    "errors. The query results below are partial context.")
        else:
            head = "Read-only exploration of the target part gathered these query results."
        body = _facts_text([fact.model_dump(mode="json") for fact in self.facts], max_chars)
        parts = [head, body]
        if self.summary and not self.checkpoint:
            parts.append(f"Exploration notes:\n{self.summary}")
        return "\n".join(parts)


def _facts_text(facts: list[dict[str, Any]], max_chars: int) -> str:
    """Facts as compact JSON lines, the latest dropped first when they exceed ``max_chars``."""
    lines = [json.dumps(fact, separators=(",", ":"), ensure_ascii=False) for fact in facts]
    kept: list[str] = []
    used = 0
    for line in lines:
        if used + len(line) + 1 > max_chars:
            break
        kept.append(line)
        used += len(line) + 1
    if len(kept) < len(lines):
        kept.append(f"({len(lines) - len(kept)} more result(s) left out to keep the context "
                    "bounded)")
    return "\n".join(kept) if kept else "(no query results)"


class _Session:
    """One exploration run: message history, records, counters."""

    def __init__(self, part: Any, fingerprint: str, listener: ExplorationListener | None,
                 cache: RegionIndexCache | None) -> None:
        self.part = part
        self.fingerprint = fingerprint
        self.listener = listener
        self.cache = cache
        self.usage: dict[str, int] = {}

    def emit(self, event: RunEvent) -> None:
        if self.listener is None:
            return
        try:
            self.listener(event)
        except Exception:  # a broken view must never break the exploration it watches
            log.exception("exploration listener failed on %s", event.name)

    def add_usage(self, usage: Mapping[str, Any] | None) -> None:
        for key, value in (usage or {}).items():
            if isinstance(value, int) and not isinstance(value, bool):
                self.usage[key] = self.usage.get(key, 0) + value

    def run_query(self, call: ToolCall, allowed: bool) -> QueryRecord:
        """Run one call (or refuse it); never raises for a bad call."""
        call_id = call.id
        if not allowed:
            return QueryRecord(
                id=call_id, tool=call.name, arguments=_parsed_or_text(call.arguments),
                error=(f"refused: tool '{call.name}' is not available during exploration; "
                       f"only {', '.join(ALLOWED_TOOLS)} (read-only) may be called"),
            )
        try:
            arguments = json.loads(call.arguments) if call.arguments.strip() else {}
        except json.JSONDecodeError as exc:
            return QueryRecord(id=call_id, tool=call.name, arguments=call.arguments,
                               error=f"arguments: not valid JSON ({exc.msg} at char {exc.pos})")
        try:
            if call.name == QUERY_REGIONS:
                result = query_regions(self.part, arguments, fingerprint=self.fingerprint,
                                       cache=self.cache)
            else:
                result = query_entities(self.part, arguments).compact()
        except QueryError as exc:
            return QueryRecord(id=call_id, tool=call.name, arguments=arguments, error=str(exc))
        except Exception as exc:  # a host error is the query's failure, handed to the model
            log.warning("exploration query %s failed", call.name, exc_info=True)
            return QueryRecord(id=call_id, tool=call.name, arguments=arguments,
                               error=f"query failed: {type(exc).__name__}: {exc}")
        return QueryRecord(id=call_id, tool=call.name, arguments=arguments, result=result)


def _parsed_or_text(text: str) -> Any:
    try:
        return json.loads(text)
    except (json.JSONDecodeError, TypeError):
        return text


def _call_ids(calls: list[ToolCall], turn: int) -> list[ToolCall]:
    """Calls with an id each (some local servers send none; a tool message needs one)."""
    return [call if call.id else call.model_copy(update={"id": f"call_x{turn}_{call.index}"})
            for call in calls]


def _assistant_message(response: ChatResponse, calls: list[ToolCall]) -> dict[str, Any]:
    message: dict[str, Any] = {
        "role": "assistant",
        "content": response.content or None,
        "tool_calls": [
            {"id": call.id, "type": "function",
             "function": {"name": call.name, "arguments": call.arguments}}
            for call in calls
        ],
    }
    if response.reasoning:
        # DeepSeek's thinking mode answers 400 when the reasoning of a tool-call turn is not
        # passed back; only endpoints that stream reasoning_content ever get it back.
        message["reasoning_content"] = response.reasoning
    return message


def _tool_message(record: QueryRecord) -> dict[str, Any]:
    payload = {"error": record.error} if record.error is not None else record.result
    return {"role": "tool", "tool_call_id": record.id,
            "content": json.dumps(payload, separators=(",", ":"), ensure_ascii=False)}


def initial_messages(request: str, observation_summary: Mapping[str, Any], *,
                     max_turns: int, max_queries_per_turn: int) -> list[dict[str, Any]]:
    observation = json.dumps(observation_summary, separators=(",", ":"), ensure_ascii=False,
                             default=str)
    return [
        {"role": "system", "content": EXPLORATION_PROMPT.format(
            max_turns=max_turns, max_queries=max_queries_per_turn)},
        {"role": "user", "content": f"Request:\n{request}\n\nObservation of the target "
                                    f"(JSON):\n{observation}"},
    ]


async def explore(
    provider: Any,
    *,
    request: str,
    observation_summary: Mapping[str, Any],
    part: Any,
    fingerprint_fn: Callable[[], str],
    fingerprint: str | None = None,
    max_turns: int = DEFAULT_MAX_TURNS,
    max_queries_per_turn: int = DEFAULT_MAX_QUERIES_PER_TURN,
    max_failed_turns: int = DEFAULT_MAX_FAILED_TURNS,
    listener: ExplorationListener | None = None,
    stream_listener: StreamListener | None = None,
    cache: RegionIndexCache | None = None,
    max_tokens: int | None = None,
) -> ExplorationResult:
    """Run the bounded read-only exploration loop; see the module docstring for the contract.

    ``provider`` is a ``ChatProvider`` (anything with ``stream_chat(messages, tools,
    listener=...)``, and ``options=`` when ``max_tokens`` bounds each turn).
    ``fingerprint`` is the part's fingerprint at observation time (taken from
    ``fingerprint_fn()`` when omitted); it must equal ``fingerprint_fn()`` afterwards.
    """
    for name, value in (("max_turns", max_turns), ("max_queries_per_turn", max_queries_per_turn),
                        ("max_failed_turns", max_failed_turns)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValueError(f"{name}: must be a positive integer; got {value!r}")
    before = fingerprint if fingerprint is not None else fingerprint_fn()
    session = _Session(part, before, listener, cache)
    messages = initial_messages(request, observation_summary, max_turns=max_turns,
                                max_queries_per_turn=max_queries_per_turn)
    turns: list[ExplorationTurn] = []
    raw: list[bytes] = []
    summary: str | None = None
    exit_reason: ExitReason = "max_turns"
    failed_in_a_row = 0
    session.emit(ExplorationStarted(max_turns=max_turns,
                                    max_queries_per_turn=max_queries_per_turn,
                                    tools=list(ALLOWED_TOOLS)))
    bounded = {"options": RequestOptions(max_tokens=max_tokens)} if max_tokens else {}
    for number in range(1, max_turns + 1):
        response: ChatResponse = await provider.stream_chat(
            messages, tools=QUERY_TOOLS, listener=stream_listener, **bounded)
        raw.append(response.raw_sse)
        session.add_usage(response.usage)
        turn = ExplorationTurn(turn=number, content=response.content,
                               finish_reason=response.finish_reason)
        turns.append(turn)
        if not response.tool_calls:
            summary = response.content.strip() or None
            exit_reason = "stop"
            session.emit(_turn_event(turn))
            break
        calls = _call_ids(list(response.tool_calls), number)
        messages.append(_assistant_message(response, calls))
        for position, call in enumerate(calls):
            if position >= max_queries_per_turn:
                record = QueryRecord(
                    id=call.id, tool=call.name, arguments=_parsed_or_text(call.arguments),
                    error=(f"refused: at most {max_queries_per_turn} queries per turn; this "
                           f"was call {position + 1} of {len(calls)} (not run)"))
            else:
                record = session.run_query(call, call.name in ALLOWED_TOOLS)
            turn.queries.append(record)
            messages.append(_tool_message(record))
            session.emit(ExplorationQuery(
                turn=number, index=position, tool=record.tool,
                arguments=record.arguments, ok=record.ok, error=record.error,
                result_chars=len(messages[-1]["content"]) if record.ok else 0,
            ))
        session.emit(_turn_event(turn))
        failed_in_a_row = failed_in_a_row + 1 if not any(q.ok for q in turn.queries) else 0
        if failed_in_a_row >= max_failed_turns:
            exit_reason = "tool_error"
            break
    after = fingerprint_fn()
    if after != before:
        raise ExplorationChangedModel(
            f"exploration changed the target part: fingerprint {before} before, {after} after "
            "(exploration must only read)")
    facts = [Fact(tool=q.tool, arguments=q.arguments, result=q.result)
             for turn in turns for q in turn.queries if q.ok]
    result = ExplorationResult(
        exit_reason=exit_reason,
        checkpoint=exit_reason == "max_turns",
        turns=turns,
        facts=facts,
        summary=summary if exit_reason == "stop" else None,
        usage=session.usage,
        max_turns=max_turns,
        max_queries_per_turn=max_queries_per_turn,
        fingerprint=before,
        raw_sse=raw,
    )
    session.emit(ExplorationCompleted(exit_reason=exit_reason, turns=len(turns),
                                      facts=len(facts), checkpoint=result.checkpoint))
    return result


def explore_by_default(node_count: int, element_count: int,
                       threshold: int = EXPLORE_DEFAULT_THRESHOLD) -> bool:
    """The dock's default for the exploration switch: on for parts above the size threshold."""
    return node_count + element_count > threshold


def _turn_event(turn: ExplorationTurn) -> ExplorationTurnEvent:
    return ExplorationTurnEvent(
        turn=turn.turn,
        queries=len(turn.queries),
        failed=sum(1 for q in turn.queries if not q.ok),
        finish_reason=turn.finish_reason,
    )
