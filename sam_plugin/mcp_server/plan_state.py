"""One word for where an agent's plan stands, shared by ``run_status``, the ``runs`` tool and
``sam-agent runs``: ``waiting_for_approval``, or the decision a person recorded that no
``execute_plan`` acted on yet (``approved``, ``declined``, ``expired``). A run with a result
has its result's status instead."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from sam_plugin.errors import ForgedRecord
from sam_plugin.mcp_server import approval
from sam_plugin.mcp_server.approval import ApprovalRequest
from sam_plugin.mcp_server.waiting import standing

PlanState = Literal["waiting_for_approval", "approved", "declined", "expired"]


def request_state(run_dir: Path, request: ApprovalRequest) -> PlanState:
    decision = standing(run_dir, request)
    if decision is None:
        return "expired" if request.expired() else "waiting_for_approval"
    if decision.approves(request):
        return "approved"
    return "expired" if decision.verdict == "expired" else "declined"


def plan_state(run_dir: Path) -> PlanState | None:
    """The state of the plan kept in ``run_dir`` (None: no plan waits there, the run has a
    result, or its request does not hold)."""
    if (run_dir / "result.json").exists():
        return None
    try:
        request = approval.read_request(run_dir, "execute")
    except ForgedRecord:
        return None
    return request_state(run_dir, request) if request is not None else None
