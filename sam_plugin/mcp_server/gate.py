"""The gated pipeline as an MCP client sees it: plan a change, have a person approve it,
execute it once and verify; undo, also approved (docs/mcp.md, docs/architecture.md §1).

Nothing here is a second copy of a rule: a plan is ``RunController.plan_calls`` (the same
routing, call guard, compile chain and plan builder as the dock), an execution is the
controller's ``execute`` (drift check I3, the plan's hash I11, the journal I8, verification,
restore), an undo is the store's ``undo_run``. What the gate adds is who may say yes: only a
person, on a channel of ``waiting.py``, for the very SHA-256 the plan has.

Each waiting plan has its own controller (a controller holds one run); controllers whose
run ended are used again. One host operation runs at a time (``host_lock``); waiting for a
person holds no lock.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NoReturn

from sam_plugin.compilers import registry
from sam_plugin.compilers.protocol import Target
from sam_plugin.compilers.spec.reading import spec_from_json
from sam_plugin.errors import SpecRejected, SubmitRefused, ToolRefused, UndoRefused
from sam_plugin.mcp_server import approval
from sam_plugin.mcp_server.approval import ApprovalRequest, Channel, Decision
from sam_plugin.mcp_server.arguments import ExecutePlanArgs, PlanChangeArgs, UndoRunArgs
from sam_plugin.mcp_server.waiting import Approver, wait_for_decision
from sam_plugin.runtime.config.policy import RunPolicy
from sam_plugin.runtime.config.settings import ProviderSettings
from sam_plugin.runtime.event_types import ApprovalRequested
from sam_plugin.runtime.host_gateway import HostGateway
from sam_plugin.runtime.observe.regions import RegionIndexCache
from sam_plugin.runtime.run.controller import RunController
from sam_plugin.runtime.run.phases import TERMINAL, Phase
from sam_plugin.runtime.store.file_lock import try_lock
from sam_plugin.runtime.store.run_store import RunDir, RunResult
from sam_plugin.runtime.store.undo import log_emitter, undo_refusal, undo_run
from sam_plugin.runtime.text_safety import visible_text

MAX_WAITING = 8  # plans waiting at once; the oldest one nobody asked for makes room

# what a verified run (or an undo) does to the workspace file, if anything (``--save``)
SaveHook = Callable[[RunResult], RunResult]


@dataclass
class Waiting:
    """A plan that waits for a person."""

    controller: RunController
    run_id: str
    plan_sha256: str
    mode: str
    target: Target
    client: str
    asking: bool = False  # an execute_plan waits for its decision now
    request: ApprovalRequest | None = None  # an open request a later call answers


@dataclass
class Gate:
    host: HostGateway
    runs_dir: Path
    settings: ProviderSettings = field(default_factory=ProviderSettings)
    policy: RunPolicy | None = None
    save: SaveHook | None = None
    # channels of this process besides elicitation (the dock inside SAM)
    approvers: list[Approver] = field(default_factory=list)
    host_lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    regions: RegionIndexCache = field(default_factory=RegionIndexCache)  # observe's L2
    _waiting: dict[str, Waiting] = field(default_factory=dict)
    _idle: list[RunController] = field(default_factory=list)
    # open requests settled in the background, by request id (``open_request``)
    _settling: dict[str, asyncio.Future[dict[str, Any]]] = field(default_factory=dict)

    # -- plan_change ------------------------------------------------------------------------

    async def plan_change(self, args: PlanChangeArgs, client: str) -> dict[str, Any]:
        """Observe, route, check and compile the client's calls, build the plan; nothing
        runs. The plan waits for a person (``execute_plan``)."""
        module = registry.get_module(args.mode)
        try:
            spec = spec_from_json(_visible(args.spec), module.vocabulary)
        except SpecRejected as rejected:
            raise ToolRefused("spec", "the spec is refused: nothing was planned",
                              diagnostics=rejected.problems) from None
        calls = None if args.calls is None else [(c.name, c.arguments) for c in args.calls]
        target = Target(model_name=args.model, part_name=args.part)
        async with self.host_lock:
            self._make_room()
            controller = self._controller()
            try:
                phase = await controller.plan_calls(args.request, args.mode, target,
                                                    spec=spec, calls=calls, source="mcp")
            except SubmitRefused as refused:
                self._idle.append(controller)
                raise ToolRefused("observation", str(refused)) from None
        run_id = controller.run_id
        assert run_id is not None
        _write_client(self.runs_dir / run_id, client)
        if phase != Phase.PLAN or controller.plan is None:
            self._idle.append(controller)
            _rejected(controller.result)
        plan = controller.plan
        self._waiting[run_id] = Waiting(controller, run_id, plan.script_sha256, args.mode,
                                        target, client)
        return {
            "run_id": run_id, "status": "waiting_for_approval",
            "plan_sha256": plan.script_sha256, "plan": plan.model_dump(mode="json"),
            "text": plan.text(),
            # the spec as the dock renders it, and where it disagrees with the part now
            "spec_text": controller.spec_text, "spec_warnings": controller.review_warnings,
            "next": "call execute_plan with this run_id and plan_sha256: a person approves it "
                    "(the client's form, the SAM dock, or `sam-agent approve "
                    f"{run_id}` in a terminal); nothing runs before",
        }

    # -- execute_plan -----------------------------------------------------------------------

    async def execute_plan(self, args: ExecutePlanArgs, client: str,
                           approvers: list[Approver], channels: tuple[Channel, ...]
                           ) -> dict[str, Any]:
        """Wait for a person's decision on the plan, then execute it once and verify, or
        cancel it; a forged SHA-256 or a plan that is not waiting is refused."""
        waiting = self._asking_for(args)
        request = self._request(waiting, client, channels, args.wait_seconds)
        return await self._settle(waiting, request, approvers, announce=True)

    def open_request(self, args: ExecutePlanArgs, client: str,
                     channels: tuple[Channel, ...]) -> ApprovalRequest:
        """``execute_plan`` for a client that brings the person's answer in a later call
        (MCP 2026-07-28): the request is written and announced, and the decision awaited in
        the background (this process's channels and ``sam-agent approve`` may decide meanwhile;
        unanswered at the deadline, the plan is cancelled even if the client never comes
        back). The open request stands until it is settled."""
        waiting = self._waiting.get(args.run_id)
        if waiting is not None and waiting.request is not None and \
                waiting.request.request_id in self._settling and \
                args.plan_sha256 == waiting.plan_sha256:
            return waiting.request
        waiting = self._asking_for(args)
        request = self._request(waiting, client, channels, args.wait_seconds)
        approval.write_request(self._run_dir(waiting), request)
        for channel in channels:
            waiting.controller.approval_requested(channel)
        waiting.request = request
        waiting.asking = True
        self._settling[request.request_id] = asyncio.ensure_future(
            self._settle(waiting, request, list(self.approvers), announce=False))
        return request

    def answer(self, run_id: str, request_id: str) -> tuple[ApprovalRequest, Path] | None:
        """The open request ``request_id`` of ``run_id`` and its run directory (where the
        client's answer is recorded), or None when it is settled or unknown."""
        waiting = self._waiting.get(run_id)
        if waiting is None or waiting.request is None or \
                waiting.request.request_id != request_id:
            return None
        return waiting.request, self._run_dir(waiting)

    async def settled(self, args: ExecutePlanArgs, request_id: str) -> dict[str, Any]:
        """The outcome of the open request ``request_id``, once it is settled."""
        task = self._settling.get(request_id)
        if task is None:
            raise ToolRefused("execution", "this answer is for an approval request this server "
                              "does not hold; call execute_plan again")
        outcome = await asyncio.shield(task)
        if outcome["run_id"] != args.run_id:
            raise ToolRefused("execution", "this answer is for another run's approval request")
        self._settling.pop(request_id, None)
        return outcome

    def _request(self, waiting: Waiting, client: str, channels: tuple[Channel, ...],
                 wait_seconds: float) -> ApprovalRequest:
        return approval.new_request("execute", waiting.run_id, waiting.plan_sha256,
                                    _plan_title(waiting), channels, client, wait_seconds)

    async def _settle(self, waiting: Waiting, request: ApprovalRequest,
                      approvers: list[Approver], *, announce: bool) -> dict[str, Any]:
        waiting.asking = True
        plan = waiting.controller.plan
        try:
            decision = await wait_for_decision(
                self._run_dir(waiting), request, request.summary,
                plan.text() if plan is not None else "", approvers,
                waiting.controller.approval_requested if announce else None)
            result = await self._decided(waiting, decision, request)
        finally:
            waiting.asking = False
        return {"run_id": waiting.run_id, "status": result.status,
                "message": _outcome_words(result, decision),
                "decision": decision.model_dump(mode="json"),
                "result": result.model_dump(mode="json")}

    def _run_dir(self, waiting: Waiting) -> Path:
        return waiting.controller.runs_dir / waiting.run_id

    async def _decided(self, waiting: Waiting, decision: Decision,
                       request: ApprovalRequest) -> RunResult:
        controller = waiting.controller
        del self._waiting[waiting.run_id]
        try:
            if decision.approves(request):
                async with self.host_lock:
                    result = await controller.execute(approved_by=decision.channel)
                return self._saved(result)
            return controller.decline_plan(by=decision.channel, reason=_reason(decision))
        finally:
            self._idle.append(controller)

    def _asking_for(self, args: ExecutePlanArgs) -> Waiting:
        waiting = self._waiting.get(args.run_id)
        if waiting is None:
            raise ToolRefused("execution", _not_waiting(self.runs_dir, args.run_id))
        if args.plan_sha256 != waiting.plan_sha256:
            raise ToolRefused(
                "execution", f"plan_sha256 {args.plan_sha256[:12]}… is not the SHA-256 of "
                f"run {args.run_id}'s plan; nothing executed. Execute only the plan_sha256 "
                "plan_change returned (I11)")
        if waiting.asking:
            raise ToolRefused("execution", f"run {args.run_id} is waiting for a person's "
                              "decision already (another execute_plan asked)")
        return waiting

    # -- undo_run ---------------------------------------------------------------------------

    async def undo_run(self, args: UndoRunArgs, client: str, approvers: list[Approver],
                       channels: tuple[Channel, ...]) -> dict[str, Any]:
        """Undo a verified run once a person approves (the same channels as a plan)."""
        refusal = undo_refusal(self.host, self.runs_dir, args.run_id)
        if refusal is not None:
            raise ToolRefused("execution", f"undo refused: {refusal}")
        run_dir = RunDir(self.runs_dir, args.run_id)
        result = run_dir.read_result()
        assert result is not None
        lock = try_lock(run_dir.file(approval.UNDO_LOCK_NAME))
        if lock is None:
            raise ToolRefused("execution", f"an undo of run {args.run_id} waits for a "
                              "person's decision already")
        try:
            request = approval.new_request(
                "undo", args.run_id, result.script_sha256 or "", _undo_title(result),
                channels, client, args.wait_seconds)
            emit = log_emitter(run_dir)
            decision = await wait_for_decision(
                run_dir.path, request, request.summary, _undo_text(result), approvers,
                lambda channel: emit(ApprovalRequested(channel=channel, action="undo")))
            if decision.approves(request):
                async with self.host_lock:
                    try:
                        undone = undo_run(self.host, self.runs_dir, args.run_id, emit=emit)
                    except UndoRefused as refused:
                        raise ToolRefused("execution", f"undo refused: {refused}") from None
                status, record = "undone", self._saved(undone)
            else:
                status, record = "cancelled", result
        finally:
            lock.release()
        return {"run_id": args.run_id, "status": status,
                "decision": decision.model_dump(mode="json"),
                "result": record.model_dump(mode="json")}

    # -- what waits ------------------------------------------------------------------------

    def waiting(self, run_id: str) -> Waiting | None:
        return self._waiting.get(run_id)

    def waiting_runs(self) -> list[Waiting]:
        return list(self._waiting.values())

    def close(self, reason: str = "the MCP server stopped") -> None:
        """Cancel every waiting plan (nothing executed) and let go of its run."""
        for task in self._settling.values():
            task.cancel()
        self._settling.clear()
        for waiting in list(self._waiting.values()):
            if waiting.controller.phase == Phase.PLAN:
                waiting.controller.decline_plan(by="server", reason=reason)
            self._waiting.pop(waiting.run_id, None)
            self._idle.append(waiting.controller)
        for controller in self._idle:
            if controller.run_id is not None:
                RunDir(controller.runs_dir, controller.run_id).unlock()

    def _make_room(self) -> None:
        """At ``MAX_WAITING`` plans, the oldest nobody asked to execute is cancelled."""
        if len(self._waiting) < MAX_WAITING:
            return
        idle = [w for w in self._waiting.values() if not w.asking]
        if not idle:
            raise ToolRefused("observation", f"{len(self._waiting)} plans wait for a "
                              "person already; wait for their decisions")
        oldest = min(idle, key=lambda w: w.run_id)
        oldest.controller.decline_plan(
            by="server", reason=f"superseded: {MAX_WAITING} newer plans were made")
        del self._waiting[oldest.run_id]
        self._idle.append(oldest.controller)

    def _controller(self) -> RunController:
        while self._idle:
            controller = self._idle.pop()
            if controller.phase in TERMINAL or controller.phase == Phase.IDLE:
                return controller
        return RunController(runs_dir=self.runs_dir, settings=self.settings, host=self.host,
                             policy=self.policy, provider_name="mcp", regions=self.regions)

    def _saved(self, result: RunResult) -> RunResult:
        if self.save is None or result.status not in ("verified", "undone"):
            return result
        return self.save(result)


def _reason(decision: Decision) -> str:
    if decision.verdict == "expired":
        return "nobody approved it in time"
    return f"declined by a person ({decision.channel})"


def _outcome_words(result: RunResult, decision: Decision) -> str:
    """The run's end in the words the dock uses (proposed ≠ executed ≠ verified)."""
    if result.status == "verified":
        return "Verified: executed once and confirmed by reading the part back"
    if result.status == "cancelled":
        return f"Cancelled: {_reason(decision)}; nothing was executed"
    if result.error is None:
        return result.status
    restored = "; the part was restored exactly as it was" if result.restored else ""
    return f"Failed at {result.error.layer}: {result.error.message}{restored}"


def _visible(value: Any) -> Any:
    """Every string of an agent's spec filtered as a model's text is (``visible_text``)."""
    if isinstance(value, str):
        return visible_text(value)
    if isinstance(value, list):
        return [_visible(v) for v in value]
    if isinstance(value, dict):
        return {k: _visible(v) for k, v in value.items()}
    return value


def _rejected(result: RunResult | None) -> NoReturn:
    if result is None or result.error is None:  # pragma: no cover - a rejected run has one
        raise ToolRefused("compile", "the plan could not be made")
    raise ToolRefused(result.error.layer, result.error.message, run_id=result.run_id,
                      status=result.status, diagnostics=_diagnostics(result.error.message))


def _diagnostics(message: str) -> list[str]:
    """The problems of a rejection, one per line (a compile error lists them ``  - ...``)."""
    lines = [line.strip().removeprefix("- ") for line in message.splitlines()]
    return [line for line in lines if line]


def _not_waiting(runs_dir: Path, run_id: str) -> str:
    try:
        result = RunDir(runs_dir, run_id).read_result()
    except ValueError:
        result = None
    if result is not None:
        return (f"run {run_id} is {result.status}, not a plan waiting for approval; nothing "
                "executed")
    return (f"run {run_id} has no plan waiting in this server; plan it with plan_change "
            "(plans do not outlive the server that made them)")


def _plan_title(waiting: Waiting) -> str:
    plan = waiting.controller.plan
    summary = plan.summary() if plan is not None else ""
    return (f"{waiting.client} asks to execute run {waiting.run_id} on "
            f"{waiting.target.model_name}/{waiting.target.part_name} ({waiting.mode}): "
            f"{summary}")


def _undo_title(result: RunResult) -> str:
    return (f"undo run {result.run_id}: put {result.target.model_name}/"
            f"{result.target.part_name} back as it was before it")


def _undo_text(result: RunResult) -> str:
    before, after = result.before, result.after
    if before is None or after is None:
        return _undo_title(result)
    return (f"{_undo_title(result)}\nnow:  {after.node_count} nodes, {after.element_count} "
            f"elements\nback: {before.node_count} nodes, {before.element_count} elements")


def _write_client(run_dir: Path, client: str) -> None:
    """``client.json``: which MCP client started the run (docs/architecture.md §7)."""
    if run_dir.is_dir():
        (run_dir / "client.json").write_text(json.dumps({"client": client}) + "\n",
                                             encoding="utf-8")
