"""Undo a verified run: the snapshot its script took, kept in its run directory.

A run can be undone while the live part still has the run's after-fingerprint (nothing
changed it since) and its ``snapshot.npz`` is still kept: only the last few runs' snapshots
stay, within a disk budget (``UndoBudget``); an older run says it can no longer be undone. The
file holds only what the run touched (``samops.snapshot_delta``), and it is loaded only after
its sizes fit the run's recorded counts and its seal (``snapshot_seal``) holds; a run that
changed nothing keeps none.
No Qt here: the controller, the CLI and the dock call these functions.
"""

from __future__ import annotations

import zipfile
from pathlib import Path
from typing import Any, NamedTuple

from sam_plugin.compilers.protocol import Target
from sam_plugin.errors import UndoRefused
from sam_plugin.runtime.config.policy import UndoBudget
from sam_plugin.runtime.event_types import RunUndone
from sam_plugin.runtime.events import ControllerEvent, Emit, RunEvent
from sam_plugin.runtime.observe.observation import target_fingerprint
from sam_plugin.runtime.ports import Host, SnapshotHost
from sam_plugin.runtime.store.private import open_append
from sam_plugin.runtime.store.run_store import (
    RUN_ID_PATTERN,
    KeptSnapshot,
    RunDir,
    RunResult,
    StateSummary,
)
from sam_plugin.runtime.store.snapshot_seal import file_sha256, holds, seal, secret
from sam_plugin.samops import snapshot_file

SNAPSHOT_NAME = "snapshot.npz"



CHANGED_NOTHING = "the run changed nothing"
LEGACY = ("its snapshot was kept before snapshots were sealed to their run, so it cannot be "
          "undone safely")


class Kept(NamedTuple):
    undoable: bool
    note: str | None
    snapshot: KeptSnapshot | None = None


def keep_snapshot(host: Host, run_dir: RunDir, budget: UndoBudget, *, target: Target,
                  before: StateSummary | None, after: StateSummary) -> Kept:
    """Write what undo needs of the host's last snapshot into ``run_dir``, seal it to the run
    (``snapshot_seal``), and drop older snapshots over the budget. A host without snapshots,
    or a zero budget, says so."""
    if not isinstance(host, SnapshotHost) or not host.has_snapshot:
        return Kept(False, "this host kept no snapshot of the run, so it cannot be undone")
    if budget.runs == 0 or budget.megabytes == 0:
        host.forget_snapshot()
        return Kept(False, "undo is turned off (the undo budget keeps no runs)")
    path = run_dir.file(SNAPSHOT_NAME)
    size = host.keep_snapshot(path, after=after.fingerprint or "")  # the readback's own read
    if size > budget.megabytes * 1e6:
        path.unlink(missing_ok=True)
        return Kept(False, f"the snapshot ({size / 1e6:.1f} MB) exceeds the undo budget "
                           f"({budget.megabytes:g} MB), so this run cannot be undone")
    members = snapshot_file.member_sizes(path)
    kept = KeptSnapshot(bytes=size, members=members, seal=seal(
        secret(), **_sealed_fields(run_dir.run_id, target, before, after, members,
                                   file_sha256(path))))
    enforce_budget(run_dir.path.parent, budget, keep=run_dir.run_id)
    return Kept(True, None, kept)


def _sealed_fields(run_id: str, target: Target, before: StateSummary | None,
                   after: StateSummary | None, members: dict[str, int],
                   sha256: str) -> dict[str, Any]:
    """What the seal binds: the run, its target, its before and after states, the file."""
    return {"run_id": run_id, "target": target,
            "nodes": before.node_count if before else 0,
            "elements": before.element_count if before else 0,
            "before": (before.fingerprint or "") if before else "",
            "after": (after.fingerprint or "") if after else "",
            "members": members, "sha256": sha256}


def snapshot_refusal(run_dir: RunDir, result: RunResult) -> str | None:
    """Why the kept snapshot of ``result`` must not be loaded (None: it is the one this plugin
    kept for that run): sizes against the run's recorded counts first, then the seal."""
    path = run_dir.file(SNAPSHOT_NAME)
    kept = result.undo_snapshot
    if kept is None:
        return f"run {result.run_id}: {LEGACY}"
    limits = snapshot_limits(result)
    try:
        size = path.stat().st_size
        if size != kept.bytes or size > sum(limits.member(name) for name in kept.members) \
                + 64 * 1024:
            return (f"run {result.run_id}: its snapshot.npz has {size} bytes, not the "
                    f"{kept.bytes} the run kept; it is not loaded")
        members = snapshot_file.member_sizes(path)
    except (OSError, ValueError, zipfile.BadZipFile) as error:
        return f"run {result.run_id}: its snapshot.npz cannot be read ({error})"
    if members != kept.members or any(size > limits.member(name) for name, size
                                      in members.items() if name in kept.members):
        return (f"run {result.run_id}: its snapshot.npz holds more than the run's recorded "
                "counts allow; it is not loaded")
    fields = _sealed_fields(result.run_id, result.target, result.before, result.after,
                            members, file_sha256(path))
    if not holds(secret(), kept.seal, **fields):
        return (f"run {result.run_id}: its snapshot.npz or result.json is not what this "
                "plugin kept for the run (the seal does not match); it is not loaded")
    return None


def snapshot_limits(result: RunResult) -> snapshot_file.Limits:
    before = result.before
    nodes = before.node_count if before else 0
    elements = before.element_count if before else 0
    meta = (result.undo_snapshot.members.get("meta", 0) if result.undo_snapshot else 0)
    return snapshot_file.Limits.of_counts(nodes, elements, meta)


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

    def emit(event: RunEvent, /) -> None:
        record = ControllerEvent.of(run_dir.run_id, event)
        with open_append(run_dir.file("events.jsonl")) as handle:
            handle.write(record.to_line() + "\n")

    return emit


def undo_refusal(host: Host, runs_dir: Path, run_id: str) -> str | None:
    """Why ``run_id`` cannot be undone now, or None when it can."""
    if not RUN_ID_PATTERN.match(run_id):
        return f"run id {run_id!r} is not a run id (like 20261129T193000Z-ab12cd)"
    run_dir = RunDir(runs_dir, run_id)
    try:
        result = run_dir.read_result()
    except ValueError as error:
        return f"run {run_id} has no readable result.json in {runs_dir} ({error})"
    if result is None:
        return f"run {run_id} has no readable result.json in {runs_dir}"
    if result.status == "undone":
        return f"run {run_id} was already undone"
    if result.status != "verified":
        return f"run {run_id} is {result.status}, not verified: only a verified run is undone"
    if not run_dir.file(SNAPSHOT_NAME).exists():
        return result.undo_note or f"run {run_id} kept no snapshot: it can no longer be undone"
    refused = snapshot_refusal(run_dir, result)
    if refused is not None:
        return refused
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
    try:
        outcome = host.undo(result.target, run_dir.file(SNAPSHOT_NAME),
                            snapshot_limits(result))
    except ValueError as error:  # refused while loading: nothing was changed
        raise UndoRefused(f"run {run_id}: {error}; nothing was changed") from None
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
        emit(RunUndone(fingerprint=now.fingerprint))
    return undone


UNDO_MOVES_SHOWN = 5  # coordinates named in an undo's words; the rest counted


def undo_moves(host: Host, runs_dir: Path, run_id: str) -> list[str]:
    """What an undo of ``run_id`` moves back, from its sealed snapshot and the live part:
    ``node 25: (45, 45, 0) back to (40, 40, 0)`` (empty: nothing moved, or the run cannot
    be undone; ``undo_refusal`` says why)."""
    if undo_refusal(host, runs_dir, run_id) is not None:
        return []
    run_dir = RunDir(runs_dir, run_id)
    result = _read(run_dir)
    assert result is not None
    try:
        delta = snapshot_file.load_delta(run_dir.file(SNAPSHOT_NAME), snapshot_limits(result))
        part = host.part(result.target)
    except (ValueError, OSError, KeyError):
        return []
    if part is None:
        return []
    moved = delta.moved
    lines = []
    for label, point in zip(moved.labels[:UNDO_MOVES_SHOWN].tolist(),
                            moved.points[:UNDO_MOVES_SHOWN].tolist(), strict=True):
        try:
            now = tuple(part.nodes.getFromLabel(int(label)).coordinates)
        except Exception:  # noqa: BLE001 - a node the host cannot name is said without it
            now = None
        lines.append(f"node {label}: " + (f"{_point(now)} back to " if now else "back to ")
                     + _point(point))
    if len(moved) > UNDO_MOVES_SHOWN:
        lines.append(f"… {len(moved) - UNDO_MOVES_SHOWN} more nodes moved back")
    return lines


def _point(values: Any) -> str:
    return "(" + ", ".join(f"{float(v):.6g}" for v in values) + ")"
