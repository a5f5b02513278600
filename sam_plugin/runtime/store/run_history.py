"""The run history: every run under a runs folder, newest first, with what it was about
(``RunSummary``); the analyst's acknowledgement of a run whose outcome is unknown; and the
crash recovery that marks runs submitted without a recorded outcome (I8)."""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from sam_plugin.compilers.protocol import Target
from sam_plugin.errors import NotUnknown
from sam_plugin.runtime.store.run_store import (
    JOURNAL_NAME,
    RUN_ID_PATTERN,
    ErrorRecord,
    RunDir,
    RunResult,
    RunSource,
    run_started,
)
from sam_plugin.runtime.store.scrubber import Scrubber

log = logging.getLogger(__name__)


class RunSummary(BaseModel):
    """One line of the run history, newest first."""

    run_id: str
    status: str  # a RunStatus, or "incomplete" (no result yet: open or abandoned)
    request: str
    module: str
    started: str
    model: str = ""  # the target, from result.json or else the observation ("" when neither)
    part: str = ""
    # an ``unknown`` run the analyst has looked at (``sam-agent runs --ack``, History)
    acknowledged: bool = False
    # how the run's calls came (result.json's ``source``) and, for a rerun, the run they came from
    source: RunSource | None = None
    source_run: str | None = None


def acknowledge_unknown_run(runs_dir: Path, run_id: str) -> bool:
    """Record that the analyst has seen the ``unknown`` run ``run_id`` (the History button and
    ``sam-agent runs --ack``); False when it was acknowledged already. The run itself stays
    unknown and is never resubmitted."""
    from sam_plugin.runtime.store.journal import SubmissionJournal

    journal = SubmissionJournal(Path(runs_dir) / JOURNAL_NAME)
    if run_id not in journal.unknown_runs():
        raise NotUnknown(
            f"run {run_id} is not a run with an unknown outcome; only those can be "
            f"acknowledged (unknown runs: {', '.join(journal.unknown_runs()) or 'none'})"
        )
    if run_id in journal.acknowledged_runs():
        return False
    journal.record_marked(run_id, "acknowledged")
    return True


def list_runs(runs_dir: Path) -> list[RunSummary]:
    """Every run under ``runs_dir``, newest first (run ids sort by time)."""
    from sam_plugin.runtime.store.journal import SubmissionJournal

    runs_dir = Path(runs_dir)
    if not runs_dir.is_dir():
        return []
    # read once: runs submitted but never recorded as executed
    journal = SubmissionJournal(runs_dir / JOURNAL_NAME)
    unknown = set(journal.unknown_runs())
    acknowledged = journal.acknowledged_runs()
    summaries = []
    for entry in sorted(runs_dir.iterdir(), key=_newest_first_key, reverse=True):
        if not entry.is_dir() or not RUN_ID_PATTERN.match(entry.name):
            continue
        summary = _summarize(RunDir(runs_dir, entry.name), unknown)
        if summary.run_id in acknowledged:
            summary.acknowledged = True
        summaries.append(summary)
    return summaries


def _newest_first_key(entry: Path) -> tuple[str, int]:
    """Run ids sort by the second they were made; two runs of one second (a script, a
    rerun) sort by when their directories were made, not by their random suffix."""
    try:
        made = entry.stat().st_mtime_ns if not (entry / "request.txt").exists() else (
            (entry / "request.txt").stat().st_mtime_ns)
    except OSError:
        made = 0
    return entry.name[:16], made


def _summarize(run: RunDir, unknown: set[str]) -> RunSummary:
    request_path = run.file("request.txt")
    request = request_path.read_text(encoding="utf-8") if request_path.exists() else ""
    status: str  # a RunStatus, or "incomplete"
    try:
        result = run.read_result()
    except ValueError:
        result = None
    model = part = ""
    source: RunSource | None = None
    source_run: str | None = None
    if result is not None:
        status, module = result.status, result.module
        model, part = result.target.model_name, result.target.part_name
        source, source_run = result.source, result.source_run
        module = module or str(_observed(run).get("mode", ""))
    else:  # no result yet: the observation says what the run was about
        status = "unknown" if run.run_id in unknown else "incomplete"
        observed = _observed(run)
        target = observed.get("target")
        if isinstance(target, dict):
            model, part = str(target.get("model_name", "")), str(target.get("part_name", ""))
        module = str(observed.get("mode", ""))
    return RunSummary(
        run_id=run.run_id,
        status=status,
        request=request,
        module=module,
        started=run_started(run.run_id),
        model=model,
        part=part,
        source=source,
        source_run=source_run,
    )


def _observed(run: RunDir) -> dict[str, Any]:
    """The observation's top level (mode, target), or nothing when it is not readable."""
    path = run.file("workspace.json")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


# -- crash recovery -------------------------------------------------------------------------


class Recovery(BaseModel):
    """Runs the journal shows submitted without a recorded outcome (``unknown``), and those
    whose ``result.json`` was rewritten to say so."""

    unknown: list[str] = Field(default_factory=list)
    recovered: list[str] = Field(default_factory=list)


def recover_unknown_runs(runs_dir: Path, scrubber: Scrubber | None = None) -> Recovery:
    """Runs submitted without a recorded outcome whose owner is gone (a crash): mark them
    ``unknown`` (I8), once per run.

    The journal decides, not whether a result.json exists: a run returned to Review once
    has a "rejected" result from before its later submission. A run whose lock a live
    process holds is executing right now: it is left alone.
    """
    from sam_plugin.runtime.store.journal import SubmissionJournal

    journal = SubmissionJournal(Path(runs_dir) / JOURNAL_NAME)
    marked = journal.recovered_runs()
    recovery = Recovery()
    for run_id in journal.unknown_runs():
        run_dir = RunDir(Path(runs_dir), run_id, scrubber)
        if run_dir.path.is_dir() and run_dir.owned_elsewhere:
            continue
        recovery.unknown.append(run_id)
        if run_id in marked or not run_dir.path.is_dir():
            continue
        try:
            run_dir.write_result(_unknown_result(run_dir, run_id))
        except (OSError, ValueError, KeyError):
            log.warning("run %s: outcome unknown and its artifacts are incomplete", run_id)
        journal.record_marked(run_id, "recovered")
        recovery.recovered.append(run_id)
    return recovery


def _unknown_result(run_dir: RunDir, run_id: str) -> RunResult:
    from sam_plugin.runtime.run.phases import Phase
    from sam_plugin.runtime.store.journal import UNKNOWN_ADVICE

    error = ErrorRecord(layer="execution", message=UNKNOWN_ADVICE)
    earlier = run_dir.read_result()
    if earlier is not None:
        return earlier.model_copy(
            update={"status": "unknown", "phase": str(Phase.EXECUTING), "submissions": 1,
                    "error": error, "after": None, "checks": []}
        )
    workspace = json.loads(run_dir.file("workspace.json").read_text(encoding="utf-8"))
    route = json.loads(run_dir.file("design_route.json").read_text(encoding="utf-8"))
    return RunResult(
        run_id=run_id,
        status="unknown",
        phase=str(Phase.EXECUTING),
        module=workspace.get("mode", ""),
        target=Target.model_validate(workspace["target"]),
        tools=list(route.get("tools", [])),
        submissions=1,
        error=error,
    )
