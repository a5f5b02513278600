"""Before a run exists: whether one may start now, whether its inputs can be used, and a
fresh run id (docs/architecture.md §1, I8). Refusals are ``SubmitRefused`` with words that
name what to fix; nothing is written for a refused start."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from sam_plugin.compilers.protocol import DomainModule, Target
from sam_plugin.compilers.registry import MODES
from sam_plugin.compilers.spec.ir import Spec
from sam_plugin.errors import ControllerBusy, SubmitRefused
from sam_plugin.runtime.config.policy import PLAN_WAITS, RunPolicy
from sam_plugin.runtime.config.settings import ProviderSettings
from sam_plugin.runtime.ports import Host
from sam_plugin.runtime.run.phases import BUSY, Phase
from sam_plugin.runtime.store.file_lock import is_locked
from sam_plugin.runtime.store.journal import SubmissionJournal
from sam_plugin.runtime.store.run_store import LOCK_NAME, new_run_id

# What an analyst would type, and then some: a larger request is data, not a request, and
# is refused before any paid call (a 200 MB request file was read and sent whole).
MAX_REQUEST_BYTES = 64 * 1024


def request_size_problem(size: int, what: str = "the request") -> str | None:
    """Why a request of ``size`` UTF-8 bytes is refused (None: it is not)."""
    if size <= MAX_REQUEST_BYTES:
        return None
    return (f"{what} is {size:,} bytes; a request may have at most {MAX_REQUEST_BYTES:,} "
            f"bytes ({MAX_REQUEST_BYTES // 1024} KB): describe the change in words and keep "
            "the data in the workspace")


def refuse_if_busy(phase: Phase, action: str = "submit") -> None:
    if phase in BUSY:
        raise ControllerBusy(f"{action}: a run is {phase}; wait for it or cancel it")
    if phase == Phase.REVIEW:
        raise ControllerBusy(f"{action}: a spec is waiting for review; confirm or cancel it "
                             "before submitting again")
    if phase == Phase.PLAN:
        raise ControllerBusy(f"{action}: a plan is waiting for approval; execute or decline "
                             "it before submitting again")


def check_provider(settings: ProviderSettings) -> None:
    """A run that asks a model needs a configured provider."""
    missing = settings.missing_fields()
    if missing:
        raise SubmitRefused(
            "provider settings incomplete: missing " + ", ".join(missing)
            + " (set them in the dock settings or SAM_AGENT_BASE_URL, SAM_AGENT_API_KEY, "
            "SAM_AGENT_MODEL)")


def summary_of(spec: object) -> str:
    """A given spec's summary (its request, when the analyst typed none); ``spec`` as the
    spec IR, its JSON object or its JSON text; "" when it has none (the reader says why)."""
    if isinstance(spec, Spec):
        return spec.summary
    if isinstance(spec, str):
        try:
            spec = json.loads(spec)
        except ValueError:
            return "(a spec that does not parse)"
    summary = spec.get("summary") if isinstance(spec, dict) else None
    return summary.strip() if isinstance(summary, str) and summary.strip() else \
        "(a spec without a summary)"


def check_inputs(request: str, mode: str, target: Target, host: Host | None, runs_dir: Path,
                 module_factory: Callable[[str], DomainModule]) -> DomainModule:
    """The domain module of ``mode``, once request, mode, target, host and runs directory
    can be used."""
    if not request.strip():
        raise SubmitRefused("request: empty; describe the change you want")
    too_large = request_size_problem(len(request.encode("utf-8", "surrogatepass")))
    if too_large is not None:
        raise SubmitRefused(f"request: {too_large}")
    if mode not in MODES:
        raise SubmitRefused(f"mode: unknown mode {mode!r}; legal modes: {', '.join(MODES)}")
    if not target.model_name.strip() or not target.part_name.strip():
        raise SubmitRefused("target: pick a model and a part (a new part name may be typed)")
    if host is None or host.mdb is None:
        raise SubmitRefused("host: no SAM database is open")
    try:
        runs_dir.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        reason = ("it is a file, not a directory" if runs_dir.is_file()
                  else f"cannot create it ({error.strerror or error})")
        raise SubmitRefused(f"runs directory {runs_dir}: {reason}") from None
    try:
        return module_factory(mode)
    except (ImportError, ValueError) as error:
        raise SubmitRefused(f"mode {mode!r}: domain module unavailable ({error})") from None


def fresh_run_id(runs_dir: Path, journal: SubmissionJournal) -> str:
    for _ in range(20):
        run_id = new_run_id()
        if not (runs_dir / run_id).exists() and journal.state_of(run_id) == "none":
            return run_id
    raise SubmitRefused(f"runs directory {runs_dir}: could not allocate a fresh run id")


def kept_run_id(runs_dir: Path, journal: SubmissionJournal, run_id: str) -> str:
    """``run_id`` once more, for a plan made again under the run that made it first (a plan an
    MCP server kept): its directory exists, it has ended in no result and never submitted."""
    directory = runs_dir / run_id
    if not directory.is_dir():
        raise SubmitRefused(f"run {run_id}: no such run in {runs_dir}")
    if (directory / "result.json").exists() or journal.state_of(run_id) != "none":
        raise SubmitRefused(f"run {run_id} has ended (or was submitted); its plan is not made "
                            "again")
    if is_locked(directory / LOCK_NAME):
        raise SubmitRefused(f"run {run_id} is held by another live process")
    return run_id


def plan_wait(override: str | None, policy: RunPolicy) -> str:
    """When this confirm's plan waits (``override``, else the policy's), checked up front."""
    wait = override or policy.plan_wait
    if wait not in PLAN_WAITS:
        raise ValueError(f"plan_wait: {wait!r} is not one of {', '.join(PLAN_WAITS)}")
    return wait
