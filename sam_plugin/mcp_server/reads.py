"""The read-only tools: ``list_targets``, ``observe``, ``capabilities``, ``run_status``,
``list_runs`` (docs/mcp.md "Tools"). They read the workspace and the runs directory and
change nothing; each answer is bounded whatever the workspace holds.

Each reuses what the pipeline reads: the observation L0–L1 in its bounded prompt form, the
L2 region index (cached by fingerprint), the L3 entity query, a mode's tool definitions and
spec schema, ``result.json`` and the run history.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from sam_plugin.compilers import registry
from sam_plugin.compilers.protocol import Target
from sam_plugin.compilers.spec import spec_json_schema
from sam_plugin.errors import QueryError, ToolRefused
from sam_plugin.mcp_server.arguments import ListRunsArgs, ObserveArgs, RunStatusArgs
from sam_plugin.mcp_server.examples import EXAMPLE_PART, example
from sam_plugin.mcp_server.gate import Gate
from sam_plugin.runtime.observe.detail import query_entities
from sam_plugin.runtime.observe.observation import observe
from sam_plugin.runtime.observe.regions import region_index
from sam_plugin.runtime.store.run_store import RunDir, list_runs

MAX_LISTED_PARTS = 200  # per model in list_targets (the rest counted)


async def list_targets(gate: Gate) -> dict[str, Any]:
    """Models and parts with their node and element counts."""
    async with gate.host_lock:
        mdb = gate.host.mdb
        models = []
        for name in sorted(mdb.models.keys()):
            parts = mdb.models[name].parts
            names = sorted(parts.keys())
            listed = [{"name": p, "nodes": len(parts[p].nodes),
                       "elements": len(parts[p].elements)} for p in names[:MAX_LISTED_PARTS]]
            entry: dict[str, Any] = {"name": name, "parts": listed}
            if len(names) > MAX_LISTED_PARTS:
                entry["parts_not_listed"] = len(names) - MAX_LISTED_PARTS
            models.append(entry)
    return {"models": models, "modes": list(registry.MODES)}


async def observe_part(gate: Gate, args: ObserveArgs) -> dict[str, Any]:
    """L0–L1 (bounded), the L2 region index, and an L3 query when asked: read only."""
    target = Target(model_name=args.model, part_name=args.part)
    async with gate.host_lock:
        observation = observe(gate.host, args.mode, target)
        payload: dict[str, Any] = json.loads(observation.prompt_json())
        part = gate.host.part(target)
        payload["regions"] = None
        if not observation.target_is_empty:
            payload["regions"] = region_index(part, observation.fingerprint,
                                              cache=gate.regions).model_dump(mode="json")
        if args.query is not None:
            try:
                payload["query"] = query_entities(part, args.query).model_dump(mode="json")
            except QueryError as error:
                raise ToolRefused("observation", f"query: {error}") from None
    return payload


def capabilities(mode: str) -> dict[str, Any]:
    """A mode's typed tools, in canonical order, with their JSON Schemas and an example each,
    and the JSON Schema of its spec."""
    module = registry.get_module(mode)
    names = [module.tool_names[c] for c in module.capabilities]
    tools = []
    for definition, capability in zip(module.tool_definitions(names), module.capabilities,
                                      strict=True):
        function = definition["function"]
        tools.append({"name": function["name"], "capability": capability,
                      "description": function["description"],
                      "input_schema": function["parameters"],
                      "example": example(function["name"])})
    return {
        "mode": mode,
        "order": list(module.capabilities),
        "tools": tools,
        "spec_schema": spec_json_schema(mode),
        "examples_are_about": EXAMPLE_PART,
        "rules": [
            "plan_change takes the spec and the calls it routes to: one call per capability "
            "its steps name, in the order above",
            "every mutating operation of a call carries out one step of the spec (same "
            "action, equal values, no wider scope), and every step is carried out",
            "the target (model, part) is never a tool argument",
            "a diagnostic names the field and the legal values: fix that and plan again",
        ],
    }


def run_status(gate: Gate, args: RunStatusArgs) -> dict[str, Any]:
    """A waiting plan's state, else the run's ``result.json``."""
    waiting = gate.waiting(args.run_id)
    if waiting is not None:
        return {"run_id": args.run_id, "status": "waiting_for_approval",
                "plan_sha256": waiting.plan_sha256, "asking": waiting.asking,
                "target": waiting.target.model_dump(), "mode": waiting.mode}
    run = RunDir(gate.runs_dir, args.run_id)
    if not run.path.is_dir():
        raise ToolRefused("observation", f"no run {args.run_id} in the runs directory")
    try:
        result = run.read_result()
    except ValueError:
        result = None
    if result is None:
        return {"run_id": args.run_id, "status": "incomplete",
                "note": "no result yet: another process holds it, or it was abandoned"}
    return {"run_id": args.run_id, "status": result.status,
            "result": result.model_dump(mode="json")}


def runs(gate: Gate, args: ListRunsArgs) -> dict[str, Any]:
    """The newest runs first; the plans this server holds say so."""
    waiting = {w.run_id for w in gate.waiting_runs()}
    listed = []
    for summary in list_runs(Path(gate.runs_dir))[: args.limit]:
        entry = summary.model_dump(mode="json")
        entry["request"] = entry["request"][:200]
        if summary.run_id in waiting:
            entry["status"] = "waiting_for_approval"
        listed.append(entry)
    return {"runs": listed}
