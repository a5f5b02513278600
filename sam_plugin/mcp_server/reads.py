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
from sam_plugin.mcp_server import approval
from sam_plugin.mcp_server.approval import ApprovalRequest
from sam_plugin.mcp_server.arguments import ListRunsArgs, ObserveArgs, RunStatusArgs
from sam_plugin.mcp_server.examples import EXAMPLE_PART, example
from sam_plugin.mcp_server.gate import Gate, kept_request
from sam_plugin.mcp_server.outcome import decision_data, renamed_hash
from sam_plugin.mcp_server.plan_state import plan_state, request_state
from sam_plugin.mcp_server.waiting import standing
from sam_plugin.runtime.observe.detail import query_entities
from sam_plugin.runtime.observe.observation import observe
from sam_plugin.runtime.observe.regions import region_index
from sam_plugin.runtime.store.run_history import list_runs
from sam_plugin.runtime.store.run_store import RunDir

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
                      "example": example(module, function["name"])})
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
    """A plan's state (held by this server, or kept from an earlier one) with the decision
    on it, if any, else the run's ``result.json``."""
    run = RunDir(gate.runs_dir, args.run_id)
    waiting = gate.waiting(args.run_id)
    if waiting is not None:
        return _plan_status(gate, args.run_id, waiting.request, waiting.mode, waiting.target,
                            held=True, asking=waiting.asking)
    found = kept_request(gate.runs_dir, args.run_id)
    if found is not None:
        kept, request = found
        return _plan_status(gate, args.run_id, request, kept.mode,
                            Target(model_name=kept.model, part_name=kept.part), held=False,
                            asking=approval.waits_now(run.path, request))
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
            "result": renamed_hash(result.model_dump(mode="json"))}


def _plan_status(gate: Gate, run_id: str, request: ApprovalRequest, mode: str,
                 target: Target, *, held: bool, asking: bool) -> dict[str, Any]:
    """``waiting_for_approval``, or the decision a person recorded that no execute_plan acted
    on yet (``approved``, ``declined``, ``expired``), with what to do next."""
    decision = standing(gate.runs_dir / run_id, request)
    data: dict[str, Any] = {
        "run_id": run_id, "status": request_state(gate.runs_dir / run_id, request),
        "plan_sha256": request.plan_sha256,
        "asking": asking, "held_by_this_server": held, "target": target.model_dump(),
        "mode": mode, "deadline": request.deadline, "decision": None,
        "next": "wait for a person's decision (poll run_status). " + gate.how_to_approve(run_id)}
    if decision is None and request.expired():
        data["next"] = "nothing runs: nobody approved it in time; plan it again"
    if decision is not None:
        data["decision"] = decision_data(decision)
        data["next"] = ("call execute_plan with this run_id and plan_sha256: it runs at once"
                        if decision.approves(request) else
                        "nothing runs; execute_plan ends the run cancelled")
    return data


def runs(gate: Gate, args: ListRunsArgs) -> dict[str, Any]:
    """The newest runs first; plans that wait (here or kept) say so."""
    waiting = {w.run_id for w in gate.waiting_runs()}
    listed = []
    for summary in list_runs(Path(gate.runs_dir))[: args.limit]:
        entry = summary.model_dump(mode="json")
        entry["request"] = entry["request"][:200]
        if summary.run_id in waiting or (summary.status == "incomplete" and
                                         _kept(gate, summary.run_id)):
            entry["status"] = plan_state(Path(gate.runs_dir) / summary.run_id) or \
                "waiting_for_approval"
        listed.append(entry)
    return {"runs": listed}


def _kept(gate: Gate, run_id: str) -> bool:
    try:
        return kept_request(gate.runs_dir, run_id) is not None
    except ToolRefused:
        return False
