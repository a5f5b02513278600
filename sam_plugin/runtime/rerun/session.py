"""One rerun: a verified run's calls on each target part in turn, with no model at all
(docs/architecture.md §6 "rerun").

Per target, in order, through the controller's ``plan_calls`` (the same observation, routing,
call checks, compile chain and plan builder as any run; nothing here repeats a rule of
theirs): observe the part afresh, compile the saved calls against it (a label that no longer
resolves is a compile error naming it; sets, boxes and shapes resolve anew), build the plan
(with a warning for each selection that depends on the source part), wait for ``approve``,
execute once, verify, restore on failure. Each target is its own run (``source: "rerun"``,
``source_run``), undone on its own. A failure restores that target and the rerun goes on,
unless ``stop_on_failure``.

No provider is ever built: the controller a rerun uses refuses one (``rerun_controller``),
and every target's result is checked to have made no provider call.
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from sam_plugin.compilers import registry
from sam_plugin.compilers.evidence import Prediction
from sam_plugin.compilers.plan import Plan, PlanState
from sam_plugin.compilers.protocol import DomainModule, Fragment, Target
from sam_plugin.compilers.source_drift import drift_warnings
from sam_plugin.errors import ControllerStateError, SubmitRefused
from sam_plugin.runtime.config.policy import RunPolicy
from sam_plugin.runtime.config.settings import ProviderSettings
from sam_plugin.runtime.ports import ChatModel, Host
from sam_plugin.runtime.rerun.expected import Restated, change_warnings, planned, restate
from sam_plugin.runtime.rerun.outcome import FAILURES, RerunSummary, TargetOutcome
from sam_plugin.runtime.rerun.source import RerunSource
from sam_plugin.runtime.run.collect import GivenCall
from sam_plugin.runtime.run.controller import RunController
from sam_plugin.runtime.run.phases import Phase
from sam_plugin.runtime.store.run_store import RunDir

NO_MODEL = "no model (rerun)"


@dataclass(frozen=True)
class TargetPlan:
    """A target's plan, waiting for approval: the ``index``-th (1-based) of ``total``."""

    index: int
    total: int
    target: Target
    run_id: str
    plan: Plan
    # the source spec's expected counts as this plan compares them (restated or left out)
    expected: tuple[Restated, ...] = ()
    # (the source part, this target) as words name them
    names: tuple[str, str] = ("", "")

    def expected_words(self) -> list[str]:
        """The restated expected counts in English (the CLI prints them with the plan)."""
        return [count.words(*self.names) for count in self.expected]


# True executes the plan; False declines it; a string declines it and says why (the outcome)
Approve = Callable[[TargetPlan], Awaitable[bool | str]]
# (1-based index, target, its outcome: None when its run starts)
Progress = Callable[[int, Target, TargetOutcome | None], None]


def refuse_provider(settings: ProviderSettings) -> ChatModel:
    """The provider factory of a rerun's controller: a rerun sends nothing to a model."""
    raise ControllerStateError("a rerun sends nothing to a model, yet a provider was asked for")


def rerun_controller(*, runs_dir: Path, host: Host, policy: RunPolicy | None = None,
                     language: str = "en") -> RunController:
    """A controller that can run given calls only: it has no provider to ask."""
    return RunController(runs_dir=runs_dir, settings=ProviderSettings(), host=host,
                         provider_factory=refuse_provider, language=language, policy=policy,
                         provider_name=NO_MODEL, units_from_model=True)


class RerunSession:
    """``run`` applies ``source`` to ``targets`` in order; ``stop`` skips the ones not begun."""

    def __init__(self, controller: RunController, source: RerunSource,
                 targets: Sequence[Target], *, stop_on_failure: bool = False,
                 progress: Progress | None = None) -> None:
        self.controller = controller
        self.source = source
        self.targets = list(targets)
        self.stop_on_failure = stop_on_failure
        self.progress = progress
        self.summary = RerunSummary(source_run=source.run_id)
        self._stopped = ""

    def stop(self, reason: str) -> None:
        """Skip every target whose run has not started (the one running ends as it ends)."""
        self._stopped = self._stopped or reason

    async def run(self, approve: Approve) -> RerunSummary:
        total = len(self.targets)
        for index, target in enumerate(self.targets, start=1):
            if self._stopped:
                outcome = TargetOutcome(target=target, outcome="skipped",
                                        message=f"not attempted: {self._stopped}")
            else:
                if self.progress is not None:
                    self.progress(index, target, None)
                outcome = await self._one(index, total, target, approve)
                if self.stop_on_failure and outcome.outcome in FAILURES:
                    self.stop(f"--stop-on-failure after {target.part_name} "
                              f"({outcome.outcome})")
            self.summary.targets.append(outcome)
            if self.progress is not None:
                self.progress(index, target, outcome)
        self._reread_undoable()
        return self.summary

    def _reread_undoable(self) -> None:
        """Whether each target can still be undone: the undo budget may have dropped the
        snapshots of the first targets while the later ones ran."""
        for outcome in self.summary.targets:
            if outcome.run_id is not None and outcome.undoable:
                result = RunDir(self.controller.runs_dir, outcome.run_id).read_result()
                outcome.undoable = bool(result and result.undoable)

    async def _one(self, index: int, total: int, target: Target,
                   approve: Approve) -> TargetOutcome:
        controller, source = self.controller, self.source
        restated = restate(source.spec, source.before,
                           lambda: controller.host.readback(target, with_fingerprint=False),
                           same_part=target == source.target)
        spec = restated.spec
        calls: tuple[GivenCall, ...] = source.calls
        if target != source.target:  # names the model's parts share, restated for this one
            spec, calls = registry.get_module(source.mode).restate_for_part(
                spec, calls, lambda: controller.host.model(target.model_name),
                target.part_name)
        warnings = functools.partial(self._warnings, target, restated.counts)
        try:
            phase = await controller.plan_calls(
                source.request, source.mode, target, spec=spec, calls=calls,
                source="rerun", source_run=source.run_id, plan_warnings=warnings)
        except SubmitRefused as refused:  # no run was started for this target
            return TargetOutcome(target=target, outcome="refused", message=str(refused))
        declined = ""
        if phase == Phase.PLAN:
            assert controller.plan is not None and controller.run_id is not None
            waiting = TargetPlan(index=index, total=total, target=target,
                                 run_id=controller.run_id, plan=controller.plan,
                                 expected=planned(restated.counts,
                                                  _counts(controller.plan.after)),
                                 names=self._names(target))
            decision: bool | str = False
            try:
                decision = await approve(waiting)
            finally:
                if decision is not True and controller.phase == Phase.PLAN:
                    controller.decline_plan()
            if decision is True:
                await controller.execute()
            elif isinstance(decision, str):
                declined = decision
        result = controller.result
        assert result is not None, "a run from given calls always ends with a result"
        if result.provider is not None and result.provider.calls:
            raise ControllerStateError(f"run {result.run_id} of a rerun called a provider "
                                       f"{result.provider.calls} time(s)")
        return TargetOutcome.of_result(target, result, declined=declined)

    def _names(self, target: Target) -> tuple[str, str]:
        """The source part and ``target`` as words name them (with their models when those
        differ)."""
        before = self.source.target
        if before.model_name != target.model_name:
            return (f"{before.model_name}/{before.part_name}",
                    f"{target.model_name}/{target.part_name}")
        return before.part_name, target.part_name

    def _warnings(self, target: Target, counts: Sequence[Restated],
                  fragments: Sequence[Fragment], prediction: Prediction) -> list[str]:
        """The rerun's own plan warnings: selections that depend on the source part, and
        expected counts the calls may change another way on ``target``."""
        return [*self._drift(target, fragments),
                *change_warnings(counts, prediction, *self._names(target))]

    def _drift(self, target: Target, fragments: Sequence[Fragment]) -> list[str]:
        """The plan's warnings for selections that depend on the source part."""
        host, before = self.controller.host, self.source.target
        if before == target:
            return []
        names = self._names(target)
        module: DomainModule = registry.get_module(self.source.mode)
        units = self.controller.units  # the target's model's (units_from_model)
        return drift_warnings(module, fragments, source_part=names[0], target_part=names[1],
                              source=host.part(before), target=host.part(target),
                              length_unit=units.length if units is not None else "")


def _counts(state: PlanState) -> dict[str, str]:
    """A plan's After as ``what → count`` (nodes, elements, each shape)."""
    return {"nodes": state.nodes, "elements": state.elements, **state.shapes}
