"""The run a rerun repeats, read from its directory (docs/architecture.md §6 "rerun", §7).

What it holds is all a rerun needs and nothing a model writes anew: the request, the mode, the
part it changed, the confirmed spec (``spec.json``; a run written before the spec IR is
refused) and the calls as they were compiled (``normalized_calls.json``).
Only a run whose verified outcome was sealed qualifies (``outcome_seal``: it may have been
undone since, its calls are the same), whatever its ``result.json`` says, and only while its
spec, calls and script hold the seal its plan gave them (``source_seal``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sam_plugin.compilers import registry
from sam_plugin.compilers.protocol import Target
from sam_plugin.compilers.spec.ir import Spec
from sam_plugin.compilers.spec.reading import spec_from_json
from sam_plugin.errors import RerunRefused, SpecRejected
from sam_plugin.runtime.store.outcome_seal import unsealed_outcome
from sam_plugin.runtime.store.run_store import RUN_ID_PATTERN, RunDir, RunResult, StateSummary
from sam_plugin.runtime.store.source_seal import unsealed_source

RERUNNABLE = ("verified", "undone")
ABSENT_PREFIX = "absent-"  # the fingerprint of a part that did not exist (samops.readback)


@dataclass(frozen=True)
class RerunSource:
    """A verified run as a rerun reads it."""

    run_id: str
    mode: str
    target: Target  # the part the run changed
    request: str
    spec: Spec  # the confirmed spec IR (spec.json)
    calls: tuple[tuple[str, dict[str, Any]], ...]  # (tool, normalized arguments)
    # the source part's counts before the run (its spec's expected counts are restated from
    # them for each target: rerun/expected.py); None when result.json kept none
    before: StateSummary | None = None

    @property
    def tools(self) -> list[str]:
        return [tool for tool, _ in self.calls]

    @property
    def changed_existing_part(self) -> bool:
        """The run changed a part that was there (it did not build it): a rerun of it needs
        an existing part too. False when it built its part, or when that was not kept."""
        fingerprint = self.before.fingerprint if self.before is not None else None
        return fingerprint is not None and not fingerprint.startswith(ABSENT_PREFIX)


def load_source(runs_dir: Path, run_id: str) -> RerunSource:
    """The run ``run_id`` under ``runs_dir``; ``RerunRefused`` says why it cannot be rerun."""
    if not RUN_ID_PATTERN.match(run_id):
        raise RerunRefused(f"RUN_ID: {run_id!r} is not a run id (like 20261129T193000Z-ab12cd)")
    run = RunDir(runs_dir, run_id)
    if not run.path.is_dir():
        raise RerunRefused(f"RUN_ID: no run {run_id} in {runs_dir} (sam-agent runs lists them; "
                           "--runs-dir names another runs directory)")
    result = _result(run)
    if result.status not in RERUNNABLE:
        raise RerunRefused(f"run {run_id} is {result.status}: only a verified run (or one "
                           "verified and since undone) can be rerun")
    unsealed = unsealed_outcome(run, result) or unsealed_source(run)
    if unsealed is not None:
        raise RerunRefused(f"run {run_id}: {unsealed}")
    return RerunSource(run_id=run_id, mode=result.module, target=result.target,
                       request=_text(run, "request.txt"), spec=_spec(run, result.module),
                       calls=_calls(run), before=result.before)


def _result(run: RunDir) -> RunResult:
    try:
        result = run.read_result()
    except ValueError as error:
        raise RerunRefused(f"run {run.run_id}: result.json cannot be read ({error})") from None
    if result is None:
        raise RerunRefused(f"run {run.run_id} has no result.json: it never ended")
    return result


def _text(run: RunDir, name: str) -> str:
    try:
        text = run.file(name).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise RerunRefused(f"run {run.run_id}: {name} cannot be read ({error})") from None
    if not text.strip():
        raise RerunRefused(f"run {run.run_id}: {name} is empty")
    return text.strip()


def _spec(run: RunDir, mode: str) -> Spec:
    """``spec.json`` as the spec IR of ``mode``. A run confirmed before specs were data has
    only words (``design.txt``), which nothing can bind its calls to (I15): refused."""
    path = run.file("spec.json")
    if not path.exists():
        raise RerunRefused(f"run {run.run_id} has no spec.json (it was confirmed as words, "
                           "before specs were data), so its calls cannot be bound to a "
                           "spec; ask for the change again on the other parts")
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
        return spec_from_json(document, registry.get_module(mode).vocabulary)
    except (OSError, ValueError) as error:  # SpecRejected is a ValueError
        problems = "; ".join(error.problems) if isinstance(error, SpecRejected) else str(error)
        raise RerunRefused(f"run {run.run_id}: spec.json is not a {mode} spec "
                           f"({problems})") from None


def _calls(run: RunDir) -> tuple[tuple[str, dict[str, Any]], ...]:
    name = "normalized_calls.json"
    try:
        entries = json.loads(run.file(name).read_text(encoding="utf-8"))
    except OSError:
        raise RerunRefused(f"run {run.run_id} kept no {name}: there are no calls to "
                           "rerun") from None
    except ValueError as error:
        raise RerunRefused(f"run {run.run_id}: {name} is not JSON ({error})") from None
    if not isinstance(entries, list) or not entries or not all(
            isinstance(e, dict) and isinstance(e.get("tool"), str)
            and isinstance(e.get("arguments"), dict) for e in entries):
        raise RerunRefused(f"run {run.run_id}: {name} must be a non-empty list of "
                           '{"tool": NAME, "arguments": {...}}')
    return tuple((str(e["tool"]), dict(e["arguments"])) for e in entries)
