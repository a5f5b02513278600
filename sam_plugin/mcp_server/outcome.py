"""What the gate says about a plan, an undo and a decision, in the words the dock uses
(proposed ≠ executed ≠ verified), and the JSON of its results (docs/mcp.md "Tools").

The plan's hash has one name in every MCP result: ``plan_sha256`` (the run directory's files
call the same value ``script_sha256``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sam_plugin.compilers.plan import Plan
from sam_plugin.compilers.protocol import Target
from sam_plugin.mcp_server.approval import Decision, Kind
from sam_plugin.runtime.store.run_store import RunResult


@dataclass(frozen=True)
class Outcome:
    """What became of a plan or an undo once a person decided, for this process's own views
    (the dock shows it as it shows the analyst's own run)."""

    kind: Kind
    run_id: str
    client: str
    decision: Decision
    result: RunResult  # the run as it ended; an approved undo: as undone
    undone_from: RunResult | None = None  # an undo: the run as it was before the undo
    spec_text: str = ""  # an execute: the spec in words its calls were bound to


def renamed_hash(data: dict[str, Any]) -> dict[str, Any]:
    """``data`` (a plan or a result) with its ``script_sha256`` named ``plan_sha256``."""
    return {("plan_sha256" if key == "script_sha256" else key): value
            for key, value in data.items()}


def decision_data(decision: Decision) -> dict[str, Any]:
    """A decision as a client reads it (its seal is for the server)."""
    return decision.model_dump(mode="json", exclude={"seal"})


def reason(decision: Decision) -> str:
    if decision.verdict == "expired":
        return "nobody approved it in time"
    return f"declined by a person ({decision.channel})"


def outcome_words(result: RunResult, decision: Decision) -> str:
    """The run's end in the words the dock uses."""
    if result.status == "verified":
        return "Verified: executed once and confirmed by reading the part back"
    if result.status == "cancelled":
        return f"Cancelled: {reason(decision)}; nothing was executed"
    if result.error is None:
        return result.status
    restored = "; the part was restored exactly as it was" if result.restored else ""
    return f"Failed at {result.error.layer}: {result.error.message}{restored}"


def plan_title(client: str, run_id: str, target: Target, mode: str, plan: Plan) -> str:
    return (f"{client} asks to execute run {run_id} on {target.model_name}/"
            f"{target.part_name} ({mode}): {plan.summary()}")


def undo_title(result: RunResult) -> str:
    return (f"undo run {result.run_id}: put {result.target.model_name}/"
            f"{result.target.part_name} back as it was before it")


def undo_text(result: RunResult, moves: Sequence[str] = ()) -> str:
    """The undo in words: the counts now and after it, and the coordinates it moves back
    (``runtime/store/undo.py:undo_moves``), so that a move's undo shows its difference."""
    before, after = result.before, result.after
    if before is None or after is None:
        return undo_title(result)
    moved = "".join(f"\n  {line}" for line in moves)
    return (f"{undo_title(result)}\nnow:  {after.node_count} nodes, {after.element_count} "
            f"elements\nback: {before.node_count} nodes, {before.element_count} elements"
            + (f"\nmoved back:{moved}" if moved else ""))
