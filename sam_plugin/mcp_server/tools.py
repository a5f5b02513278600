"""The MCP tools, each declared once: its name, its argument model, its description for
agents, whether it is read-only or destructive, and its handler (docs/architecture.md "Adding
an MCP tool"). The tools/list answer, the input schemas and the dispatch of a call are all
read from :data:`TOOLS`; a name not declared here is refused in words that name the tools.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

import mcp_types as types
from mcp.server import ServerRequestContext
from pydantic import BaseModel

from sam_plugin.errors import ToolArgumentError
from sam_plugin.mcp_server import elicitation, reads
from sam_plugin.mcp_server.arguments import (
    CapabilitiesArgs,
    ExecutePlanArgs,
    ListRunsArgs,
    ListTargetsArgs,
    ObserveArgs,
    PlanChangeArgs,
    RunStatusArgs,
    UndoRunArgs,
    input_schema,
    parse,
)
from sam_plugin.mcp_server.gate import Gate
from sam_plugin.mcp_server.results import ok

A = TypeVar("A", bound=BaseModel)
Answer = types.CallToolResult | types.InputRequiredResult


@dataclass(frozen=True)
class Call:
    """One tools/call as a handler sees it, its arguments aside."""

    gate: Gate
    ctx: ServerRequestContext[Any]
    params: types.CallToolRequestParams
    client: str


@dataclass(frozen=True)
class ToolSpec(Generic[A]):
    """One tool. ``read_only`` tools are also idempotent; ``destructive`` ones change the
    part once a person approves."""

    name: str
    arguments: type[A]
    description: str
    handler: Callable[[Call, A], Awaitable[Answer]]
    read_only: bool
    destructive: bool

    def __post_init__(self) -> None:
        if self.read_only and self.destructive:
            raise ValueError(f"{self.name}: a tool is read-only or destructive, not both")

    def listed(self) -> types.Tool:
        annotations = types.ToolAnnotations(
            read_only_hint=self.read_only, destructive_hint=self.destructive,
            idempotent_hint=self.read_only, open_world_hint=False)
        return types.Tool(name=self.name, description=self.description,
                          input_schema=input_schema(self.arguments), annotations=annotations)

    async def answer(self, call: Call) -> Answer:
        args = parse(self.name, self.arguments, call.params.arguments,
                     max_bytes=call.gate.settings.max_argument_bytes)
        return await self.handler(call, args)


async def _list_targets(call: Call, args: ListTargetsArgs) -> Answer:
    return ok(await reads.list_targets(call.gate))


async def _observe(call: Call, args: ObserveArgs) -> Answer:
    return ok(await reads.observe_part(call.gate, args))


async def _capabilities(call: Call, args: CapabilitiesArgs) -> Answer:
    return ok(reads.capabilities(args.mode))


async def _plan_change(call: Call, args: PlanChangeArgs) -> Answer:
    return ok(await call.gate.plan_change(args, call.client))


async def _execute_plan(call: Call, args: ExecutePlanArgs) -> Answer:
    return await elicitation.execute(call.gate, call.ctx, call.params, args, call.client)


async def _undo_run(call: Call, args: UndoRunArgs) -> Answer:
    approvers, channels = elicitation.channels(call.gate, call.ctx, push_only=True)
    return ok(await call.gate.undo_run(args, call.client, approvers, channels))


async def _run_status(call: Call, args: RunStatusArgs) -> Answer:
    return ok(reads.run_status(call.gate, args))


async def _list_runs(call: Call, args: ListRunsArgs) -> Answer:
    return ok(reads.runs(call.gate, args))


TOOLS: tuple[ToolSpec[Any], ...] = (
    ToolSpec(
        "list_targets", ListTargetsArgs,
        "List the models and parts of the open SAM workspace, with their node and element "
        "counts. Read-only.",
        _list_targets, read_only=True, destructive=False),
    ToolSpec(
        "observe", ObserveArgs,
        "Observe one part: the workspace index, the part in numbers (counts, bounding box, "
        "sets, sections), its regions (components, shapes, sets with label ranges and boxes) "
        "and, with query, up to 200 nodes or elements. Read-only, bounded.",
        _observe, read_only=True, destructive=False),
    ToolSpec(
        "capabilities", CapabilitiesArgs,
        "A mode's typed tools in the order plan_change takes them, each with its JSON Schema "
        "and an example, and the JSON Schema of the spec. Read-only.",
        _capabilities, read_only=True, destructive=False),
    ToolSpec(
        "plan_change", PlanChangeArgs,
        "Propose a change: the person's request, the spec (JSON: the steps they confirm) and "
        "the tool calls that carry it out, each operation one step with the step's values. "
        "Runs the same checks, compilers, binding to the spec and plan as the SAM dock and "
        "changes nothing. Returns the plan (each call against its step, operations, touched "
        "entities, before -> after, destructive marks, warnings), the spec in words, its "
        "plan_sha256 and run_id, or diagnostics naming each field or step and its legal "
        "values to fix and plan again.",
        _plan_change, read_only=False, destructive=False),
    ToolSpec(
        "execute_plan", ExecutePlanArgs,
        "Ask the person to approve a plan, then execute it once in SAM and verify the part "
        "against the plan. Only a person approves: on this client's form, in the SAM dock, or "
        "with `sam-agent approve RUN_ID` in a terminal; no tool approves. A decision the "
        "person recorded already is acted on at once (the plan is kept in the runs directory: "
        "a server started later on the same workspace executes it if the part is unchanged). "
        "Waits up to wait_seconds (default 50, below the 60 s common clients wait for a "
        "call); unanswered or declined, the plan is cancelled and nothing runs; wait_seconds 0 "
        "answers waiting_for_approval at once (poll run_status until approved, then call "
        "again: it runs at once). Returns verified, failed (and whether the part was "
        "restored), cancelled or waiting_for_approval.",
        _execute_plan, read_only=False, destructive=True),
    ToolSpec(
        "undo_run", UndoRunArgs,
        "Ask the person to approve undoing a verified run, then put the part back exactly as "
        "it was before it. Refused when the part changed since.",
        _undo_run, read_only=False, destructive=True),
    ToolSpec(
        "run_status", RunStatusArgs,
        "The status of one run: waiting for approval, approved or declined (not acted on yet: "
        "call execute_plan), or its result.",
        _run_status, read_only=True, destructive=False),
    ToolSpec(
        "list_runs", ListRunsArgs,
        "The newest runs, with their status and request.",
        _list_runs, read_only=True, destructive=False),
)


def _by_name(declared: tuple[ToolSpec[Any], ...]) -> dict[str, ToolSpec[Any]]:
    by_name = {spec.name: spec for spec in declared}
    if len(by_name) != len(declared):
        raise ValueError("two MCP tools are declared under one name")
    return by_name


BY_NAME = _by_name(TOOLS)


def listed() -> list[types.Tool]:
    """The tools/list answer, in declaration order."""
    return [spec.listed() for spec in TOOLS]


def find(name: str) -> ToolSpec[Any]:
    """The tool called ``name``; an unknown name is refused, naming the tools."""
    spec = BY_NAME.get(name)
    if spec is None:
        raise ToolArgumentError(f"unknown tool {name!r}; tools: {', '.join(BY_NAME)}")
    return spec
