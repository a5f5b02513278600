"""Undo a verified run: the snapshot its script took, kept in its run directory.

A run can be undone while the live part still has the run's after-fingerprint (nothing
changed it since) and its ``snapshot.npz`` is still kept: only the last few runs' snapshots
stay, within a disk budget (``UndoBudget``); an older run says it can no longer be undone.
No Qt here: the controller, the CLI and the dock call these functions.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from sam_plugin.errors import UndoRefused
from sam_plugin.runtime.config.policy import UndoBudget
from sam_plugin.runtime.observe.observation import target_fingerprint
from sam_plugin.runtime.ports import Host, SnapshotHost
from sam_plugin.runtime.store.private import open_append
from sam_plugin.runtime.store.run_store import RUN_ID_PATTERN, RunDir, RunResult, StateSummary

SNAPSHOT_NAME = "snapshot.npz"

Emit = Callable[[str, dict[str, Any]], object]  # its return is ignored


def keep_snapshot(host: Host, run_dir: RunDir, budget: UndoBudget) -> tuple[bool, str | None]:
    """Write the host's last snapshot into ``run_dir`` and drop older ones over the budget.

    Returns (undoable, note). A host without snapshots, or a zero budget, says so.
    """
    if not isinstance(host, SnapshotHost) or not host.has_snapshot:
        return False, "this host kept no snapshot of the run, so it cannot be undone"
    if budget.runs == 0 or budget.megabytes == 0:
        host.forget_snapshot()
        return False, "undo is turned off (the undo budget keeps no runs)"
    size = host.keep_snapshot(run_dir.file(SNAPSHOT_NAME))
    if size > budget.megabytes * 1e6:
        run_dir.file(SNAPSHOT_NAME).unlink(missing_ok=True)
        return False, (f"the snapshot ({size / 1e6:.1f} MB) exceeds the undo budget "
                       f"({budget.megabytes:g} MB), so this run cannot be undone")
    enforce_budget(run_dir.path.parent, budget, keep=run_dir.run_id)
    return True, None


def enforce_budget(runs_dir: Path, budget: UndoBudget, keep: str | None = None) -> list[str]:
    """Delete the oldest snapshots beyond the budget; their runs say they can no longer be
    undone. Returns the run ids whose snapshot was dropped."""
    # newest first: the run just kept, then by when each snapshot was written (two run ids
    # of the same second sort by their random part, not by time)
    kept = sorted((p for p in Path(runs_dir).glob(f"*/{SNAPSHOT_NAME}")
                   if RUN_ID_PATTERN.match(p.parent.name)),
                  key=lambda p: (p.parent.name == keep, p.stat().st_mtime_ns, p.parent.name),
                  reverse=True)
    dropped, total, count = [], 0, 0
    for path in kept:
        size = path.stat().st_size
        if path.parent.name == keep or (count < budget.runs and
                                         total + size <= budget.megabytes * 1e6):
            total, count = total + size, count + 1
            continue
        path.unlink(missing_ok=True)
        dropped.append(path.parent.name)
        _mark_dropped(RunDir(runs_dir, path.parent.name), budget)
    return dropped


def _mark_dropped(run_dir: RunDir, budget: UndoBudget) -> None:
    result = _read(run_dir)
    if result is None:
        return
    run_dir.write_result(result.model_copy(update={
        "undoable": False,
        "undo_note": f"can no longer be undone: its snapshot was dropped (undo keeps "
                     f"{budget.describe()})"}))


def _read(run_dir: RunDir) -> RunResult | None:
    try:
        return run_dir.read_result()
    except ValueError:
        return None


def log_emitter(run_dir: RunDir) -> Emit:
    """An ``emit`` that appends to the run's ``events.jsonl`` (for callers without a bus)."""
    from sam_plugin.runtime.events import ControllerEvent, utc_timestamp

    def emit(event: str, data: dict[str, Any]) -> None:
        record = ControllerEvent(run_id=run_dir.run_id, event=event, timestamp=utc_timestamp(),
                                 data=data)
        with open_append(run_dir.file("events.jsonl")) as handle:
            handle.write(record.to_line() + "\n")

    return emit


def undo_refusal(host: Host, runs_dir: Path, run_id: str) -> str | None:
    """Why ``run_id`` cannot be undone now, or None when it can."""
    if not RUN_ID_PATTERN.match(run_id):
        return f"run id {run_id!r} is not a run id (like 20261129T193000Z-ab12cd)"
    run_dir = RunDir(runs_dir, run_id)
    result = _read(run_dir)
    if result is None:
        return f"run {run_id} has no readable result.json in {runs_dir}"
    if result.status == "undone":
        return f"run {run_id} was already undone"
    if result.status != "verified":
        return f"run {run_id} is {result.status}, not verified: only a verified run is undone"
    if not run_dir.file(SNAPSHOT_NAME).exists():
        return result.undo_note or f"run {run_id} kept no snapshot: it can no longer be undone"
    expected = result.after.fingerprint if result.after else None
    if not expected:
        return f"run {run_id} recorded no after-fingerprint, so its part cannot be checked"
    try:
        live = target_fingerprint(host.readback(result.target))
    except Exception as error:  # noqa: BLE001 - the host's failure, said plainly
        return f"the part could not be read back: {error}"
    if live != expected:
        return (f"the part {result.target.model_name}/{result.target.part_name} changed after "
                f"run {run_id} (fingerprint {live}, the run left {expected}): undoing it "
                "would throw that change away")
    return None


def undo_run(host: Host, runs_dir: Path, run_id: str, emit: Emit | None = None) -> RunResult:
    """Put the part back as it was before ``run_id``; the run's result becomes ``undone``."""
    refusal = undo_refusal(host, runs_dir, run_id)
    if refusal is not None:
        raise UndoRefused(refusal)
    if not isinstance(host, SnapshotHost):
        raise UndoRefused("this host takes no snapshot, so it cannot undo a run")
    run_dir = RunDir(runs_dir, run_id)
    result = _read(run_dir)
    assert result is not None and result.before is not None
    outcome = host.undo(result.target, run_dir.file(SNAPSHOT_NAME))
    readback = host.readback(result.target)
    now = StateSummary.from_readback(readback)
    if not outcome.restored or now.fingerprint != result.before.fingerprint:
        left = ", ".join(outcome.left) or "unknown"
        reason = outcome.error or f"fingerprint {now.fingerprint} after the undo, " \
                                  f"{result.before.fingerprint} before the run"
        raise UndoRefused(f"the undo of run {run_id} did not put the part back ({reason}); "
                          f"what may differ: {left}. Re-observe the part.")
    run_dir.file(SNAPSHOT_NAME).unlink(missing_ok=True)
    undone = result.model_copy(update={
        "status": "undone", "after": now, "undoable": False,
        "undo_note": "undone: the part is back as it was before this run"})
    run_dir.write_result(undone)
    if emit is not None:
        emit("run_undone", {"fingerprint": now.fingerprint})
    return undone
