"""The generic gated controller: observe, design, wait for the human, collect, compile,
show the plan and wait for the human again, execute once, verify (docs/architecture.md §1). It knows
nothing about any domain: modules come through the DomainModule protocol (which also
describes the plan), SAM through the host gateway, the LLM through the provider.

The one script execution is synchronous (``host.execute``) inside the async ``execute`` (or
``confirm``, when the plan-wait policy lets the plan through): it runs on the caller's thread
(the GUI thread under qasync), as SAM requires. What executes is byte for byte the script
whose SHA-256 ``plan.json`` holds (I11).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import time
import traceback
from collections.abc import Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NoReturn, TypeVar

from sam_plugin.compilers import registry
from sam_plugin.compilers.chain import CompileChain
from sam_plugin.compilers.evidence import Check, Prediction, Readback
from sam_plugin.compilers.plan import Plan, PlanDetail
from sam_plugin.compilers.protocol import CompileContext, DomainModule, Fragment, Route, Target
from sam_plugin.compilers.registry import MODES
from sam_plugin.errors import (
    AlreadySubmitted,
    CompileError,
    ControllerBusy,
    ControllerStateError,
    ExplorationChangedModel,
    ProviderError,
    RevisionRefused,
    RoundRejected,
    RouteRefused,
    SubmitRefused,
    UndoRefused,
)
from sam_plugin.runtime.config.policy import PLAN_WAITS, RunPolicy
from sam_plugin.runtime.config.settings import ProviderSettings
from sam_plugin.runtime.events import ControllerEvent, EventBus, Listener
from sam_plugin.runtime.observe.exploration import explore
from sam_plugin.runtime.observe.observation import Observation, observe, target_fingerprint
from sam_plugin.runtime.observe.regions import RegionIndex, RegionIndexCache, region_index
from sam_plugin.runtime.ports import ChatModel, Host
from sam_plugin.runtime.provider.constraint import RoundShape
from sam_plugin.runtime.provider.probe import Detection, Probe, detect
from sam_plugin.runtime.provider.probe import apply as apply_detection
from sam_plugin.runtime.provider.types import ChatResponse, RequestOptions, StreamListener
from sam_plugin.runtime.run import budgets, constrained, revision
from sam_plugin.runtime.run.call_guard import check_calls
from sam_plugin.runtime.run.collection import (
    CollectedCall,
    RoundAnswer,
    RoundCall,
    call_format_rejection,
    design_messages,
    is_call_format_error,
    max_rounds,
    offered_tools,
    round_messages,
)
from sam_plugin.runtime.run.design_check import unworthy_spec
from sam_plugin.runtime.run.design_context import target_state_note
from sam_plugin.runtime.run.phases import BUSY, STREAMING, TERMINAL, Phase, check_transition
from sam_plugin.runtime.run.plan_builder import build_plan, plan_waits
from sam_plugin.runtime.run.repair import Rejection, RepairBudget, SentCall, rejection
from sam_plugin.runtime.run.restore import (
    NO_RESTORE_NOTE,
    PARTIAL_WARNING,
    can_restore,
    put_back,
    snapshot_unavailable,
    unavailable_words,
)
from sam_plugin.runtime.run.target_check import target_problem
from sam_plugin.runtime.store.journal import UNKNOWN_ADVICE, SubmissionJournal
from sam_plugin.runtime.store.run_store import (
    JOURNAL_NAME,
    ErrorLayer,
    ErrorRecord,
    PartOutcome,
    RunDir,
    RunResult,
    RunStatus,
    StateSummary,
    new_run_id,
    recover_unknown_runs,
    tool_response_name,
)
from sam_plugin.runtime.store.scrubber import Scrubber
from sam_plugin.runtime.store.undo import keep_snapshot, undo_refusal, undo_run
from sam_plugin.runtime.store.usage import UsageMeter
from sam_plugin.runtime.text_safety import visible_text
from sam_plugin.runtime.verify.property_verifier import property_value_checks, record_before
from sam_plugin.runtime.verify.verifier import all_passed, verify

__all__ = [
    "ControllerBusy",
    "ControllerEvent",
    "ControllerStateError",
    "DRIFT_MESSAGE",
    "PARTIAL_WARNING",
    "Phase",
    "RunController",
    "RevisionRefused",
    "RunResult",
    "SubmitRefused",
    "UndoRefused",
]

log = logging.getLogger(__name__)
_T = TypeVar("_T")

DRIFT_MESSAGE = "the target changed since the spec was written; submit again"
CANCEL_SETTLE_SECONDS = 2.0
PREFLIGHT_STOPPED = (
    "It stopped in its preflight checks, before the first change: the part was not modified. "
    "This run is not retried; fix what the check names and submit a new request."
)
SCRIPT_REFUSED = (
    "The script guard refused it before its first line ran: the part was not modified. "
    "This run is not retried; the composed script held a construct scripts may not use."
)


# (host, observation) -> text for the design prompt; may be async. Reads only.
Explorer = Callable[[Any, Observation], Any]


_PHASE_LAYER: dict[Phase, ErrorLayer] = {
    Phase.OBSERVING: "observation",
    Phase.EXPLORING: "observation",
    Phase.DESIGNING: "design",
    Phase.REVIEW: "observation",
    Phase.COLLECTING: "tool_call",
    Phase.COMPILING: "compile",
    Phase.PLAN: "compile",
    Phase.EXECUTING: "execution",
    Phase.VERIFYING: "verification",
    Phase.RESTORING: "execution",
}


def _default_provider_factory(settings: ProviderSettings) -> ChatModel:
    from sam_plugin.runtime.provider.client import ChatProvider

    return ChatProvider(settings)


@dataclass
class _Run:
    run_id: str
    dir: RunDir
    request: str
    mode: str
    target: Target
    module: DomainModule
    observation: Observation | None = None
    spec: str = ""
    route: Route | None = None
    before: Readback | None = None
    script_sha256: str | None = None
    submissions: int = 0
    sse_count: int = 0
    invalidated: str | None = None
    script: str = ""
    key: str | None = None
    prediction: Prediction | None = None
    predicted: PlanDetail | None = None
    regions: RegionIndex | None = None
    exploration: str = ""
    collected: list[CollectedCall] = field(default_factory=list)
    restored: bool = False
    stopped_before_change: bool = False  # the script failed in its preflight or was refused
    restore_unavailable: str | None = None
    restore_after: Readback | None = None  # the readback that proved (or disproved) a restore
    usage: UsageMeter | None = None
    design_messages: list[dict[str, Any]] = field(default_factory=list)
    spec_versions: int = 0  # versions of the spec written so far (Ask for changes adds one)
    detection: Detection | None = None  # the server and the profile (provider/probe.py)
    dropped: set[str] = field(default_factory=set)  # tools whose constraint the server broke
    rounds: int = 0  # collection rounds sent, repair rounds included
    one_call: bool = False  # ask for one tool per round (profile, or the server needs it)
    repairs: RepairBudget = field(default_factory=lambda: RepairBudget(0))


class _Ending(Exception):
    """Internal: how a run step ended, at which layer, with what message."""

    def __init__(self, layer: ErrorLayer, message: str):
        super().__init__(message)
        self.layer = layer
        self.message = message


class _Return(_Ending):
    """Internal: leave confirm back to Review (nothing executed)."""


class _Fail(_Ending):
    """Internal: end the run as Failed at ``layer``."""


class _Relay(StreamListener):
    """Forwards streamed text to the controller's listeners.

    Only the design stream feeds ``design_delta`` (the spec view); collection rounds forward
    reasoning only, so text a model writes next to its tool calls never poses as the spec.
    """

    def __init__(self, emit: Callable[[str, dict[str, Any]], object], *, spec: bool):
        self._emit = emit
        self._spec = spec

    def on_content(self, text: str) -> None:
        if self._spec:
            self._emit("design_delta", {"text": visible_text(text)})

    def on_reasoning(self, text: str) -> None:
        self._emit("reasoning_delta", {"text": visible_text(text)})

    def on_retry(self, error: Exception) -> None:
        # the provider restarts the stream: views must drop what they showed so far
        if self._spec:
            self._emit("design_delta", {"text": "", "reset": True})


def _entities(run: _Run) -> int:
    """Nodes and elements of the observed target (a call's output bound, budgets.py)."""
    part = run.observation.part if run.observation is not None else None
    return part.node_count + part.element_count if part is not None else 0


class RunController:
    _scrubber: Scrubber | None = None  # made on first use, remade when the key changes
    _scrubber_key = ""

    def __init__(
        self,
        *,
        runs_dir: Path,
        settings: ProviderSettings,
        host: Host,
        provider_factory: Callable[[ProviderSettings], ChatModel] = _default_provider_factory,
        language: str = "en",
        module_factory: Callable[[str], DomainModule] | None = None,
        composer: Callable[[Sequence[Fragment], str, Target], tuple[str, str, str]] | None = None,
        explorer: Explorer | None = None,
        policy: RunPolicy | None = None,
        provider_name: str = "",
        max_revisions: int = revision.DEFAULT_MAX_REVISIONS,
        server_probe: Probe | None = None,
    ):
        self.runs_dir = Path(runs_dir)
        self.provider_name = provider_name or settings.profile
        self.max_revisions = max_revisions
        self.settings = settings
        self.host = host
        self.language = language
        self._provider_factory = provider_factory
        self._server_probe = server_probe
        self._module_factory = module_factory or _registry_module
        self._composer = composer or _compose_with_composer
        self._explorer = explorer
        # when the plan waits, repair rounds, the undo budget (config/policy.py)
        self.policy = policy or RunPolicy.from_saved()
        self._regions = RegionIndexCache()
        self._bus = EventBus(scrubber=lambda value: self.scrubber.value(value))
        self._run: _Run | None = None
        self._stream_task: asyncio.Future[Any] | None = None
        self._cancel_requested = False
        self.phase: Phase = Phase.IDLE
        self.phase_label: str = "Idle"
        self.spec_text: str = ""
        self.route: Route | None = None
        self.result: RunResult | None = None
        self.plan: Plan | None = None  # the plan of the current run, once shown
        recovery = recover_unknown_runs(self.runs_dir, self.scrubber)  # after a crash (I8)
        self.unknown_runs: list[str] = recovery.unknown
        self.recovered_runs: list[str] = recovery.recovered  # marked ``unknown`` at this start

    # -- public API -------------------------------------------------------------------------

    @property
    def run_id(self) -> str | None:
        return self._run.run_id if self._run else None

    @property
    def scrubber(self) -> Scrubber:
        """The one scrubber of every artifact, event and message (follows the settings' key)."""
        key = self.settings.api_key.get_secret_value()
        scrubber = self._scrubber
        if scrubber is None or self._scrubber_key != key:
            scrubber = self._scrubber = Scrubber(key)
            self._scrubber_key = key
        return scrubber

    @property
    def journal(self) -> SubmissionJournal:
        return SubmissionJournal(self.runs_dir / JOURNAL_NAME)

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        return self._bus.subscribe(listener)

    async def submit(
        self, request: str, mode: str, target: Target, *, explore: bool = False
    ) -> Phase:
        """Observing → (Exploring) → Designing → Review, or Failed (result written)."""
        self._refuse_if_busy()
        module = self._check_submit(request, mode, target)
        run_id = self._new_run_id()
        if self._run is not None:
            self._run.dir.unlock()  # the earlier run ended; this process lets go of it
        run = _Run(
            run_id=run_id,
            dir=RunDir(self.runs_dir, run_id, self.scrubber).create().lock(),
            request=request,
            mode=mode,
            target=target,
            module=module,
            usage=UsageMeter(self.provider_name, self.settings.model),
        )
        self._run = run
        self._bus.log_path = run.dir.file("events.jsonl")
        self._cancel_requested = False
        self.spec_text, self.route, self.result, self.plan = "", None, None, None
        with self._outcome():
            await self._detect_server(run)
            self._set_phase(Phase.OBSERVING, "Observing the workspace (read-only)")
            run.dir.write_text("request.txt", request)
            self._observe(run)
            if explore:
                await self._explore(run)
            self._set_phase(Phase.DESIGNING, "Designing: the model is writing the spec")
            await self._design(run)
            self._honour_cancel()
            self._set_phase(Phase.REVIEW, "Review: spec proposed, waiting for your confirmation")
        return self.phase

    async def confirm(
        self, mode: str, target: Target, *, plan_wait: str | None = None
    ) -> RunResult | None:
        """Collect → compile → Plan; then, unless the plan waits for the analyst, execute once
        → verify. Returns the result, or None while the plan waits (phase PLAN: call
        ``execute`` or ``decline_plan``). ``plan_wait`` overrides ``policy.plan_wait``."""
        run = self._run
        if self.phase != Phase.REVIEW or run is None:
            raise ControllerStateError(
                f"confirm: no spec is waiting for review (phase {self.phase}); "
                "submit a request first"
            )
        policy = plan_wait or self.policy.plan_wait
        if policy not in PLAN_WAITS:
            raise ValueError(f"plan_wait: {policy!r} is not one of {', '.join(PLAN_WAITS)}")
        self._cancel_requested = False
        with self._outcome():
            self._check_drift(run, mode, target, when="confirm")
            self._bus.emit(run.run_id, "design_confirmed", {"tools": list(self._route(run).tools)})
            self._set_phase(Phase.COLLECTING, self._collecting_label(0))
            collected = await self._collect(run)
            self._set_phase(Phase.COMPILING, f"Compiling {len(collected)} collected call(s)")
            fragments, prediction = await self._compile(run, collected)
            script, sha, key = self._composer(fragments, run.run_id, run.target)
            run.script_sha256 = sha
            run.dir.write_text("generated_script.py", script)
            self._bus.emit(
                run.run_id, "script_composed", {"script_sha256": sha, "bytes": len(script)}
            )
            plan = self._show_plan(run, fragments, prediction, script, key)
            if plan_waits(plan, policy):
                return None
            self._bus.emit(run.run_id, "plan_approved", {"by": f"plan_wait={policy}"})
            await self._execute_plan(run, mode, target)
        return self.result

    async def execute(self, mode: str | None = None, target: Target | None = None) -> RunResult:
        """The analyst approved the plan: drift check, the one submission, verification.

        ``mode``/``target`` are what the caller shows now (the dock's combos); a change since
        submit fails the run, as at confirm (I3)."""
        run = self._run
        if self.phase != Phase.PLAN or run is None or self.plan is None:
            raise ControllerStateError(
                f"execute: no plan is waiting for approval (phase {self.phase})"
            )
        self._cancel_requested = False
        with self._outcome():
            self._bus.emit(run.run_id, "plan_approved", {"by": "analyst"})
            await self._execute_plan(run, mode or run.mode, target or run.target)
        assert self.result is not None
        return self.result

    async def revise(self, remark: str) -> Phase:
        """Ask for changes: Review → Designing (no tools) → Review with the new spec, which
        replaces the old one. A revision the provider cannot answer returns to Review with the
        previous spec. Bounded by ``max_revisions``; ``RevisionRefused`` names the reason."""
        run = self._run
        if self.phase != Phase.REVIEW or run is None:
            raise ControllerStateError(
                f"revise: no spec is waiting for review (phase {self.phase}); submit first")
        remark = revision.check_remark(remark, run.spec_versions - 1, self.max_revisions)
        self._cancel_requested = False
        self.result = None  # a revision starts a new answer to the same run
        previous = (run.spec, run.route)
        if run.spec_versions == 1:
            revision.keep_version(run.dir, 1, run.spec)
        with self._outcome():
            self._bus.emit(run.run_id, "revision_requested",
                           {"version": run.spec_versions + 1, "remark": remark})
            self._set_phase(Phase.DESIGNING, "Designing: the model is revising the spec")
            try:
                await self._design(run, remark=remark)
            except _Fail as failure:
                run.spec, run.route = previous
                self.spec_text, self.route = previous[0], previous[1]
                run.dir.write_text("design.txt", previous[0] + "\n")
                raise _Return(failure.layer, f"the revision failed, the previous spec stands: "
                                             f"{failure.message}") from None
            self._honour_cancel()
            self._set_phase(Phase.REVIEW, "Review: revised spec, waiting for your confirmation")
        return self.phase

    def decline_plan(self) -> RunResult:
        """The analyst declined the plan: the run ends ``cancelled``, nothing executed.

        ``cancelled`` (not ``rejected``, which says a layer sent the run back to Review):
        the analyst's own decision ended it, like Cancel at Review."""
        run = self._run
        if self.phase != Phase.PLAN or run is None:
            raise ControllerStateError(
                f"decline_plan: no plan is waiting for approval (phase {self.phase})"
            )
        self._bus.emit(run.run_id, "plan_declined", {"script_sha256": run.script_sha256})
        self._finish_cancelled("Cancelled: plan declined, nothing was executed")
        assert self.result is not None
        return self.result

    def _show_plan(
        self, run: _Run, fragments: list[Fragment], prediction: Prediction, script: str,
        key: str,
    ) -> Plan:
        """Build the plan (a shadow run that raises is a compile error, I7), write plan.json
        with the script's hash, and stop in Plan."""
        assert run.before is not None and run.script_sha256 is not None
        ctx = CompileContext(
            request_text=run.request,
            target=run.target,
            state=Prediction.from_readback(run.before),
            model=self.host.model(run.target.model_name),
            part=self.host.part(run.target),
        )
        try:
            plan, detail = build_plan(
                run_id=run.run_id, module=run.module, fragments=fragments, ctx=ctx,
                prediction=prediction, before=run.before, spec=run.spec,
                script_sha256=run.script_sha256,
            )
        except CompileError as error:
            raise _Return("compile", str(error)) from None
        run.dir.write_json("plan.json", plan.model_dump(mode="json"))
        run.script, run.key, run.prediction, run.predicted = script, key, prediction, detail
        self.plan = plan
        self._set_phase(Phase.PLAN, f"Plan: {plan.summary()}, waiting for you to execute")
        self._bus.emit(
            run.run_id,
            "plan_shown",
            {"script_sha256": plan.script_sha256, "destructive": len(plan.destructive),
             "warnings": len(plan.warnings), "calls": len(plan.calls)},
        )
        return plan

    async def _execute_plan(self, run: _Run, mode: str, target: Target) -> None:
        # Let the GUI breathe once before the synchronous tail; no await may sit between
        # the last drift check, the one execution and the readback.
        await asyncio.sleep(0)
        self._honour_cancel()
        self._check_drift(run, mode, target, when="execution")
        script = self._approved_script(run)
        assert run.script_sha256 is not None and run.key is not None
        assert run.prediction is not None
        self._execute_once(run, script, run.script_sha256, run.key)
        self._verify(run, run.prediction)

    def _approved_script(self, run: _Run) -> str:
        """The script to submit: its bytes must hash to the SHA-256 in plan.json (I11)."""
        try:
            shown = json.loads(run.dir.file("plan.json").read_text(encoding="utf-8"))
            approved = str(shown["script_sha256"])
        except (OSError, ValueError, KeyError) as error:
            raise _Fail("execution", f"plan.json cannot be read ({error}); nothing executed") \
                from None
        actual = hashlib.sha256(run.script.encode("utf-8")).hexdigest()
        if not (actual == approved == run.script_sha256):
            raise _Fail(
                "execution",
                f"the script to submit (sha256 {actual[:12]}) is not the one the plan showed "
                f"(sha256 {approved[:12]}); nothing executed",
            )
        return run.script

    @contextlib.contextmanager
    def _outcome(self) -> Iterator[None]:
        """How a submit or confirm ended becomes the run's state (each writes result.json)."""
        try:
            yield
        except _Return as back:
            self._return_to_review(back.layer, back.message)
        except _Fail as failure:
            self._finish_failed(failure.layer, failure.message)
        except asyncio.CancelledError:
            self._finish_cancelled()
            if not self._cancel_requested:
                raise
        except Exception as error:
            self._finish_internal_error(error)

    async def cancel(self) -> None:
        """Stop a run before execution: closes a running stream; Cancelled (result written)."""
        if self.phase in STREAMING:
            self._cancel_requested = True
            if self._stream_task is not None and not self._stream_task.done():
                self._stream_task.cancel()
            # let the awaiting submit/confirm close the stream and write the result (polled:
            # an asyncio.Event would bind to one loop, and a controller may outlive it)
            loop = asyncio.get_running_loop()
            deadline = loop.time() + CANCEL_SETTLE_SECONDS
            while self.phase not in TERMINAL and loop.time() < deadline:
                await asyncio.sleep(0.005)
        elif self.phase == Phase.REVIEW:
            self._finish_cancelled()
        elif self.phase == Phase.PLAN:
            self.decline_plan()
        elif self.phase in (Phase.COMPILING, Phase.EXECUTING, Phase.VERIFYING):
            raise ControllerStateError(
                f"cancel: the run is {self.phase}; a submitted script cannot be called back"
            )

    def invalidate(self, reason: str) -> None:
        """The GUI's mode or target changed: a run in Review fails; a later one fails before
        execution."""
        if self._run is None:
            return
        if self.phase in (Phase.REVIEW, Phase.PLAN):
            self._finish_failed("observation", f"{DRIFT_MESSAGE} ({reason})")
        elif self.phase in (Phase.COLLECTING, Phase.COMPILING):
            self._run.invalidated = reason

    # -- submit -----------------------------------------------------------------------------

    def _refuse_if_busy(self) -> None:
        if self.phase in BUSY:
            raise ControllerBusy(f"submit: a run is {self.phase}; wait for it or cancel it")
        if self.phase == Phase.REVIEW:
            raise ControllerBusy(
                "submit: a spec is waiting for review; confirm or cancel it before submitting again"
            )
        if self.phase == Phase.PLAN:
            raise ControllerBusy(
                "submit: a plan is waiting for approval; execute or decline it before "
                "submitting again"
            )

    def _check_submit(self, request: str, mode: str, target: Target) -> DomainModule:
        missing = self.settings.missing_fields()
        if missing:
            raise SubmitRefused(
                "provider settings incomplete: missing "
                + ", ".join(missing)
                + " (set them in the dock settings or SAM_AGENT_BASE_URL, SAM_AGENT_API_KEY, "
                "SAM_AGENT_MODEL)"
            )
        if not request.strip():
            raise SubmitRefused("request: empty; describe the change you want")
        if mode not in MODES:
            raise SubmitRefused(f"mode: unknown mode {mode!r}; legal modes: {', '.join(MODES)}")
        if not target.model_name.strip() or not target.part_name.strip():
            raise SubmitRefused("target: pick a model and a part (a new part name may be typed)")
        if self.host is None or getattr(self.host, "mdb", None) is None:
            raise SubmitRefused("host: no SAM database is open")
        try:
            self.runs_dir.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            reason = (
                "it is a file, not a directory"
                if self.runs_dir.is_file()
                else f"cannot create it ({error.strerror or error})"
            )
            raise SubmitRefused(f"runs directory {self.runs_dir}: {reason}") from None
        try:
            return self._module_factory(mode)
        except (ImportError, ValueError) as error:
            raise SubmitRefused(f"mode {mode!r}: domain module unavailable ({error})") from None

    async def _detect_server(self, run: _Run) -> None:
        """The server at the provider's URL (probed once per URL) and the profile it implies,
        unless one was set; the run's requests follow that profile."""
        detection = await detect(self.settings, self._server_probe)
        self.settings = apply_detection(self.settings, detection)
        run.detection = detection
        self._bus.emit(run.run_id, "server_detected", {
            **detection.result_fields(), "profile_from": detection.profile_from,
            "note": detection.server.note, "text": detection.words()})

    def _new_run_id(self) -> str:
        journal = self.journal
        for _ in range(20):
            run_id = new_run_id()
            if not (self.runs_dir / run_id).exists() and journal.state_of(run_id) == "none":
                return run_id
        raise SubmitRefused(f"runs directory {self.runs_dir}: could not allocate a fresh run id")

    def _observe(self, run: _Run) -> None:
        try:
            observation = observe(self.host, run.mode, run.target)
        except Exception as error:  # the host's own failure, reported at its layer
            log.exception("observation failed")
            raise _Fail("observation", f"could not read the workspace: {error}") from None
        self._check_target_exists(run, observation)
        run.observation = observation
        run.before = observation.readback
        if not observation.target_is_empty:
            run.regions = region_index(
                self.host.part(run.target), observation.fingerprint, cache=self._regions
            )
        workspace = observation.model_dump(mode="json")
        workspace["regions"] = run.regions.model_dump(mode="json") if run.regions else None
        run.dir.write_json("workspace.json", workspace)
        self._record_values_before(run)
        self._bus.emit(
            run.run_id,
            "observation_completed",
            {
                "target_exists": observation.index.target_part_exists,
                "node_count": observation.readback.node_count,
                "element_count": observation.readback.element_count,
                "fingerprint": observation.fingerprint,
            },
        )

    def _check_target_exists(self, run: _Run, observation: Observation) -> None:
        """Fail before any provider call when the target cannot be acted on."""
        target = run.target
        problem = target_problem({m.name: m.parts for m in observation.index.models}, target,
                                 run.module)
        if problem is not None and problem.missing == "model":
            raise _Fail(
                "observation",
                f"model {target.model_name!r} does not exist; "
                f"models: {', '.join(problem.models) or 'none'}",
            )
        if problem is not None:
            raise _Fail(
                "observation",
                f"part {target.part_name!r} does not exist in model {target.model_name!r} "
                f"(parts: {', '.join(problem.parts) or 'none'}); {run.module.title} mode works "
                "on an existing part: pick one, or build it in Part mode first",
            )

    async def _explore(self, run: _Run) -> None:
        """Bounded read-only questions about the target before the spec (issue 8).

        The facts go into the design request as text; that request still has no tools (I1).
        """
        assert run.observation is not None
        if run.observation.target_is_empty:
            self._set_phase(
                Phase.EXPLORING, "Exploring skipped: the target part is missing or empty"
            )
            return
        self._set_phase(Phase.EXPLORING, "Exploring the target (read-only)")
        if self._explorer is not None:
            try:
                found = self._explorer(self.host, run.observation)
                if asyncio.iscoroutine(found):
                    found = await found
            except Exception as error:
                raise _Fail("observation", f"exploration failed: {error}") from None
            run.exploration = str(found or "")
            return
        run.exploration = await self._explore_with_model(run)

    async def _explore_with_model(self, run: _Run) -> str:
        assert run.observation is not None
        target, fingerprint = run.target, run.observation.fingerprint
        summary = self._prompt_observation(run)
        try:
            result = await self._provider_task(
                lambda provider: explore(
                    provider,
                    request=run.request,
                    observation_summary=summary,
                    part=self.host.part(target),
                    fingerprint_fn=lambda: target_fingerprint(self.host.readback(target)),
                    fingerprint=fingerprint,
                    listener=lambda event, data: self._bus.emit(run.run_id, event, data),
                    cache=self._regions,
                    max_tokens=budgets.design_tokens(self.settings),
                )
            )
        except ExplorationChangedModel as error:
            raise _Fail("observation", str(error)) from None
        except ProviderError as error:
            if error.raw_sse:  # every byte received is evidence, a failed turn's too
                run.dir.write_bytes("provider_exploration_response.failed.sse", error.raw_sse)
            raise _Fail("provider", f"the exploration request failed: {error}") from None
        run.dir.write_json("exploration.json", result)
        for turn, raw in enumerate(result.raw_sse, start=1):
            run.dir.write_bytes(f"provider_exploration_response.{turn}.sse", raw)
        return result.design_context()

    def _prompt_observation(self, run: _Run) -> dict[str, Any]:
        """L0/L1 (and L2 when the target has geometry): bounded whatever the model size."""
        assert run.observation is not None
        summary: dict[str, Any] = json.loads(run.observation.prompt_json())
        if run.regions is not None:
            summary["regions"] = run.regions.model_dump(mode="json")
        return summary

    async def _design(self, run: _Run, remark: str = "") -> None:
        assert run.observation is not None
        if remark:
            messages = revision.revision_messages(
                run.design_messages, run.spec, remark, self.language)
        else:
            messages = run.design_messages = self._design_messages(run)
        relay = _Relay(lambda event, data: self._bus.emit(run.run_id, event, data), spec=True)
        version = run.spec_versions + 1
        sse_name = ("provider_design_response.sse" if version == 1
                    else f"provider_design_response.{version}.sse")
        try:
            response = await self._stream(
                messages, None, relay, sse=sse_name,
                options=RequestOptions(max_tokens=budgets.design_tokens(self.settings)))
        except ProviderError as error:
            raise _Fail("provider", f"the design request failed: {error}") from None
        # what the analyst sees is what is stored and sent as confirmed (the same filter
        # as the streamed deltas)
        spec = visible_text(response.content).strip()
        run.spec = self.spec_text = spec
        run.dir.write_text("design.txt", spec + "\n" if spec else "")
        run.spec_versions = version
        if remark:
            revision.keep_version(run.dir, version, spec)
            revision.record_remark(run.dir, version, remark)
        if response.finish_reason == "length" and spec:
            raise _Fail(
                "design",
                f"the spec was cut off at its limit of {budgets.design_tokens(self.settings)} "
                "tokens (max_tokens; the setting design_max_tokens raises it); shorten the "
                "request",
            )
        unworthy = unworthy_spec(spec, run.module.title)
        if unworthy:
            raise _Fail("design", unworthy)
        try:
            route = run.module.route(spec, run.observation.target_is_empty)
        except RouteRefused as refused:
            raise _Fail("design", str(refused)) from None
        run.route = self.route = route
        run.dir.write_json("design_route.json", route)
        self._bus.emit(
            run.run_id,
            "design_received",
            {
                "method": route.method,
                "capabilities": route.capabilities,
                "tools": route.tools,
                "spec_chars": len(spec),
                "version": version,
                # calls answered to a tool-less design request are ignored, never collected
                "ignored_tool_calls": len(response.tool_calls),
            },
        )

    def _design_messages(self, run: _Run) -> list[dict[str, Any]]:
        assert run.observation is not None
        return design_messages(
            system_prompt=run.module.design_prompt(self.language),
            mode=run.mode,
            target=run.target,
            target_note=target_state_note(run.observation, run.target.part_name),
            observation=self._prompt_observation(run),
            exploration=run.exploration,
            request=run.request,
        )

    # -- confirm ----------------------------------------------------------------------------

    def _route(self, run: _Run) -> Route:
        assert run.route is not None
        return run.route

    def _check_drift(self, run: _Run, mode: str, target: Target, *, when: str) -> None:
        if run.invalidated:
            raise _Fail("observation", f"{DRIFT_MESSAGE} ({run.invalidated})")
        if mode != run.mode or target != run.target:
            raise _Fail(
                "observation",
                f"{DRIFT_MESSAGE} (at {when}: the dock shows {mode} {target.model_name}/"
                f"{target.part_name}, the spec was written for {run.mode} "
                f"{run.target.model_name}/{run.target.part_name})",
            )
        assert run.observation is not None
        try:
            now = self.host.readback(run.target)
        except Exception as error:
            raise _Fail("observation", f"could not re-read the target at {when}: {error}") from None
        if target_fingerprint(now) != run.observation.fingerprint:
            raise _Fail("observation", f"{DRIFT_MESSAGE} (the part was modified before {when})")
        run.before = now

    def _collecting_label(self, collected: int) -> str:
        expected = len(self._route(self._run).tools) if self._run else 0
        return f"Collecting tool calls {collected}/{expected} (collected, not executed)"

    async def _collect(self, run: _Run) -> list[CollectedCall]:
        """Rounds until every expected call is collected; a rejected answer gets a repair
        round while the budget lasts (runtime/run/repair.py), else the run returns to Review."""
        expected = list(self._route(run).tools)
        remaining = list(expected)
        collected: list[CollectedCall] = []
        run.rounds, run.repairs = 0, RepairBudget(self.policy.repair_rounds)
        run.one_call = self.settings.capabilities.one_call_per_round
        bound = max_rounds(expected, one_call_per_round=run.one_call)
        first_answers = 0
        repair: Rejection | None = None
        while remaining:
            if repair is None:
                if first_answers >= bound:
                    raise _Return(
                        "tool_call",
                        f"the model did not deliver {', '.join(remaining)} within {bound} "
                        "rounds",
                    )
                first_answers += 1
            offered = offered_tools(remaining, one_call_per_round=run.one_call)
            try:
                taken = await self._collection_round(run, collected, offered, repair)
            except RoundRejected as rejected:
                repair = self._repair_or_return(run, rejected.rejection)
                continue
            repair = None
            collected += taken
            remaining = remaining[len(taken) :]
            self._bus.emit(
                run.run_id,
                "collection_progress",
                {"collected": len(collected), "expected": len(expected)},
            )
            self._relabel(self._collecting_label(len(collected)))
        run.collected = collected
        return collected

    async def _collection_round(
        self,
        run: _Run,
        collected: list[CollectedCall],
        offered: list[str],
        repair: Rejection | None,
    ) -> list[CollectedCall]:
        """One round: the calls it delivered, checked (I4, I5); raises RoundRejected for an
        answer that breaks the rules."""
        run.rounds += 1
        round_number = run.rounds
        caps = self.settings.capabilities
        messages = round_messages(
            system_prompt=run.module.collection_prompt(self.language),
            request=run.request,
            spec=run.spec,
            collected=collected,
            remaining=offered,
            repair=repair,
        )
        definitions = run.module.tool_definitions(offered, strict=caps.strict_tools)
        cut = repair.cut_tokens if repair is not None else None
        shape = constrained.shape_for(
            self.settings, definitions, entities=_entities(run), dropped=run.dropped,
            max_tokens=budgets.after_cut(cut, self.settings) if cut else None)
        answer = await self._ask_round(run, messages, definitions, shape, offered, round_number)
        self._emit_reconstructed(run, round_number, answer.calls)
        if answer.refused is not None:
            self._reject(run, round_number, answer.refused)
        taken = []
        for call in answer.calls:
            taken.append(
                CollectedCall(
                    round=round_number, call_id=call.id, tool=call.name,
                    arguments=call.arguments, source=call.source,
                    repair=run.repairs.used if repair is not None else 0,
                )
            )
            self._bus.emit(
                run.run_id,
                "tool_call_collected",
                {"round": round_number, "tool": call.name, "source": call.source},
            )
        return taken

    async def _ask_round(self, run: _Run, messages: list[dict[str, Any]],
                         definitions: list[dict[str, Any]], shape: RoundShape,
                         offered: list[str], round_number: int) -> RoundAnswer:
        """One round's request and its answer, read as its shape asked; a constrained request
        the server refuses or breaks is asked again once, unconstrained (constrained.py)."""
        caps = self.settings.capabilities
        known = set(run.module.tool_names.values())
        for attempt in (shape, constrained.retry_shape(shape, definitions)):
            run.sse_count += 1
            name = tool_response_name(run.sse_count)
            relay = _Relay(lambda event, data: self._bus.emit(run.run_id, event, data),
                           spec=False)
            try:
                response = await self._stream(
                    constrained.with_format_note(messages, attempt, definitions),
                    attempt.tools, relay, sse=name, options=attempt.options)
            except ProviderError as error:
                if constrained.refused(error, attempt):
                    self._drop_constraint(run, attempt, round_number, str(error))
                    continue
                if not is_call_format_error(error.message):
                    raise _Return("provider", f"round {round_number}: {error}") from None
                run.one_call = True  # the server takes one call per answer: ask for one
                self._reject(run, round_number, call_format_rejection(error.message, offered,
                                                                      round_number))
            answer = constrained.read_answer(
                response, attempt, offered, known, text_calls=caps.text_tool_calls,
                round_number=round_number, guard=self._guard_calls)
            if answer is not None:
                return answer
            self._drop_constraint(run, attempt, round_number,
                                  "the answer was not the JSON the constraint asked for")
            answer = constrained.read_broken(
                response, offered, known, text_calls=caps.text_tool_calls,
                round_number=round_number, guard=self._guard_calls)
            if answer is not None:
                return answer
        raise AssertionError("unreachable: the unconstrained attempt always reads")

    def _drop_constraint(self, run: _Run, shape: RoundShape, round_number: int,
                         reason: str) -> None:
        run.dropped.add(shape.tool)
        self._bus.emit(run.run_id, "constraint_dropped", {
            "round": round_number, "tool": shape.tool, "constraint": shape.constraint,
            "reason": reason})

    def _guard_calls(self, calls: Sequence[RoundCall]) -> None:
        """Size budget, the API key, strict JSON (call_guard): raises CollectionViolation."""
        check_calls(calls, scrubber=self.scrubber, max_bytes=self.settings.max_argument_bytes)

    def _reject(self, run: _Run, round_number: int, refused: Rejection) -> NoReturn:
        reason = refused.diagnostic.removeprefix(f"round {round_number}: ")
        self._bus.emit(run.run_id, "tool_call_rejected", {"round": round_number, "reason": reason})
        raise RoundRejected(refused)

    def _emit_reconstructed(self, run: _Run, round_number: int, calls: list[RoundCall]) -> None:
        for call in calls:
            self._bus.emit(
                run.run_id,
                "tool_call_reconstructed",
                {
                    "round": round_number,
                    "tool": call.name,
                    "call_id": call.id,
                    "arguments_chars": len(call.arguments),
                    "source": call.source,
                    "recovered_from_text": call.source == "text",
                },
            )

    def _repair_or_return(self, run: _Run, refused: Rejection) -> Rejection:
        """Grant a repair round for ``refused`` (status, event), or return to Review with
        the last diagnostic when the budget is spent."""
        if not run.repairs.spend(refused):
            raise _Return(refused.layer, run.repairs.exhausted_message(refused))
        label = run.repairs.label(refused)
        self._bus.emit(
            run.run_id,
            "repair_requested",
            {"repair": run.repairs.used, "of": run.repairs.limit, **refused.as_event()},
        )
        if self.phase != Phase.COLLECTING:
            self._set_phase(Phase.COLLECTING, label)
        else:
            self._relabel(label)
        return refused

    async def _compile(
        self, run: _Run, collected: list[CollectedCall]
    ) -> tuple[list[Fragment], Prediction]:
        """Every call compiled in order (I7); a diagnostic re-opens only the call it names,
        through a repair round, and compiling resumes at that call."""
        assert run.before is not None
        chain = CompileChain(run.module, request=run.request, target=run.target,
                             start=Prediction.from_readback(run.before),
                             model=self.host.model(run.target.model_name),
                             part=self.host.part(run.target))
        while len(chain.fragments) < len(collected):
            run.dir.write_json("tool_calls.json", [c.model_dump(mode="json") for c in collected])
            index = len(chain.fragments)
            call = collected[index]
            try:
                self._compile_call(run, call, chain)
            except CompileError as error:
                refused = rejection(
                    "compile", call.tool, str(error),
                    headline=_headline(error),
                    sent=[SentCall(call.tool, call.arguments, call.source)],
                )
                collected[index] = await self._recollect(run, collected, index, refused)
                self._set_phase(Phase.COMPILING, f"Compiling {len(collected)} collected call(s)")
                continue
        run.dir.write_json("tool_calls.json", [c.model_dump(mode="json") for c in collected])
        run.collected = collected
        files: list[str] = []
        for fragment in chain.fragments:
            files += [f for f in fragment.evidence.files if f not in files]
        run.dir.write_json(
            "normalized_calls.json",
            [{"tool": f.tool, "arguments": f.normalized} for f in chain.fragments],
        )
        return chain.fragments, chain.state.model_copy(update={"files": files})

    def _compile_call(self, run: _Run, call: CollectedCall, chain: CompileChain) -> Fragment:
        """The next call of the chain; a compiler crash fails the run (nothing executed)."""
        try:
            fragment = chain.add(call.tool, call.arguments)
        except CompileError:
            raise
        except Exception as error:  # a compiler bug: nothing ran, but say it plainly
            log.exception("compiler crashed on %s", call.tool)
            raise _Fail(
                "compile", f"{call.tool}: internal compiler error ({error!r}); nothing executed"
            ) from None
        self._bus.emit(
            run.run_id, "tool_call_compiled", {"tool": call.tool, "notes": fragment.notes}
        )
        return fragment

    async def _recollect(
        self, run: _Run, collected: list[CollectedCall], index: int, refused: Rejection
    ) -> CollectedCall:
        """A repair round for the one call a compile diagnostic named; the other calls stay
        collected as they are (they are shown, never re-opened)."""
        others = collected[:index] + collected[index + 1 :]
        repair = self._repair_or_return(run, refused)
        while True:
            try:
                taken = await self._collection_round(run, others, [refused.tool], repair)
            except RoundRejected as rejected:
                repair = self._repair_or_return(run, rejected.rejection)
                continue
            return taken[0]

    def _execute_once(self, run: _Run, script: str, sha: str, key: str) -> None:
        journal = self.journal
        # If the process dies from here on, result.json must not keep saying "nothing executed"
        # (e.g. a "rejected" written by an earlier round): it says "unknown" until the outcome.
        run.dir.write_result(
            self._result(
                "unknown",
                error=ErrorRecord(layer="execution", message=UNKNOWN_ADVICE),
            ).model_copy(update={"submissions": 1})
        )
        try:
            journal.record_submitted(run.run_id, sha, key)  # flushed + fsynced first (I8)
        except AlreadySubmitted as refused:
            raise _Fail("execution", str(refused)) from None
        run.submissions = 1
        self._set_phase(Phase.EXECUTING, "Executing: script submitted once")
        self._bus.emit(run.run_id, "execution_submitted", {"script_sha256": sha})
        try:
            receipt = self.host.execute(script, run.target, run.dir.path)
            status, trace = receipt.status, receipt.traceback or ""
            unchanged = receipt.nothing_changed
        except Exception:
            status, trace, unchanged = "ERROR", traceback.format_exc(), False
        journal.record_executed(run.run_id, status)
        self._bus.emit(run.run_id, "execution_completed", {"status": status})
        self._note_snapshot(run, receipt if status != "ERROR" else None)
        if status != "PASS":
            if unchanged:
                run.stopped_before_change = True
                guard_refused = getattr(receipt, "stage", None) == "refused"
                warning = SCRIPT_REFUSED if guard_refused else PREFLIGHT_STOPPED
            else:
                warning = self._put_back(run, receipt if status != "ERROR" else None)
            raise _Fail(
                "execution", f"the script failed in SAM ({status}). {warning}\n{trace}".rstrip()
            )

    def _verify(self, run: _Run, prediction: Prediction) -> None:
        self._set_phase(Phase.VERIFYING, "Verifying: reading the part back")
        assert run.before is not None
        try:
            # the fingerprint pass is most of a readback's cost; only an unchanged-geometry
            # prediction needs it
            after = self.host.readback(
                run.target,
                with_fingerprint=prediction.geometry_unchanged,
                hanging_nodes=prediction.hanging_nodes is not None,
            )
        except Exception as error:
            if self._can_restore():
                raise _Fail("verification", f"reading the part back failed: {error}. "
                            + self._put_back(run, None)) from None
            raise _Fail(
                "verification",
                f"the model WAS changed, but reading it back failed: {error}; re-observe the part",
            ) from None
        checks = verify(prediction, run.before, after, run.dir.path, run.predicted,
                        _try(lambda: self.host.part(run.target)))
        checks += self._value_checks(run)
        if not all_passed(checks):
            failed = "; ".join(
                f"{c.name}: expected {c.expected}, actual {c.actual}" for c in checks if not c.ok
            )
            if self._can_restore():
                message = f"verification failed: {failed}. {self._put_back(run, None)}"
            else:
                message = (f"the model WAS changed, but verification failed: {failed}. "
                           "Inspect the part before submitting again.")
                if run.restore_unavailable:
                    message += " " + NO_RESTORE_NOTE.format(reason=run.restore_unavailable)
            self._finish_failed("verification", message, after=after, checks=checks)
            return
        # only a readback that held is "verified"; a failed one ends in run_failed with checks
        self._bus.emit(run.run_id, "readback_verified", {"ok": True, "checks": len(checks)})
        self._set_phase(Phase.COMPLETE, "Verified")
        self.result = self._result("verified", after=after, checks=checks)
        self.result = self.result.model_copy(update=self._keep_for_undo(run, after))
        run.dir.write_result(self.result)

    def _record_values_before(self, run: _Run) -> None:
        """Material and section values as observed, for the before/after of a Property run."""
        try:
            record_before(run.dir.path, self.host.model(run.target.model_name))
        except Exception:  # a host without materials or sections: nothing to compare later
            log.debug("property values not read before run %s", run.run_id, exc_info=True)

    def _value_checks(self, run: _Run) -> list[Check]:
        """The values the calls defined, read back (property_verifier.py); a readback that
        fails is a failed check, never a pass."""
        try:
            return property_value_checks(run.dir.path, self.host.model(run.target.model_name))
        except Exception as error:
            return [Check(name="property values", expected="read back",
                          actual=f"could not be read: {error}", ok=False)]

    # -- endings ----------------------------------------------------------------------------

    def _result(
        self,
        status: RunStatus,
        *,
        error: ErrorRecord | None = None,
        after: Readback | None = None,
        checks: list[Check] | None = None,
    ) -> RunResult:
        run = self._run
        assert run is not None
        return RunResult(
            run_id=run.run_id,
            status=status,
            phase=str(self.phase),
            module=run.mode,
            target=run.target,
            tools=list(run.route.tools) if run.route else [],
            submissions=run.submissions,
            script_sha256=run.script_sha256,
            repairs=run.repairs.used,
            before=StateSummary.from_readback(run.before) if run.before else None,
            after=StateSummary.from_readback(after) if after else None,
            checks=list(checks or []),
            error=error.model_copy(update={"message": self.scrubber.text(error.message)})
            if error is not None else None,
            restored=run.restored,
            restore_unavailable=run.restore_unavailable,
            provider=run.usage.usage if run.usage else None,
            spec_versions=max(1, run.spec_versions),
            **(run.detection.result_fields() if run.detection else {}),
        )

    def _finish_failed(
        self,
        layer: ErrorLayer,
        message: str,
        *,
        after: Readback | None = None,
        checks: list[Check] | None = None,
    ) -> None:
        run = self._run
        assert run is not None
        if run.restore_after is not None:
            after = run.restore_after  # the live part after the restore (the proof)
        if after is None and run.submissions:
            after = _try(lambda: self.host.readback(run.target))
        words = f"Failed at {layer}; part restored" if run.restored else f"Failed at {layer}"
        self._set_phase(Phase.FAILED, words)
        self.result = self._result(
            "failed", error=ErrorRecord(layer=layer, message=message, part=_part_outcome(run)),
            after=after, checks=checks
        )
        run.dir.write_result(self.result)
        self._bus.emit(run.run_id, "run_failed", {"layer": layer, "message": message})

    # -- snapshot, restore, undo ------------------------------------------------------------

    def _note_snapshot(self, run: _Run, receipt: Any) -> None:
        """``snapshot_taken``, or why there is no snapshot (kept for result.json)."""
        if getattr(receipt, "snapshot", None) == "taken":
            self._bus.emit(run.run_id, "snapshot_taken", {"part": run.target.part_name})
        run.restore_unavailable = snapshot_unavailable(self.host, receipt)

    def _can_restore(self) -> bool:
        return can_restore(self.host)

    def _put_back(self, run: _Run, receipt: Any) -> str:
        """RESTORING: the target back as it was, proven by reading it back; the words to add
        to the failure (the run still fails at its layer; a restore is never retried)."""
        in_script = getattr(receipt, "restored", None) if receipt is not None else None
        if run.restore_unavailable or (in_script is None and not self._can_restore()):
            run.restore_unavailable = run.restore_unavailable or "the script kept no snapshot"
            return unavailable_words(run.restore_unavailable)
        self._set_phase(Phase.RESTORING, "Restoring: putting the part back as it was")
        expected = run.observation.fingerprint if run.observation else None
        verdict = put_back(self.host, run.target, expected, receipt)
        run.restore_after, run.restored = verdict.after, verdict.restored
        if verdict.restored:
            self._bus.emit(run.run_id, "restore_completed", {"fingerprint": verdict.fingerprint})
        else:
            self._bus.emit(run.run_id, "restore_failed", {
                "reason": verdict.reason, "left": verdict.left,
                "fingerprint": verdict.fingerprint})
        return verdict.words

    def _keep_for_undo(self, run: _Run, after: Readback) -> dict[str, Any]:
        """A verified run keeps its snapshot in its run directory (within the undo budget);
        ``result.after`` then carries the fingerprint an undo checks."""
        try:
            if not after.fingerprint:
                after = self.host.readback(run.target)
            undoable, note = keep_snapshot(self.host, run.dir, self.policy.undo)
        except Exception as error:  # noqa: BLE001 - the run is verified; only undo is lost
            log.exception("run %s: keeping the undo snapshot failed", run.run_id)
            return {"undoable": False, "undo_note": f"keeping the undo snapshot failed: {error}"}
        return {"after": StateSummary.from_readback(after), "undoable": undoable,
                "undo_note": note}

    def undo_refusal(self, run_id: str) -> str | None:
        """Why ``run_id`` cannot be undone now (None: it can)."""
        if self.phase in BUSY or self.phase == Phase.REVIEW:
            return f"a run is {self.phase}; undo waits until it ends"
        return undo_refusal(self.host, self.runs_dir, run_id)

    def undo(self, run_id: str) -> RunResult:
        """Put the part back as it was before the verified run ``run_id`` (``run_undone``)."""
        refusal = self.undo_refusal(run_id)
        if refusal is not None:
            raise UndoRefused(refusal)
        previous = self._bus.log_path
        self._bus.log_path = RunDir(self.runs_dir, run_id).file("events.jsonl")
        try:
            undone = undo_run(self.host, self.runs_dir, run_id,
                              emit=lambda event, data: self._bus.emit(run_id, event, data))
        finally:
            self._bus.log_path = previous
        if self.result is not None and self.result.run_id == run_id:
            self.result = undone
        return undone

    def _finish_internal_error(self, error: Exception) -> None:
        """A bug or an unexpected host/file error: never leave the controller stuck busy."""
        log.error(
            "run %s: internal error while %s\n%s",
            self.run_id,
            self.phase,
            self.scrubber.text(traceback.format_exc()),
        )
        layer = _PHASE_LAYER.get(self.phase, "observation")
        message = f"internal error while {self.phase}: {self.scrubber.text(repr(error))}."
        if self._run is not None and self._run.submissions and self._can_restore() and \
                self.phase in (Phase.EXECUTING, Phase.VERIFYING):
            message += " " + self._put_back(self._run, None)
        elif self._run is not None and self._run.submissions:
            message += " The script was submitted: the part may have been modified; re-observe it."
        else:
            message += " Nothing was executed."
        self._finish_failed(layer, message)

    def _finish_cancelled(self, label: str = "Cancelled: nothing was executed") -> None:
        run = self._run
        assert run is not None
        if self.phase in TERMINAL:
            return
        self._set_phase(Phase.CANCELLED, label)
        self.result = self._result("cancelled")
        run.dir.write_result(self.result)
        self._bus.emit(run.run_id, "run_cancelled", {})

    def _return_to_review(self, layer: ErrorLayer, message: str) -> None:
        run = self._run
        assert run is not None
        self._set_phase(Phase.REVIEW, f"Review: returned, nothing executed ({layer})")
        self.result = self._result("rejected", error=ErrorRecord(layer=layer, message=message))
        run.dir.write_result(self.result)
        self._bus.emit(run.run_id, "returned_to_review", {"layer": layer, "message": message})

    # -- plumbing ---------------------------------------------------------------------------

    def _set_phase(self, phase: Phase, label: str) -> None:
        check_transition(self.phase, phase)
        self.phase = phase
        self._relabel(label)

    def _relabel(self, label: str) -> None:
        self.phase_label = label
        if self._run is not None:
            self._bus.emit(
                self._run.run_id, "phase_changed", {"phase": str(self.phase), "label": label}
            )

    async def _stream(
        self,
        messages: list[dict[str, Any]],
        tools: list[dict[str, Any]] | None,
        listener: Any,
        *,
        sse: str,
        options: RequestOptions,
    ) -> ChatResponse:
        """One provider call; its body goes to the run's ``sse`` file however the call ends
        (success, provider error, timeout or cancel): every byte received is evidence."""
        used: list[ChatModel] = []

        def work(provider: ChatModel) -> Awaitable[ChatResponse]:
            used.append(provider)
            return provider.stream_chat(messages, tools=tools, listener=listener,
                                        options=options)

        def received() -> bytes:
            return bytes(getattr(used[0], "received_sse", b"")) if used else b""

        assert self._run is not None
        try:
            response = await self._provider_task(work)
        except ProviderError as error:
            self._run.dir.write_bytes(sse, error.raw_sse or received())
            raise
        except BaseException:
            self._run.dir.write_bytes(sse, received())
            raise
        self._run.dir.write_bytes(sse, response.raw_sse)
        return response

    async def _provider_task(self, work: Callable[[ChatModel], Awaitable[_T]]) -> _T:
        """Run ``work(provider)`` as the task Cancel can stop; the provider is always closed,
        and a cancel that arrived meanwhile is honoured."""
        provider = self._provider_factory(self.settings)
        task = asyncio.ensure_future(work(provider))
        self._stream_task = task
        started = time.perf_counter()
        try:
            await task
        finally:
            self._stream_task = None
            self._account(task, time.perf_counter() - started)
            await provider.aclose()
        self._honour_cancel()
        return task.result()

    def _account(self, task: asyncio.Future[Any], seconds: float) -> None:
        if self._run is None or self._run.usage is None:
            return
        done = task.done() and not task.cancelled() and task.exception() is None
        self._run.usage.add(task.result() if done else None, seconds)

    def _honour_cancel(self) -> None:
        """A cancel that arrived while no stream was open (between rounds, while a stream was
        closing) takes effect here: at the next step, and always before execution."""
        if self._cancel_requested:
            raise asyncio.CancelledError


def _compose_with_composer(
    fragments: Sequence[Fragment], run_id: str, target: Target
) -> tuple[str, str, str]:
    """(script text, its sha256, idempotency key) from the shared composer."""
    from sam_plugin.compilers import composer

    composed = composer.compose(list(fragments))
    return composed.text, composed.sha256, composer.idempotency_key(composed.sha256, run_id)


def _registry_module(mode: str) -> DomainModule:
    """Looked up at call time, so the registry stays the one place that maps modes."""
    return registry.get_module(mode)


def _headline(error: CompileError) -> str:
    """The first problem of a compile error, with its field (the status line)."""
    if error.diagnostics:
        return str(error.diagnostics[0])
    return str(error).splitlines()[0]


def _part_outcome(run: _Run) -> PartOutcome:
    """What became of the target part in a failed run (``result.json`` ``error.part``)."""
    if not run.submissions or run.stopped_before_change:
        return "unchanged"
    return "restored" if run.restored else "may_be_changed"


def _try(read: Callable[[], _T]) -> _T | None:
    try:
        return read()
    except Exception:
        return None

