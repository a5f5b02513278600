"""The generic gated controller: observe, design, wait for the human, collect, compile,
show the plan and wait for the human again, execute once, verify (docs/architecture.md §1).

Here are the public calls and the order of the steps. Each stretch of phases is a step
module beside it (``design``, ``collect``, ``compile``, ``execute``, ``provider_call``)
handed the run's state (``state.py``) and its ports (``context.py``); runs end through
``endings.py``. No domain is named here: modules come through the DomainModule protocol.

The one script execution is synchronous (``host.execute``) inside the async ``execute`` (or
``confirm``, when the plan-wait policy lets the plan through): it runs on the caller's thread
(the GUI thread under qasync), as SAM requires. What executes is byte for byte the script
whose SHA-256 ``plan.json`` holds (I11).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from sam_plugin.compilers import registry
from sam_plugin.compilers.evidence import Prediction
from sam_plugin.compilers.plan import Plan
from sam_plugin.compilers.protocol import DomainModule, Fragment, Route, Target
from sam_plugin.compilers.spec.diff import FieldChange
from sam_plugin.compilers.spec.ir import Spec
from sam_plugin.compilers.units import UnitSystem
from sam_plugin.errors import (
    ControllerBusy,
    ControllerStateError,
    RevisionRefused,
    SubmitRefused,
    UndoRefused,
)
from sam_plugin.runtime import event_types as ev
from sam_plugin.runtime.config.policy import RunPolicy
from sam_plugin.runtime.config.settings import ProviderSettings
from sam_plugin.runtime.config.units import model_units
from sam_plugin.runtime.events import ControllerEvent, EventBus, Listener
from sam_plugin.runtime.observe.regions import RegionIndexCache
from sam_plugin.runtime.ports import ChatModel, Host
from sam_plugin.runtime.provider.probe import Probe
from sam_plugin.runtime.run import (
    collect,
    design,
    endings,
    execute,
    observing,
    revision,
    server,
    start,
)
from sam_plugin.runtime.run import compile as compiling
from sam_plugin.runtime.run.collect import GivenCall
from sam_plugin.runtime.run.context import Composer, Explorer, PhaseTracker, StepContext
from sam_plugin.runtime.run.drift import DRIFT_MESSAGE, check_drift
from sam_plugin.runtime.run.phases import BUSY, STREAMING, TERMINAL, Phase
from sam_plugin.runtime.run.plan_builder import plan_waits
from sam_plugin.runtime.run.provider_call import ProviderCall, chat_provider
from sam_plugin.runtime.run.restore import PARTIAL_WARNING, can_restore
from sam_plugin.runtime.run.spec_words import people_words
from sam_plugin.runtime.run.state import RunInputs, RunState
from sam_plugin.runtime.run.step_repair import StepRepair
from sam_plugin.runtime.run.typed_spec import check_typed_spec
from sam_plugin.runtime.selection import Selection
from sam_plugin.runtime.store.journal import SubmissionJournal
from sam_plugin.runtime.store.run_history import recover_unknown_runs
from sam_plugin.runtime.store.run_store import JOURNAL_NAME, RunDir, RunResult, RunSource
from sam_plugin.runtime.store.scrubber import Scrubber, ScrubberCache
from sam_plugin.runtime.store.undo import undo_refusal, undo_run
from sam_plugin.runtime.store.usage import UsageMeter

__all__ = ["ControllerBusy", "ControllerEvent", "ControllerStateError", "DRIFT_MESSAGE",
           "PARTIAL_WARNING", "Phase", "PlanWarnings", "RunController", "RevisionRefused",
           "RunResult", "SubmitRefused", "UndoRefused"]


CANCEL_SETTLE_SECONDS = 2.0
# the caller's plan warnings about the compiled calls of a run from given calls, and what
# they are predicted to leave
PlanWarnings = Callable[[Sequence[Fragment], Prediction], list[str]]


class RunController:
    def __init__(
        self,
        *,
        runs_dir: Path,
        settings: ProviderSettings,
        host: Host,
        provider_factory: Callable[[ProviderSettings], ChatModel] = chat_provider,
        language: str = "en",
        module_factory: Callable[[str], DomainModule] | None = None,
        composer: Composer | None = None,
        explorer: Explorer | None = None,
        policy: RunPolicy | None = None,
        provider_name: str = "",
        max_revisions: int = revision.DEFAULT_MAX_REVISIONS,
        regions: RegionIndexCache | None = None,
        server_probe: Probe | None = None,
        units_from_model: bool = False,
    ):
        self.runs_dir = Path(runs_dir)
        self.provider_name = provider_name or settings.profile
        self.max_revisions = max_revisions
        self.settings = settings
        # when the plan waits, repair rounds, the undo budget (config/policy.py)
        self.policy = policy or RunPolicy.from_saved()
        self.host = host
        self.language = language
        # the unit system the words for people say (compilers/units.py); None: bare numbers.
        # Never what a model is sent: that stays the words the recordings were made on.
        self.units: UnitSystem | None = None
        # each run's units read from its target's model (else Settings): MCP plans, reruns
        self.units_from_model = units_from_model
        self._provider_factory = provider_factory
        self._server_probe = server_probe
        self._module_factory = module_factory or registry.get_module
        self._composer = composer or compiling.compose_script
        self._explorer = explorer
        # the L2 index by fingerprint; controllers on one host may share it (MCP plans)
        self._regions = regions if regions is not None else RegionIndexCache()
        self._scrubbers = ScrubberCache()
        self._bus = EventBus(scrubber=lambda value: self.scrubber.value(value))
        self._phases = PhaseTracker()
        self._run: RunState | None = None
        self._ctx: StepContext | None = None
        self._calls: ProviderCall | None = None
        recovery = recover_unknown_runs(self.runs_dir, self.scrubber)  # after a crash (I8)
        self.unknown_runs: list[str] = recovery.unknown
        self.recovered_runs: list[str] = recovery.recovered  # marked ``unknown`` at this start

    # -- what the caller reads: views of the current run ------------------------------------

    @property
    def phase(self) -> Phase:
        return self._phases.phase

    @property
    def phase_label(self) -> str:
        return self._phases.label

    @property
    def run_id(self) -> str | None:
        return self._run.inputs.run_id if self._run else None

    @property
    def request(self) -> str:
        """The request the current run was started with (the analyst's, or an agent's)."""
        return self._run.inputs.request if self._run else ""

    @property
    def spec_text(self) -> str:
        """The spec in words, as the analyst reads and confirms it: with the unit system of
        :attr:`units`, as ``design.txt`` stores it (what a model is sent keeps the bare
        words)."""
        if self._run is None:
            return ""
        return people_words(self._run, self.units, self.language)

    @property
    def spec(self) -> Spec | None:
        """The same spec as data (``spec.json``): what every call is bound to."""
        return self._run.spec_ir if self._run else None

    @property
    def review_warnings(self) -> list[str]:
        """Where the spec disagrees with the part as observed now (said before Confirm)."""
        return list(self._run.review_warnings) if self._run else []

    @property
    def design_repairs(self) -> list[StepRepair]:
        """The design's steps asked again before Review, and why (either design):
        data, each said by ``StepRepair.words``."""
        return list(self._run.conversation.repairs) if self._run else []

    @property
    def spec_changes(self) -> list[FieldChange]:
        """The fields the last Ask for changes changed (empty: the same spec came back)."""
        return list(self._run.spec_changes) if self._run else []

    @property
    def target(self) -> Target | None:
        """The mode's target of the current run (what its spec was written for)."""
        return self._run.target if self._run else None

    @property
    def observed(self) -> tuple[str | None, list[dict[str, Any]]]:
        """The target's fingerprint as the run observed it, and its normalized calls (what
        the script runs, ``normalized_calls.json``) once compiled."""
        run = self._run
        if run is None or run.observation is None:
            return None, []
        return run.observation.fingerprint, list(run.shown.normalized if run.shown else [])

    @property
    def route(self) -> Route | None:
        return self._run.route if self._run else None

    @property
    def plan(self) -> Plan | None:
        """The plan of the current run, once shown."""
        return self._run.shown.plan if self._run and self._run.shown else None

    @property
    def result(self) -> RunResult | None:
        return self._run.result if self._run else None

    @property
    def scrubber(self) -> Scrubber:
        """The one scrubber of every artifact, event and message (follows the settings' key)."""
        return self._scrubbers.for_key(self.settings.api_key.get_secret_value())

    @property
    def journal(self) -> SubmissionJournal:
        return SubmissionJournal(self.runs_dir / JOURNAL_NAME)

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        return self._bus.subscribe(listener)

    # -- the gated pipeline -----------------------------------------------------------------

    async def submit(self, request: str, mode: str, target: Target, *, explore: bool = False,
                     source: RunSource = "dock", selection: Selection | None = None) -> Phase:
        """Observing → (Exploring) → Designing → Review, or Failed (result written).
        ``selection``: what the analyst picked for the request to act on, frozen with the
        target (runtime/selection.py); None sends the design request as ever."""
        start.refuse_if_busy(self.phase)
        start.check_provider(self.settings)
        self.settings, detection = await server.detect_server(self.settings, self._server_probe)
        run, ctx = self._start(request, mode, target, source, None, selection=selection)
        run.detection = detection
        with self._outcome():
            server.report_server(ctx, detection)
            observing.observe_target(ctx, run)
            if explore:
                await observing.explore_target(ctx, run)
            ctx.phases.set(Phase.DESIGNING, "Designing: the model is writing the spec")
            await design.write_spec(ctx, run)
            ctx.calls.honour_cancel()
            ctx.phases.set(Phase.REVIEW, "Review: spec proposed, waiting for your confirmation")
        return self.phase

    async def submit_spec(self, spec: str | Spec | dict[str, Any], mode: str, target: Target,
                          *, request: str = "", source: RunSource = "cli") -> Phase:
        """A run from a spec the analyst wrote (``--spec``), no model asked for it:
        Observing → Review, or Failed at design when it is not a spec of ``mode``. Confirm
        then plans it as any spec; with ``calls: spec`` no provider is needed at all.
        ``request`` is the analyst's words, else the spec's summary."""
        start.refuse_if_busy(self.phase)
        if self.policy.calls == "model":
            start.check_provider(self.settings)
        words = request.strip() or start.summary_of(spec)
        run, ctx = self._start(words, mode, target, source, None)
        with self._outcome():
            observing.observe_target(ctx, run)
            design.analyst_spec(ctx, run, spec)
            ctx.phases.set(Phase.REVIEW, "Review: your spec, waiting for your confirmation")
        return self.phase

    def edit_spec(self, spec: str | Spec | dict[str, Any]) -> Phase:
        """The analyst edited the spec in Review: a new version, read and reviewed against the
        part again (``SpecRejected`` names each problem, and the standing spec stays); Confirm
        then plans it. No model is asked."""
        run, ctx = self._current(Phase.REVIEW, "edit_spec: no spec is waiting for review "
                                 f"(phase {self.phase}); submit first")
        check_typed_spec(spec)
        run.result = None  # an edit starts a new answer to the same run
        design.edited_spec(ctx, run, spec)
        ctx.phases.relabel("Review: your edited spec, waiting for your confirmation")
        return self.phase

    async def revise(self, remark: str) -> Phase:
        """Ask for changes: Review → Designing (no tools) → Review with the new spec, which
        replaces the old one. A revision the provider cannot answer returns to Review with the
        previous spec. Bounded by ``max_revisions``; ``RevisionRefused`` names the reason."""
        run, ctx = self._current(Phase.REVIEW, "revise: no spec is waiting for review "
                                 f"(phase {self.phase}); submit first")
        remark = revision.check_remark(remark, run.spec_versions - 1, self.max_revisions)
        run.result = None  # a revision starts a new answer to the same run
        if run.spec_versions == 1:
            revision.keep_version(run.dir, 1, people_words(run, ctx.units, ctx.language),
                                  run.spec_ir)
        with self._outcome():
            ctx.emit(ev.RevisionRequested(version=run.spec_versions + 1, remark=remark))
            ctx.phases.set(Phase.DESIGNING, "Designing: the model is revising the spec")
            await design.revise_spec(ctx, run, remark)
            ctx.calls.honour_cancel()
            ctx.phases.set(Phase.REVIEW, "Review: revised spec, waiting for your confirmation"
                           if run.spec_changes else "Review: the model answered with the same "
                           "spec (nothing changed), waiting for your confirmation")
        return self.phase

    async def confirm(self, mode: str, target: Target, *, plan_wait: str | None = None,
                      selection: Selection | None = None) -> RunResult | None:
        """Collect → compile → Plan; then, unless the plan waits for the analyst, execute once
        → verify. Returns the result, or None while the plan waits (phase PLAN: call
        ``execute`` or ``decline_plan``). ``plan_wait`` overrides ``policy.plan_wait``;
        ``selection`` is what the caller has picked now (drift when the run's differs)."""
        run, ctx = self._current(Phase.REVIEW, "confirm: no spec is waiting for review "
                                 f"(phase {self.phase}); submit a request first")
        wait = start.plan_wait(plan_wait, self.policy)
        with self._outcome():
            check_drift(ctx.host, run, mode, target, when="confirm", selection=selection)
            ctx.emit(ev.DesignConfirmed(tools=run.expected_tools()))
            if self.policy.calls == "spec":  # the calls computed from the steps, no model
                ctx.phases.set(Phase.COMPILING, compiling.computing_label(run))
                collected = collect.computed_calls(ctx, run)
                compiled = await compiling.compile_calls(ctx, run, collected, None)
            else:
                ctx.phases.set(Phase.COLLECTING, collect.collecting_label(run, 0))
                collected = await collect.collect_calls(ctx, run)
                ctx.phases.set(Phase.COMPILING, compiling.compiling_label(collected))
                repair = functools.partial(collect.recollect, ctx, run)
                compiled = await compiling.compile_calls(ctx, run, collected, repair)
            plan = compiling.show_plan(ctx, run, compiled).plan
            if plan_waits(plan, wait):
                return None
            ctx.emit(ev.PlanApproved(by=f"plan_wait={wait}"))
            await self._execute_plan(run, ctx, mode, target, selection)
        return self.result

    async def plan_calls(self, request: str, mode: str, target: Target, *,
                         spec: str | Spec | dict[str, Any],
                         calls: Sequence[GivenCall] | None, source: RunSource,
                         source_run: str | None = None,
                         plan_warnings: PlanWarnings | None = None,
                         run_id: str | None = None) -> Phase:
        """A run from a confirmed ``spec`` (the spec IR: a ``Spec``, its JSON text or object)
        and given tool ``calls`` (``None``: computed from its steps), with no provider request
        at all: Observing → Compiling (the same checks, compile chain, binding to the spec and
        plan builder) → Plan, then the
        usual ``execute`` or ``decline_plan``. A spec that is not one, calls that do not fit
        the route, do not compile or contradict the spec end the run ``rejected`` with the
        diagnostics (no repair round: no model wrote them); the phase is then FAILED.
        ``plan_warnings`` adds the caller's warnings about the compiled calls and their
        prediction to the plan (a rerun's: calls that depend on the part they were written
        for, a change that goes another way on this part). ``run_id``: the
        plan made again under the run that made it and never ran (an MCP plan kept)."""
        start.refuse_if_busy(self.phase, "plan_calls")
        run, ctx = self._start(request, mode, target, source, source_run, run_id)
        with self._outcome(rejects=True):
            observing.observe_target(ctx, run)
            design.given_spec(ctx, run, spec)
            if calls is None:
                ctx.phases.set(Phase.COMPILING, compiling.computing_label(run))
                collected = collect.computed_calls(ctx, run)
            else:
                ctx.phases.set(Phase.COMPILING, f"Compiling {len(calls)} given call(s)")
                collected = collect.given_calls(ctx, run, calls)
            compiled = await compiling.compile_calls(ctx, run, collected, None)
            warnings = (plan_warnings(compiled.fragments, compiled.prediction)
                        if plan_warnings is not None else [])
            compiling.show_plan(ctx, run, compiled, warnings)
        return self.phase

    def approval_requested(self, channel: str) -> None:
        """The waiting plan is put before a person on ``channel`` (dock, cli, elicitation,
        command: docs/architecture.md §8); ``approval_requested`` is logged."""
        _, ctx = self._current(Phase.PLAN, "approval_requested: no plan is waiting for "
                               f"approval (phase {self.phase})")
        ctx.emit(ev.ApprovalRequested(channel=channel))

    async def execute(self, mode: str | None = None, target: Target | None = None, *,
                      approved_by: str = "analyst",
                      selection: Selection | None = None) -> RunResult:
        """The analyst approved the plan: drift check, the one submission, verification.

        ``mode``/``target`` are what the caller shows now (the dock's combos); a change since
        submit fails the run, as at confirm (I3). ``approved_by`` says on which channel a
        person approved (``plan_approved``); ``selection`` as at ``confirm``."""
        run, ctx = self._current(Phase.PLAN, "execute: no plan is waiting for approval "
                                 f"(phase {self.phase})")
        with self._outcome():
            ctx.emit(ev.PlanApproved(by=approved_by))
            await self._execute_plan(run, ctx, mode or run.inputs.mode, target or run.target,
                                     selection)
        assert run.result is not None
        return run.result

    def decline_plan(self, *, by: str = "analyst",
                     reason: str = "plan declined") -> RunResult:
        """The analyst declined the plan: the run ends ``cancelled``, nothing executed.

        ``cancelled`` (not ``rejected``, which says a layer sent the run back to Review):
        the analyst's own decision ended it, like Cancel at Review. ``by``/``reason``: who
        ended it and why (an approval nobody gave in time is ``reason`` too)."""
        run, ctx = self._current(Phase.PLAN, "decline_plan: no plan is waiting for approval "
                                 f"(phase {self.phase})")
        other = by != "analyst"  # the analyst's own decline says no more than its script
        ctx.emit(ev.PlanDeclined(script_sha256=run.script_sha256, by=by if other else None,
                                 reason=reason if other else None))
        endings.cancelled(ctx, run, f"Cancelled: {reason}, nothing was executed")
        assert run.result is not None
        return run.result

    async def _execute_plan(self, run: RunState, ctx: StepContext, mode: str,
                            target: Target, selection: Selection | None = None) -> None:
        # Let the GUI breathe once before the synchronous tail; no await may sit between
        # the last drift check, the one execution and the readback.
        await asyncio.sleep(0)
        ctx.calls.honour_cancel()
        check_drift(ctx.host, run, mode, target, when="execution", selection=selection)
        script = execute.approved_script(run)
        execute.execute_once(ctx, run, self.journal, script)
        execute.verify_readback(ctx, run)

    async def cancel(self) -> None:
        """Stop a run before execution: closes a running stream; Cancelled (result written)."""
        if self.phase in STREAMING and self._calls is not None:
            # the awaiting submit/confirm closes the stream and writes the result
            await self._calls.cancel_and_settle(lambda: self.phase in TERMINAL,
                                                CANCEL_SETTLE_SECONDS)
        elif self.phase == Phase.REVIEW and self._run and self._ctx:
            endings.cancelled(self._ctx, self._run)
        elif self.phase == Phase.PLAN:
            self.decline_plan()
        elif self.phase in (Phase.COMPILING, Phase.EXECUTING, Phase.VERIFYING):
            raise ControllerStateError(
                f"cancel: the run is {self.phase}; a submitted script cannot be called back")

    def let_go(self) -> None:
        """This process stops holding the current run (its lock released; it stays as is)."""
        if self._run is not None:
            self._run.dir.unlock()

    def invalidate(self, reason: str) -> None:
        """The GUI's mode or target changed (``endings.invalidated``)."""
        if self._run is not None and self._ctx is not None:
            endings.invalidated(self._ctx, self._run, self.phase, reason)

    # -- undo -------------------------------------------------------------------------------

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
        with self._bus.logging_to(RunDir(self.runs_dir, run_id).file("events.jsonl")):
            undone = undo_run(self.host, self.runs_dir, run_id,
                              emit=functools.partial(self._bus.emit, run_id))
        if self._run is not None and self.result is not None and self.result.run_id == run_id:
            self._run.result = undone
        return undone

    # -- plumbing ---------------------------------------------------------------------------

    def _start(self, request: str, mode: str, target: Target, source: RunSource,
               source_run: str | None, kept: str | None = None, *,
               selection: Selection | None = None) -> tuple[RunState, StepContext]:
        """A new run (or the ``kept`` one again): its directory (locked), its frozen inputs,
        its state and ports."""
        module = start.check_inputs(request, mode, target, self.host, self.runs_dir,
                                    self._module_factory)
        run_id = (start.kept_run_id(self.runs_dir, self.journal, kept) if kept is not None
                  else start.fresh_run_id(self.runs_dir, self.journal))
        if self._run is not None:
            self._run.dir.unlock()  # the earlier run ended; this process lets go of it
        run_dir = RunDir(self.runs_dir, run_id, self.scrubber)
        (run_dir if kept is not None else run_dir.create()).lock()
        inputs = RunInputs(run_id=run_id, request=request, mode=mode, target=target,
                           module=module, dir=run_dir, source=source, source_run=source_run,
                           selection=selection)
        usage = UsageMeter(self.provider_name, self.settings.model)
        run = RunState(inputs=inputs, usage=usage)
        if self.units_from_model:
            self.units = model_units(self.host, target.model_name)[0]
        emit = functools.partial(self._bus.emit, run_id)
        self._bus.log_path = run_dir.file("events.jsonl")
        self._calls = ProviderCall(self._provider_factory, self.settings, run_dir, usage, emit)
        self._phases.bind(emit)
        ctx = StepContext(host=self.host, settings=self.settings, policy=self.policy,
                          language=self.language, scrubber=self.scrubber, emit=emit,
                          phases=self._phases, calls=self._calls, composer=self._composer,
                          explorer=self._explorer, regions=self._regions, units=self.units)
        self._run, self._ctx = run, ctx
        return run, ctx

    def _current(self, phase: Phase, refusal: str) -> tuple[RunState, StepContext]:
        """The run waiting in ``phase`` (else ``ControllerStateError(refusal)``); a cancel
        asked for before this call no longer holds."""
        if self.phase != phase or self._run is None or self._ctx is None:
            raise ControllerStateError(refusal)
        if self._calls is not None:
            self._calls.cancel_requested = False
        return self._run, self._ctx

    def _outcome(self, *, rejects: bool = False) -> contextlib.AbstractContextManager[None]:
        """How a public call ended becomes the run's ending (``endings.outcome``)."""
        run, ctx = self._run, self._ctx
        assert run is not None and ctx is not None
        restore = (lambda: execute.restore(ctx, run, None)) if can_restore(self.host) else None
        return endings.outcome(ctx, run, rejects=rejects, restore=restore, cancel_requested=(
            lambda: self._calls is not None and self._calls.cancel_requested))
