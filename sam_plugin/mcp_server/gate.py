"""The gated pipeline as an MCP client sees it: plan a change, have a person approve it,
execute it once and verify; undo, also approved (docs/mcp.md, docs/architecture.md §1).

Nothing here is a second copy of a rule: a plan is ``RunController.plan_calls`` (the same
routing, call guard, compile chain and plan builder as the dock), an execution is the
controller's ``execute`` (drift check I3, the plan's hash I11, the journal I8, verification,
restore), an undo is the store's ``undo_run``. What the gate adds is who may say yes: only a
person, on a channel of ``waiting.py``, for the very SHA-256 the plan has, in a decision sealed
for its request (``approval.py``).

A plan is kept in its run directory, sealed (``kept_plan.py``), with its approval request: a
person may decide before any ``execute_plan`` asks, and a server started later on the same
workspace makes the plan again under the same run id and executes it when the part and the
plan are unchanged. Each plan this server holds has its own controller (a controller holds one
run); controllers whose run ended are used again. One host operation runs at a time
(``host_lock``); waiting for a person holds no lock.
"""

from __future__ import annotations

import asyncio
import json
import logging
import shlex
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NoReturn

from sam_plugin.compilers import registry
from sam_plugin.compilers.plan import Plan
from sam_plugin.compilers.protocol import Target
from sam_plugin.compilers.spec.ir import Spec
from sam_plugin.compilers.spec.reading import spec_from_json
from sam_plugin.errors import ForgedRecord, SpecRejected, SubmitRefused, ToolRefused, UndoRefused
from sam_plugin.mcp_server import approval, kept_plan
from sam_plugin.mcp_server.approval import APPROVAL_CHANNELS, ApprovalRequest, Channel, Decision
from sam_plugin.mcp_server.arguments import (
    MAX_WAIT_SECONDS,
    ExecutePlanArgs,
    PlanChangeArgs,
    UndoRunArgs,
)
from sam_plugin.mcp_server.kept_plan import HASH_NAME, KeptPlan
from sam_plugin.mcp_server.outcome import (
    Outcome,
    decision_data,
    outcome_words,
    plan_title,
    reason,
    renamed_hash,
    undo_text,
    undo_title,
)
from sam_plugin.mcp_server.waiting import Approver, standing, wait_for_decision
from sam_plugin.runtime.config.policy import RunPolicy
from sam_plugin.runtime.config.settings import ProviderSettings
from sam_plugin.runtime.event_types import ApprovalRequested
from sam_plugin.runtime.host_gateway import HostGateway
from sam_plugin.runtime.observe.regions import RegionIndexCache
from sam_plugin.runtime.run.controller import RunController
from sam_plugin.runtime.run.phases import TERMINAL, Phase
from sam_plugin.runtime.store.file_lock import is_locked, try_lock
from sam_plugin.runtime.store.run_store import LOCK_NAME, RunDir, RunResult
from sam_plugin.runtime.store.undo import log_emitter, undo_moves, undo_refusal, undo_run
from sam_plugin.runtime.text_safety import visible_text

log = logging.getLogger(__name__)

MAX_WAITING = 8  # plans waiting at once; the oldest one nobody asked for makes room
PLAN_LIFETIME = MAX_WAIT_SECONDS  # how long a plan's approval request stands

# what a verified run (or an undo) does to the workspace file, if anything (``--save``)
SaveHook = Callable[[RunResult], RunResult]
# told what became of each plan and undo a person decided (the dock shows it)
Watcher = Callable[[Outcome], None]


@dataclass
class Waiting:
    """A plan that waits for a person, and its approval request."""

    controller: RunController
    run_id: str
    plan_sha256: str
    mode: str
    target: Target
    client: str
    request: ApprovalRequest
    asking: bool = False  # an execute_plan waits for its decision now
    announced: set[str] = field(default_factory=set)  # channels approval_requested logged

    @property
    def plan(self) -> Plan | None:
        return self.controller.plan

    @property
    def run_dir(self) -> Path:
        return self.controller.runs_dir / self.run_id


@dataclass
class Gate:
    host: HostGateway
    runs_dir: Path
    settings: ProviderSettings = field(default_factory=ProviderSettings)
    policy: RunPolicy | None = None
    save: SaveHook | None = None
    # channels of this process besides elicitation (the dock inside SAM)
    approvers: list[Approver] = field(default_factory=list)
    # where a person may approve (``--approval``, Settings): a site may turn one off
    channels: tuple[Channel, ...] = APPROVAL_CHANNELS
    watchers: list[Watcher] = field(default_factory=list)
    host_lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    regions: RegionIndexCache = field(default_factory=RegionIndexCache)  # observe's L2
    _waiting: dict[str, Waiting] = field(default_factory=dict)
    _idle: list[RunController] = field(default_factory=list)
    # answers awaited in the background, by request id (``open_request``)
    _settling: dict[str, asyncio.Future[dict[str, Any]]] = field(default_factory=dict)

    # -- plan_change ------------------------------------------------------------------------

    async def plan_change(self, args: PlanChangeArgs, client: str) -> dict[str, Any]:
        """Observe, route, check and compile the client's calls, build the plan; nothing
        runs. The plan is kept, sealed, with its approval request: it waits for a person.
        Calls left out are computed from the spec's steps."""
        spec = _read_spec(args.mode, _visible(args.spec)).as_json()
        calls = None if args.calls is None else [(c.name, c.arguments) for c in args.calls]
        target = Target(model_name=args.model, part_name=args.part)
        controller = await self._planned(args.request, args.mode, target, spec, calls, None)
        run_id = controller.run_id
        assert run_id is not None
        _write_client(self.runs_dir / run_id, client)
        if controller.phase != Phase.PLAN or controller.plan is None:
            self._idle.append(controller)
            _rejected(controller.result)
        plan = controller.plan
        fingerprint, normalized = controller.observed
        kept = kept_plan.keep(self.runs_dir / run_id, KeptPlan(
            run_id=run_id, mode=args.mode, model=args.model, part=args.part,
            request=args.request, spec=json.dumps(spec, ensure_ascii=False),
            calls=json.dumps(calls, ensure_ascii=False), fingerprint=fingerprint or "",
            normalized=json.dumps(normalized, ensure_ascii=False),
            plan_text=plan.text(HASH_NAME), plan_sha256=plan.script_sha256, client=client))
        request = approval.new_request(
            "execute", run_id, plan.script_sha256,
            plan_title(client, run_id, target, args.mode, plan), kept_plan.approval_text(kept),
            self._plan_channels(), client, PLAN_LIFETIME)
        approval.write_request(self.runs_dir / run_id, request)
        self._waiting[run_id] = Waiting(controller, run_id, plan.script_sha256, args.mode,
                                        target, client, request)
        return {
            "run_id": run_id, "status": "waiting_for_approval",
            "plan_sha256": plan.script_sha256, "plan": renamed_hash(plan.model_dump(mode="json")),
            "text": plan.text(HASH_NAME),
            # the spec as the dock renders it, and where it disagrees with the part now
            "spec_text": controller.spec_text, "spec_warnings": controller.review_warnings,
            "next": "call execute_plan with this run_id and plan_sha256 (wait_seconds: 0 "
                    "answers at once; then poll run_status). " + self.how_to_approve(run_id)
                    + " Nothing runs before.",
        }

    async def _planned(self, request: str, mode: str, target: Target, spec: Any,
                       calls: list[tuple[str, Any]] | None, kept: str | None) -> RunController:
        """A controller that planned the calls (its phase PLAN, or the run rejected)."""
        async with self.host_lock:
            self._make_room()
            controller = self._controller()
            try:
                await controller.plan_calls(request, mode, target, spec=spec, calls=calls,
                                            source="mcp", run_id=kept)
            except SubmitRefused as refused:
                self._idle.append(controller)
                raise ToolRefused("observation", str(refused)) from None
        return controller

    def how_to_approve(self, run_id: str) -> str:
        """Where a person approves this server's plans, in words (the channels allowed)."""
        ways = {"elicitation": "on the client's form", "dock": "in the SAM dock",
                "command": f"with `sam-agent approve {run_id} --runs-dir "
                           f"{shlex.quote(str(self.runs_dir))}` at a terminal"}
        said = [ways[c] for c in self._plan_channels()]
        if not said:
            return "No channel on which a person can approve is turned on (--approval)."
        return "A person approves it " + (", or ".join(said)) + "."

    def _plan_channels(self) -> tuple[Channel, ...]:
        docked = any(a.channel == "dock" for a in self.approvers)
        return tuple(c for c in self.channels if c != "dock" or docked)

    # -- execute_plan -----------------------------------------------------------------------

    async def execute_plan(self, args: ExecutePlanArgs, client: str,
                           approvers: list[Approver], channels: tuple[Channel, ...]
                           ) -> dict[str, Any]:
        """The person's decision on the plan, then its one execution and verification, or
        its end (cancelled). A decision recorded already is acted on at once; with
        ``wait_seconds`` 0 an open request is answered ``waiting_for_approval`` at once; else
        the call waits for it up to ``wait_seconds`` on this call's ``channels``."""
        waiting = await self.asking_for(args, channels)
        decision = self._standing(waiting)
        if decision is None and args.wait_seconds == 0:
            return self._still_waiting(waiting)
        if decision is None:
            waiting.asking = True
            try:
                decision = await wait_for_decision(waiting.run_dir, waiting.request,
                                                   args.wait_seconds, approvers, waiting.plan)
            finally:
                waiting.asking = False
        return await self._decided(waiting, decision)

    async def open_request(self, args: ExecutePlanArgs, channels: tuple[Channel, ...]
                           ) -> ApprovalRequest:
        """``execute_plan`` for a client that brings the person's answer in a later call
        (MCP 2026-07-28): the decision is awaited in the background meanwhile (this
        process's channels and ``sam-agent approve`` may decide; unanswered at this call's
        deadline, the plan is cancelled even if the client never comes back). Asked again
        while it waits, the same request is returned."""
        held = self._waiting.get(args.run_id)
        if held is not None and held.request.request_id in self._settling and \
                args.plan_sha256 == held.plan_sha256:
            return held.request
        waiting = await self.asking_for(args, channels)
        waiting.asking = True
        self._settling[waiting.request.request_id] = asyncio.ensure_future(
            self._settle(waiting, args.wait_seconds))
        return waiting.request

    async def _settle(self, waiting: Waiting, wait_seconds: float) -> dict[str, Any]:
        try:
            approvers = [a for a in self.approvers if a.channel in self.channels]
            decision = await wait_for_decision(waiting.run_dir, waiting.request, wait_seconds,
                                               approvers, waiting.plan)
        finally:
            waiting.asking = False
        return await self._decided(waiting, decision)

    def answer(self, run_id: str, request_id: str) -> tuple[ApprovalRequest, Path] | None:
        """The open request ``request_id`` of ``run_id`` and its run directory (where the
        client's answer is recorded), or None when it is settled or unknown."""
        waiting = self._waiting.get(run_id)
        if waiting is None or waiting.request.request_id != request_id or \
                request_id not in self._settling:
            return None
        return waiting.request, waiting.run_dir

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

    async def asking_for(self, args: ExecutePlanArgs, channels: tuple[Channel, ...]
                         ) -> Waiting:
        """The plan ``args`` names, held here or kept by an earlier server; refused when the
        SHA-256 is not its plan's, another call asks already, or no channel can be asked.
        Each channel it is put on is logged once (``approval_requested``)."""
        waiting = self._waiting.get(args.run_id) or await self._resume(args)
        if args.plan_sha256 != waiting.plan_sha256:
            raise ToolRefused(
                "execution", f"plan_sha256 {args.plan_sha256[:12]}… is not the SHA-256 of "
                f"run {args.run_id}'s plan; nothing executed. Execute only the plan_sha256 "
                "plan_change returned (I11)")
        if waiting.asking:
            raise ToolRefused("execution", f"run {args.run_id} is waiting for a person's "
                              "decision already (another execute_plan asked)")
        if not channels:
            raise ToolRefused("execution", "no channel on which a person can approve is open "
                              f"to this client (--approval allows {', '.join(self.channels)})")
        for channel in channels:
            self.offered(waiting, channel)
        return waiting

    def offered(self, waiting: Waiting, channel: Channel) -> None:
        """``waiting`` is put before a person on ``channel``: logged once per channel
        (``approval_requested``), whether an ``execute_plan`` asks or the dock offers it."""
        if channel not in waiting.announced:
            waiting.controller.approval_requested(channel)
            waiting.announced.add(channel)

    def has_decision(self, run_id: str) -> bool:
        """Whether a decision on the plan of ``run_id`` stands already (held or kept)."""
        waiting = self._waiting.get(run_id)
        if waiting is not None:
            return self._standing(waiting) is not None
        try:
            found = kept_request(self.runs_dir, run_id)
        except ToolRefused:
            return False
        return found is not None and standing(self.runs_dir / run_id, found[1]) is not None

    def _standing(self, waiting: Waiting) -> Decision | None:
        """The decision on the plan now; past the request's deadline, ``expired``."""
        decision = standing(waiting.run_dir, waiting.request)
        if decision is None and waiting.request.expired():
            decision = approval.decide(waiting.run_dir, waiting.request, "expired", "timeout",
                                       "nobody answered before the deadline")
        return decision

    def _still_waiting(self, waiting: Waiting) -> dict[str, Any]:
        return {"run_id": waiting.run_id, "status": "waiting_for_approval",
                "plan_sha256": waiting.plan_sha256, "wait_seconds": 0, "decision": None,
                "message": "Waiting for a person's approval; nothing has run.",
                "next": "poll run_status with this run_id; once it says approved, call "
                        "execute_plan again with the same run_id and plan_sha256: it runs at "
                        "once. " + self.how_to_approve(waiting.run_id)}

    async def _decided(self, waiting: Waiting, decision: Decision) -> dict[str, Any]:
        controller = waiting.controller
        self._waiting.pop(waiting.run_id, None)
        try:
            if decision.approves(waiting.request):
                async with self.host_lock:
                    result = self._saved(await controller.execute(
                        approved_by=decision.channel))
            else:
                result = controller.decline_plan(by=decision.channel, reason=reason(decision))
        finally:
            self._idle.append(controller)
        self._tell(Outcome("execute", waiting.run_id, waiting.client, decision, result,
                           spec_text=controller.spec_text))
        return {"run_id": waiting.run_id, "status": result.status,
                "message": outcome_words(result, decision),
                "decision": decision_data(decision),
                "result": renamed_hash(result.model_dump(mode="json"))}

    # -- a plan kept by an earlier server ------------------------------------------------

    async def _resume(self, args: ExecutePlanArgs) -> Waiting:
        """The plan kept in the run's directory, made again here under its run id; it waits
        only when the part is unchanged and the plan comes out the same."""
        run_id = args.run_id
        run_dir = self.runs_dir / run_id
        kept, request = _kept(self.runs_dir, run_id)
        if args.plan_sha256 != kept.plan_sha256:
            raise ToolRefused(
                "execution", f"plan_sha256 {args.plan_sha256[:12]}… is not the SHA-256 of "
                f"run {run_id}'s plan; nothing executed. Execute only the plan_sha256 "
                "plan_change returned (I11)")
        if is_locked(run_dir / LOCK_NAME):
            raise ToolRefused("execution", f"run {run_id}'s plan is held by another sam-agent "
                              "mcp process, where it waits; call execute_plan on that server, "
                              "or poll run_status")
        target = Target(model_name=kept.model, part_name=kept.part)
        spec, calls = kept.inputs()
        controller = await self._planned(kept.request, kept.mode, target, spec, calls, run_id)
        plan = controller.plan
        if controller.phase != Phase.PLAN or plan is None:
            self._idle.append(controller)
            result = controller.result
            error = result.error.message if result is not None and result.error else "refused"
            raise ToolRefused("observation", f"run {run_id}: its kept plan cannot be made again "
                              f"on the part as it is now ({error}); nothing executed. Plan it "
                              "again")
        changed = _changed(kept, controller.observed[0], plan)
        if changed is not None:
            controller.decline_plan(by="server", reason=changed)
            self._idle.append(controller)
            raise ToolRefused("observation", f"run {run_id}: {changed}; nothing executed. Plan "
                              "it again")
        waiting = Waiting(controller, run_id, plan.script_sha256, kept.mode, target,
                          kept.client, request)
        self._waiting[run_id] = waiting
        return waiting

    # -- undo_run ---------------------------------------------------------------------------

    async def undo_run(self, args: UndoRunArgs, client: str, approvers: list[Approver],
                       channels: tuple[Channel, ...]) -> dict[str, Any]:
        """Undo a verified run once a person approves (the same channels as a plan)."""
        refusal = undo_refusal(self.host, self.runs_dir, args.run_id)
        if refusal is not None:
            raise ToolRefused("execution", f"undo refused: {refusal}")
        if not channels:
            raise ToolRefused("execution", "no channel on which a person can approve is open "
                              f"to this client (--approval allows {', '.join(self.channels)})")
        run_dir = RunDir(self.runs_dir, args.run_id)
        result = run_dir.read_result()
        assert result is not None
        lock = try_lock(run_dir.file(approval.UNDO_LOCK_NAME))
        if lock is None:
            raise ToolRefused("execution", f"an undo of run {args.run_id} waits for a "
                              "person's decision already")
        try:
            request = approval.new_request(
                "undo", args.run_id, result.script_sha256 or "", undo_title(result),
                undo_text(result, undo_moves(self.host, self.runs_dir, args.run_id)),
                channels, client, args.wait_seconds)
            approval.write_request(run_dir.path, request)
            emit = log_emitter(run_dir)
            for channel in channels:
                emit(ApprovalRequested(channel=channel, action="undo"))
            decision = await wait_for_decision(run_dir.path, request, args.wait_seconds,
                                               approvers, undoing=result)
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
        self._tell(Outcome("undo", args.run_id, client, decision, record, undone_from=result))
        return {"run_id": args.run_id, "status": status, "decision": decision_data(decision),
                "result": renamed_hash(record.model_dump(mode="json"))}

    def _tell(self, outcome: Outcome) -> None:
        """Each watcher learns the outcome; one that fails changes nothing for the client."""
        for watcher in list(self.watchers):
            try:
                watcher(outcome)
            except Exception:
                log.warning("a watcher of run %s's outcome failed", outcome.run_id,
                            exc_info=True)

    # -- what waits ------------------------------------------------------------------------

    def waiting(self, run_id: str) -> Waiting | None:
        return self._waiting.get(run_id)

    def waiting_runs(self) -> list[Waiting]:
        return list(self._waiting.values())

    def close(self) -> None:
        """Let go of every run: the plans that wait stay kept in their run directories (a
        later server on the same workspace executes them once a person approved)."""
        for task in self._settling.values():
            task.cancel()
        self._settling.clear()
        self._idle += [w.controller for w in self._waiting.values()]
        self._waiting.clear()
        for controller in self._idle:
            controller.let_go()

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
                             policy=self.policy, provider_name="mcp", regions=self.regions,
                             units_from_model=True)

    def _saved(self, result: RunResult) -> RunResult:
        if self.save is None or result.status not in ("verified", "undone"):
            return result
        return self.save(result)


def kept_request(runs_dir: Path, run_id: str) -> tuple[KeptPlan, ApprovalRequest] | None:
    """The plan kept for ``run_id`` and its request, when it has not ended (None: no plan
    is kept, or the run ended); ``ToolRefused`` when either is forged."""
    run_dir = runs_dir / run_id
    if not run_dir.is_dir() or (run_dir / "result.json").exists():
        return None
    try:
        kept = kept_plan.read_kept(run_dir)
        request = approval.read_request(run_dir, "execute")
    except ForgedRecord as forged:
        raise ToolRefused("execution", str(forged)) from None
    if kept is None or request is None:
        return None
    if request.plan_sha256 != kept.plan_sha256:
        raise ToolRefused("execution", f"run {run_id}: its approval request names another "
                          "plan than the one kept; refused as forged, nothing runs")
    return kept, request


def _kept(runs_dir: Path, run_id: str) -> tuple[KeptPlan, ApprovalRequest]:
    found = kept_request(runs_dir, run_id)
    if found is None:
        raise ToolRefused("execution", _not_waiting(runs_dir, run_id))
    return found


def _changed(kept: KeptPlan, fingerprint: str | None, plan: Plan) -> str | None:
    """Why the plan made again is not the one a person was asked about (None: it is)."""
    if fingerprint != kept.fingerprint:
        return (f"the part {kept.model}/{kept.part} changed since the plan was made "
                f"(fingerprint {kept.fingerprint} then, {fingerprint} now)")
    if plan.script_sha256 != kept.plan_sha256 or plan.text(HASH_NAME) != kept.plan_text:
        return "the plan made again on this workspace is not the plan that was kept"
    return None


def _read_spec(mode: str, spec: Any) -> Spec:
    """The spec IR of ``spec``, read as the controller reads it, so that a bad one is
    refused naming its problems before anything is planned."""
    try:
        return spec_from_json(spec, registry.get_module(mode).vocabulary)
    except SpecRejected as rejected:
        raise ToolRefused("spec", "the spec is refused: nothing was planned",
                          diagnostics=rejected.problems) from None


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
    return (f"run {run_id} has no plan waiting in {runs_dir}: plan it with plan_change "
            "(execute_plan takes the run_id plan_change returned)")


def _write_client(run_dir: Path, client: str) -> None:
    """``client.json``: which MCP client started the run (docs/architecture.md §7)."""
    if run_dir.is_dir():
        (run_dir / "client.json").write_text(json.dumps({"client": client}) + "\n",
                                             encoding="utf-8")
