"""Runs suite tasks end to end: the real controller on the offline SAM stub (spec confirmed,
plan approved), and optionally the free-Python baseline; scores each on the final model.

Provider answers come live (``base_url``), or from cassettes replayed over a loopback server.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import sys
import time
from collections.abc import Callable, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field

from sam_plugin.compilers.protocol import Target
from sam_plugin.evaluation import baseline
from sam_plugin.evaluation.cassette import (
    Cassette,
    Kind,
    Meter,
    MeteredProvider,
    ReplayResponder,
)
from sam_plugin.evaluation.checks import CheckOutcome
from sam_plugin.evaluation.task import Task
from sam_plugin.runtime.config.policy import RunPolicy

# "stale": the cassette was recorded on other prompts (cassette.py), so its answers say
# nothing about this code; counted apart from mismatches and left out of the rate.
Outcome = Literal["accepted", "failed", "mismatch", "stale", "skipped", "error"]
# Outcomes a recording with --only-stale records again (a missing cassette included).
RERECORD = frozenset({"stale", "mismatch", "skipped"})


class KindResult(BaseModel):
    """One task through one kind of run (pipeline or baseline): the report fields of
    docs/architecture.md §6."""

    outcome: Outcome
    status: str  # run status (verified, failed, rejected, ...) or the baseline's
    layer: str | None = None  # where it failed (None when accepted)
    message: str = ""
    provider_rounds: int = 0
    repair_rounds: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    seconds: float = 0.0  # the live run's (a replay reports the recorded time)
    replay_seconds: float | None = None
    accepted: bool = False
    unchanged: bool | None = None  # the target's fingerprint equals the one before the run
    checks: list[CheckOutcome] = Field(default_factory=list)
    run_id: str | None = None
    # where the run stopped and the refusal category it named (result.json error.layer and
    # error.category), kept when a refusal is accepted; None: it did not stop, or named none
    ended_at: str | None = None
    category: str | None = None


class TaskResult(BaseModel):
    name: str
    mode: str
    expect: str
    tags: list[str] = Field(default_factory=list)
    category: str | None = None  # the refusal category the task expects
    pipeline: KindResult
    baseline: KindResult | None = None


@dataclass
class Source:
    """Where provider answers come from for one run of the suite."""

    settings: Any  # ProviderSettings (its model/profile from the cassette meta when replaying)
    replay: Path | None = None
    record: Path | None = None
    # with ``record``: replay that directory's cassettes first, and record live only the
    # tasks whose cassette is missing, stale or mismatching
    only_stale: bool = False
    server_probe: Any = None  # a replay names the recorded server and asks nothing

    def replaying_record(self) -> Source:
        return Source(settings=self.settings, replay=self.record, server_probe=self.server_probe)


@dataclass
class RunnerOptions:
    work: Path
    repairs: int | None = None
    baseline: bool = False
    script_timeout: float = 120.0
    trust_cassette: bool = False  # run baseline scripts without a kernel box (isolation.py)
    pipeline: bool = True  # False (--no-pipeline): the baseline only
    progress: Callable[[str], None] = field(default=lambda line: print(line, file=sys.stderr))
    calls: str | None = None  # spec | model (--calls); None: the run policy's default
    design: str | None = None  # parts | whole (--design); None: the run policy's default
    task_timeout: float | None = None  # seconds each live run of a task (each kind) may take
    after_task: Callable[[TaskResult], None] | None = None  # e.g. a load sample


def stubs_path() -> Path:
    """The offline SAM's folder (``stubs/``, or its copy in the wheel: offline_sam.py)."""
    from sam_plugin.offline_sam import use_offline_sam

    return use_offline_sam()


def import_stub_sam() -> Any:
    """The offline SAM (put on ``sys.path`` explicitly, never installed as ``sam``): the suite
    is scored on the offline host even where a real SAM is importable."""
    stubs_path()
    import sam

    return sam


# -- the analyst's answers ----------------------------------------------------------------------


async def answer_yes(controller: Any, mode: str, target: Target) -> None:
    """Confirm the spec, then approve the plan when the controller stops at one."""
    from sam_plugin.runtime.run.phases import Phase

    if controller.phase == Phase.REVIEW:
        await controller.confirm(mode, target)
    plan = getattr(Phase, "PLAN", None)
    if plan is not None and controller.phase == plan and hasattr(controller, "execute"):
        await controller.execute()


# -- one task -----------------------------------------------------------------------------------


def prepare_workspace(task: Task, work: Path) -> Path:
    """Builds the task's starting database with its setup script and saves it."""
    sam = import_stub_sam()
    from sam.database import Mdb

    sam.mdb = Mdb()
    assert task.setup is not None
    task.setup(sam.mdb)
    path = work / "start.sam.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    sam.mdb.saveAs(str(path))
    return path


def fingerprint(sam: Any, task: Task) -> str:
    from sam_plugin.runtime.observe.observation import target_fingerprint
    from sam_plugin.samops.readback import read_part

    models = sam.mdb.models
    model = models[task.model] if task.model in models.keys() else None
    return target_fingerprint(read_part(model, task.part))


def judge(task: Task, sam: Any, before: str, result: KindResult,
          executed: bool) -> KindResult:
    """Acceptance on the final model: the checks (must verify) or unchanged (nothing runs)."""
    unchanged = fingerprint(sam, task) == before
    result.unchanged = unchanged
    if task.expect == "nothing_runs":
        right_layer = result.layer is None or result.layer in task.refuse_at
        result.accepted = not executed and right_layer and unchanged
        if executed or not unchanged:
            result.layer = "acceptance"
            result.message = ("it executed although nothing should run" if executed else
                              "the model changed although nothing should run")
    else:
        result.checks = [c.check(sam.mdb, task.model, task.part) for c in task.checks]
        result.accepted = result.layer is None and all(c.ok for c in result.checks)
        if result.layer is None and not result.accepted:
            result.layer = "acceptance"
            failed = [f"{c.name}: expected {c.expected}, actual {c.actual}"
                      for c in result.checks if not c.ok]
            result.message = "; ".join(failed)
    result.outcome = "accepted" if result.accepted else "failed"
    if result.accepted:
        result.layer = None
    return result


class _Exchanges:
    """Live (metered, maybe recorded) or replayed provider exchanges for one task and kind."""

    def __init__(self, source: Source, task: Task, kind: Kind):
        self.source, self.task, self.kind = source, task, kind
        self.meter = Meter()
        self.responder: ReplayResponder | None = None
        self.fake: Any = None
        in_flight = _IN_FLIGHT.get()
        if in_flight is not None:
            in_flight.append(self)

    def available(self) -> bool:
        if self.source.replay is None:
            return True
        cassette = Cassette.load(self.source.replay, self.task.name, self.kind)
        if cassette is None:
            return False
        from sam_plugin.demo.loopback import FakeProvider

        self.responder = ReplayResponder(cassette)
        self.fake = FakeProvider(responder=self.responder)
        return True

    @property
    def settings(self) -> Any:
        if self.fake is None:
            return self.source.settings
        return self.source.settings.model_copy(update={"base_url": self.fake.base_url})

    def factory(self) -> Callable[[Any], MeteredProvider]:
        from sam_plugin.runtime.provider.client import ChatProvider

        return lambda settings: MeteredProvider(ChatProvider(settings), self.meter)

    def mismatch(self) -> str | None:
        if self.responder is None:
            return None
        return self.responder.mismatch or self.responder.unused()

    def stale(self) -> str | None:
        return None if self.responder is None else self.responder.stale

    def close(self) -> None:
        if self.fake is not None:
            self.fake.close()

    def fill(self, result: KindResult, timeout: float | None = None) -> KindResult:
        """The exchanges' numbers into ``result``; a recording is saved with its seconds (and
        the bound that ended it)."""
        if self.source.record is not None:
            Cassette(task=self.task.name, kind=self.kind, exchanges=self.meter.exchanges,
                     seconds=result.seconds, timeout=timeout).save(self.source.record)
        if self.responder is not None and self.responder.cassette.seconds is not None:
            result.replay_seconds = result.seconds
            result.seconds = self.responder.cassette.seconds
        result.provider_rounds = self.meter.rounds
        result.prompt_tokens = self.meter.prompt_tokens
        result.completion_tokens = self.meter.completion_tokens
        stale, mismatch = self.stale(), self.mismatch()
        if stale:
            result.outcome, result.accepted, result.layer = "stale", False, "cassette"
            result.message = f"cassette stale: {stale}"
        elif mismatch:
            result.outcome, result.accepted, result.layer = "mismatch", False, "cassette"
            result.message = f"cassette mismatch: {mismatch}"
        elif self.responder is not None and self.responder.cassette.timeout is not None:
            result = _timed_out(result, self.responder.cassette.timeout)
        return result


# The exchanges a bounded run opened (_bounded): on its timeout they are kept as they stand.
_IN_FLIGHT: ContextVar[list[_Exchanges] | None] = ContextVar("in_flight", default=None)


def _timed_out(result: KindResult, bound: float) -> KindResult:
    return result.model_copy(update={
        "outcome": "failed", "status": "timeout", "layer": "timeout", "accepted": False,
        "message": f"ran over the task timeout of {bound:g} s", "checks": [],
        "unchanged": None})


def _skipped(kind: Kind, directory: Path | None) -> KindResult:
    return KindResult(outcome="skipped", status="skipped", layer=None,
                      message=f"no {kind} cassette in {directory}")


async def run_pipeline(task: Task, source: Source, options: RunnerOptions,
                       workspace: Path) -> KindResult:
    from sam_plugin.runtime.host_gateway import HostGateway
    from sam_plugin.runtime.run.controller import RunController

    exchanges = _Exchanges(source, task, "pipeline")
    if not exchanges.available():
        return _skipped("pipeline", source.replay)
    sam = import_stub_sam()
    sam.openMdb(str(workspace))
    before = fingerprint(sam, task)
    target = Target(model_name=task.model, part_name=task.part)
    started = time.perf_counter()
    try:
        controller = RunController(runs_dir=options.work / "runs", settings=exchanges.settings,
                                   host=HostGateway(sam), provider_factory=exchanges.factory(),
                                   policy=run_policy(options.repairs, options.calls,
                                                     options.design),
                                   server_probe=source.server_probe)
        try:
            await controller.submit(task.request, task.mode, target, source="eval")
            await answer_yes(controller, task.mode, target)
        finally:
            controller.let_go()  # the run ended: its lock (an open file) is let go
    finally:
        exchanges.close()
    seconds = time.perf_counter() - started
    run = controller.result
    assert run is not None
    error = run.error
    result = KindResult(
        outcome="failed", status=run.status, run_id=run.run_id, seconds=round(seconds, 3),
        layer=error.layer if error is not None and run.status != "verified" else None,
        message=error.message if error is not None else "",
        repair_rounds=int(getattr(run, "repairs", 0) or 0),
    )
    if run.status not in ("verified",) and result.layer is None:
        result.layer = run.status  # cancelled/unknown without an error layer
    result.ended_at = result.layer
    result.category = _category(error)
    judge(task, sam, before, result, executed=run.submissions > 0)
    return exchanges.fill(result)


def _category(error: Any) -> str | None:
    """The refusal category a run's error names (``result.json`` ``error.category``), if any."""
    category = getattr(error, "category", None)
    return str(category) if category else None


async def run_baseline(task: Task, source: Source, options: RunnerOptions,
                       workspace: Path) -> KindResult:
    """The free-Python baseline (baseline.py): the same observation, the host API and one
    example; a script that raises gets a repair round with its traceback, as many as the
    pipeline's, each on a fresh copy of the workspace."""
    from sam_plugin.runtime.provider.errors import ProviderError

    exchanges = _Exchanges(source, task, "baseline")
    if not exchanges.available():
        return _skipped("baseline", source.replay)
    sam = import_stub_sam()
    sam.openMdb(str(workspace))
    before = fingerprint(sam, task)
    messages = baseline_messages(task, sam)
    work = options.work / "baseline"
    work.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    attempts = 1 + run_policy(options.repairs).repair_rounds
    provider = exchanges.factory()(exchanges.settings)
    result = KindResult(outcome="failed", status="failed")
    try:
        for attempt in range(1, attempts + 1):
            try:
                response = await provider.stream_chat(
                    messages, None, options=baseline.request_options(exchanges.settings))
            except ProviderError as error:
                result = KindResult(outcome="failed", status="failed", layer="provider",
                                    message=str(error))
                break
            (work / f"answer.{attempt}.txt").write_text(response.content, encoding="utf-8")
            code = baseline.extract_code(response.content)
            if code is None:
                result = KindResult(outcome="failed", status="no_code", layer="no_code",
                                    message="the answer held no Python code block")
                if task.expect == "nothing_runs":
                    result.layer = None
                sam.openMdb(str(workspace))  # a refusal changes nothing
                break
            ran = baseline.run_script(code, workspace, work, stubs_path(), task.model,
                                      task.part, options.script_timeout,
                                      trust=options.trust_cassette)
            sam.openMdb(str(ran.saved if ran.saved is not None else workspace))
            result = KindResult(outcome="failed", status="raised" if ran.error else "ran",
                                layer="execution" if ran.error else None,
                                message=ran.error or "", repair_rounds=attempt - 1)
            if not ran.error:
                break
            messages = baseline.repair_messages(messages, response.content, ran.error)
    finally:
        await provider.aclose()
        exchanges.close()
    if result.layer == "execution" and task.expect == "nothing_runs":
        result.layer = None  # judged by whether the copy changed
    return exchanges.fill(_finish_baseline(task, sam, before, result, started, False))


def baseline_messages(task: Task, sam: Any) -> list[dict[str, str]]:
    """The baseline's first request: the pipeline's observation of the target (L0/L1, and
    the regions of a part with geometry), the host API, the request."""
    from sam_plugin.runtime.host_gateway import HostGateway
    from sam_plugin.runtime.observe.observation import observe
    from sam_plugin.runtime.observe.regions import region_index

    host = HostGateway(sam)
    target = Target(model_name=task.model, part_name=task.part)
    observation = observe(host, task.mode, target)
    summary: dict[str, Any] = json.loads(observation.prompt_json())
    if not observation.target_is_empty:
        summary["regions"] = region_index(host.part(target),
                                          observation.fingerprint).model_dump(mode="json")
    return baseline.messages_for(task.mode, task.model, task.part, summary, task.request)


def _finish_baseline(task: Task, sam: Any, before: str, result: KindResult, started: float,
                     executed: bool) -> KindResult:
    result.seconds = round(time.perf_counter() - started, 3)
    return judge(task, sam, before, result, executed=executed)


def run_policy(repairs: int | None, calls: str | None = None,
               design: str | None = None) -> RunPolicy:
    """``--repairs N``, ``--calls`` and ``--design`` over the default run policy (no saved
    settings: a suite is reproducible on any machine)."""
    policy = RunPolicy.from_saved({"repair_rounds": repairs})
    update = {key: value for key, value in (("calls", calls), ("design", design))
              if value is not None}
    return policy.model_copy(update=update) if update else policy


async def run_task(task: Task, source: Source, options: RunnerOptions) -> TaskResult:
    work = options.work / task.name
    if work.exists():
        shutil.rmtree(work)
    workspace = prepare_workspace(task, work)
    task_options = replace(options, work=work)
    pipeline = (await _run_kind(run_pipeline, task, source, task_options, workspace)
                if options.pipeline else KindResult(outcome="skipped", status="skipped",
                                                    message="--no-pipeline"))
    free = None
    if options.baseline:
        free = await _run_kind(run_baseline, task, source, task_options, workspace)
    return TaskResult(name=task.name, mode=task.mode, expect=task.expect, tags=list(task.tags),
                      category=task.category, pipeline=pipeline, baseline=free)


async def _run_kind(run: Callable[..., Any], task: Task, source: Source,
                    options: RunnerOptions, workspace: Path) -> KindResult:
    """One kind of run; with ``--only-stale`` a cassette that still replays is kept."""
    if source.only_stale and source.record is not None:
        kept = await _guarded(run(task, source.replaying_record(), options, workspace))
        if kept.outcome not in RERECORD:
            kept.message = (kept.message + " " if kept.message else "") + "(cassette kept)"
            return kept
    return await _bounded(run, task, source, options, workspace)


async def _bounded(run: Callable[..., Any], task: Task, source: Source,
                   options: RunnerOptions, workspace: Path) -> KindResult:
    """A live run ended at ``--task-timeout``: failed at layer ``timeout``, its exchanges
    recorded as they stood (the request in flight last), and the suite goes on. A replay
    is not bounded: it reports the timeout its cassette recorded."""
    bound = options.task_timeout
    if bound is None or source.replay is not None:
        return await _guarded(run(task, source, options, workspace))
    opened: list[_Exchanges] = []
    token = _IN_FLIGHT.set(opened)
    started = time.perf_counter()
    try:
        async with asyncio.timeout(bound):
            return await _guarded(run(task, source, options, workspace))
    except TimeoutError:  # _guarded turns the run's own errors into results
        seconds = round(time.perf_counter() - started, 3)
        result = _timed_out(KindResult(outcome="failed", status="timeout", seconds=seconds),
                            bound)
        for exchanges in opened:
            result = exchanges.fill(result, timeout=bound)
        return result
    finally:
        _IN_FLIGHT.reset(token)


async def _guarded(work: Any) -> KindResult:
    """A runner bug on one task is that task's error, never the end of the suite."""
    try:
        return await work
    except Exception as error:
        return KindResult(outcome="error", status="error", layer="runner",
                          message=f"{type(error).__name__}: {error}")


async def run_suite(tasks: Sequence[Task], source: Source,
                    options: RunnerOptions) -> list[TaskResult]:
    results = []
    for number, task in enumerate(tasks, start=1):
        result = await run_task(task, source, options)
        results.append(result)
        options.progress(progress_line(number, len(tasks), result))
        if options.after_task is not None:
            options.after_task(result)
    return results


def progress_line(number: int, total: int, result: TaskResult) -> str:
    line = f"[{number}/{total}] {result.name}: {_describe(result.pipeline)}"
    if result.baseline is not None:
        line += f" | free-python: {_describe(result.baseline)}"
    return line


def _describe(kind: KindResult) -> str:
    if kind.outcome == "skipped":
        return f"skipped ({kind.message or 'no cassette'})" if kind.message.startswith(
            "--") else "skipped (no cassette)"
    if kind.outcome == "stale":
        return "stale (the prompts changed since the recording)"
    where = "" if kind.accepted else f" at {kind.layer}"
    return (f"{kind.outcome}{where} ({kind.status}; {kind.provider_rounds} rounds, "
            f"{kind.prompt_tokens}+{kind.completion_tokens} tokens, {kind.seconds:.1f} s)")
