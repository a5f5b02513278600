"""Transport into SAM: find the target, run the one composed script, read the model back.

No Qt here. The script runs exactly once per ``execute`` call (compile + exec in a fresh
namespace holding only what it needs); a failure is reported, never retried (invariant
I10). Before that, the script guard checks it against the allowlist of what the composer
writes.

The script snapshots the target before its first change and puts it back itself when it
fails (``samops.snapshot``); the gateway keeps that snapshot (plain data, outside the model
tree) for a restore after a failed verification, or writes it to the run directory so that
the run can be undone later.
"""

from __future__ import annotations

import importlib
import time
import traceback
from pathlib import Path
from types import ModuleType
from typing import Any, Literal

from pydantic import BaseModel

from sam_plugin.compilers import registry
from sam_plugin.compilers.evidence import Readback
from sam_plugin.compilers.protocol import Target
from sam_plugin.compilers.script_guard import ScriptRefused, check_script, script_builtins
from sam_plugin.runtime.script_lines import ScriptLines
from sam_plugin.samops import snapshot as snapshots
from sam_plugin.samops import snapshot_file
from sam_plugin.samops.gc_pause import collector_paused
from sam_plugin.samops.mesh_read import (
    HostRead,
    PartMesh,
    last_read,
    offer_read,
    withdraw_read,
)
from sam_plugin.samops.readback import find_part, read_part, recent_contents

SCRIPT_FILENAME = "<sam_agent_script>"


class ExecutionReceipt(BaseModel):
    """What the host says about one execution; the verifier still reads the model back."""

    status: Literal["PASS", "FAIL"]
    traceback: str | None = None
    duration_s: float
    # the last stage the script announced (``SAM_AGENT_STAGE``); None when it reached none;
    # "refused" when the script guard refused it before its first line ran
    stage: Literal["refused", "preflight", "mutation", "postflight"] | None = None
    # the script's snapshot: taken, unavailable (the host lacks a call it needs) or none
    snapshot: Literal["taken", "unavailable", "none"] = "none"
    missing: list[str] = []
    # set when the script failed after its snapshot: whether its own restore put it back
    restored: bool | None = None
    restore_error: str | None = None
    restore_left: list[str] = []

    @property
    def nothing_changed(self) -> bool:
        """A failure before the first mutation: refused, or stopped in the preflight checks."""
        return self.status == "FAIL" and self.stage in ("refused", "preflight")


class RestoreOutcome(BaseModel):
    """A restore done by the gateway: ``left`` lists what still differs (empty: all back)."""

    restored: bool
    error: str | None = None
    left: list[str] = []


class HostGateway:
    """The plugin's only door into the ``sam`` module."""

    def __init__(self, sam_module: ModuleType | Any = None):
        self._sam = sam_module
        self._snapshot: snapshots.Snapshot | None = None
        self._snapshot_model = ""  # the model the snapshot's part lives in

    @property
    def sam(self) -> Any:
        if self._sam is None:
            self._sam = importlib.import_module("sam")
        return self._sam

    @property
    def mdb(self) -> Any:
        """Always the module's current database (``openMdb`` replaces ``sam.mdb``)."""
        return self.sam.mdb

    def model(self, name: str) -> Any | None:
        models = self.mdb.models
        return models[name] if name in models.keys() else None

    def part(self, target: Target) -> Any | None:
        return find_part(self.model(target.model_name), target.part_name)

    def readback(
        self, target: Target, *, with_fingerprint: bool = True, hanging_nodes: bool = False
    ) -> Readback:
        record = read_part(self.model(target.model_name), target.part_name,
                           with_fingerprint=with_fingerprint, hanging_nodes=hanging_nodes)
        return Readback.from_record(record)

    def execute(self, script: str, target: Target, output_dir: Path) -> ExecutionReceipt:
        """Compile and exec ``script`` once; PASS only when it set ``SAM_AGENT_COMPLETED``."""
        started = time.perf_counter()
        output_dir = Path(output_dir)
        output_dir.mkdir(parents=True, exist_ok=True)
        try:
            tree = check_script(script)
        except ScriptRefused as refused:
            return ExecutionReceipt(
                status="FAIL", stage="refused", duration_s=time.perf_counter() - started,
                traceback=f"the script was refused before it ran, so nothing was changed: "
                f"{refused} (the script guard allows only the composer's constructs)")
        printed = ScriptLines()  # the script's prints as data, beside the text
        namespace: dict[str, Any] = {
            "__builtins__": {**script_builtins(), "print": printed.print},
            "__name__": "__sam_agent__",
            "SAM_AGENT_TARGET": {"model_name": target.model_name,
                                 "part_name": target.part_name},
            "SAM_AGENT_OUTPUT_DIR": str(output_dir),
        }
        self._snapshot = None
        self._snapshot_model = target.model_name
        try:
            code = compile(tree, SCRIPT_FILENAME, "exec")
            with collector_paused():  # bulk node creation: see samops.gc_pause
                exec(code, namespace)  # noqa: S102 - the composed, validated script
        except BaseException as exc:  # noqa: BLE001 - every failure is reported, not raised
            if isinstance(exc, KeyboardInterrupt | SystemExit):
                raise
            return ExecutionReceipt(status="FAIL", traceback=traceback.format_exc(),
                                    duration_s=time.perf_counter() - started,
                                    stage=namespace.get("SAM_AGENT_STAGE"),
                                    **self._snapshot_facts(namespace))
        finally:
            withdraw_read()
            printed.write(output_dir)
        elapsed = time.perf_counter() - started
        if namespace.get("SAM_AGENT_COMPLETED") is not True:
            return ExecutionReceipt(
                status="FAIL",
                traceback="the script ended without setting SAM_AGENT_COMPLETED",
                duration_s=elapsed,
                **self._snapshot_facts(namespace),
            )
        return ExecutionReceipt(status="PASS", duration_s=elapsed,
                                **self._snapshot_facts(namespace))

    def _snapshot_facts(self, namespace: dict[str, Any]) -> dict[str, Any]:
        """What the script's snapshot and its own restore said (kept: the snapshot itself)."""
        taken = namespace.get("SAM_AGENT_SNAPSHOT")
        if not isinstance(taken, snapshots.Snapshot):
            return {}
        facts: dict[str, Any] = {"snapshot": "taken" if taken.usable else "unavailable",
                                 "missing": list(taken.missing)}
        self._snapshot = taken if taken.usable else None
        restore = namespace.get("SAM_AGENT_RESTORE")
        if isinstance(restore, dict):
            facts.update(restored=bool(restore.get("restored")),
                         restore_error=restore.get("error"),
                         restore_left=[str(item) for item in restore.get("left", [])])
        return facts

    # -- snapshot, restore, undo ----------------------------------------------------------

    def restore_capability(self, target: Target | None = None) -> list[str]:
        """Host calls the snapshot mechanism needs and this host lacks (empty: it has all)."""
        try:
            models = self.mdb.models
        except Exception as error:  # noqa: BLE001 - no database: say so, do not crash a load
            return [f"mdb.models ({error})"]
        lacking = [] if hasattr(models, "__delitem__") else ["del mdb.models[name]"]
        if target is not None:
            model = self.model(target.model_name)
            return lacking + snapshots.missing(model, find_part(model, target.part_name),
                                               registry.snapshot_covers())
        for name in models.keys():
            model = models[name]
            part = next((model.parts[p] for p in model.parts.keys()), None)
            return lacking + snapshots.missing(model, part, registry.snapshot_covers())
        return lacking

    def snapshot_from_read(self, target: Target, fingerprint: str) -> bool:
        """The next script's first read of the part (its snapshot, or an audit's read) takes
        the last readback of ``target`` (no second read of the part), which must be the read
        that had ``fingerprint``; the caller read it just now and runs the script next, with
        nothing in between (the drift check before the one execution). False: it is not
        kept, the script reads the part itself."""
        last = self._read_with(target, fingerprint)
        if last is None:
            return False
        offer_read(self.part(target), *last)
        return True

    def _read_with(self, target: Target, fingerprint: str
                   ) -> tuple[HostRead, PartMesh] | None:
        """The last read of ``target``'s part when it is the one with ``fingerprint``."""
        part = self.part(target)
        last = last_read(part) if part is not None else None
        kept = recent_contents(fingerprint) if fingerprint else None
        if last is None or kept is None or kept.mesh is not last[1] or last[0].nodes is None:
            return None
        return last

    @property
    def has_snapshot(self) -> bool:
        return self._snapshot is not None

    def restore(self, target: Target) -> RestoreOutcome:
        """Put the target back from the last script's snapshot (after a failed verification)."""
        if self._snapshot is None:
            return RestoreOutcome(restored=False, error="the script kept no snapshot",
                                  left=["everything the run changed"])
        return self._restore(target, self._snapshot)

    def keep_snapshot(self, path: Path, after: str = "") -> int:
        """Write what an undo needs of the last script's snapshot to ``path``: what differs
        from the live part, which a verified run leaves as planned (``snapshot_delta``);
        returns its bytes. ``after``: the fingerprint of the readback that verified the run,
        just now: the live part is taken from that read's own lists (no second read)."""
        if self._snapshot is None:
            raise ValueError("the script kept no snapshot")
        target = Target(model_name=self._snapshot_model, part_name=self._snapshot.part_name)
        last = self._read_with(target, after) if after else None
        live, mesh = last if last is not None else (None, None)
        with collector_paused():  # one tuple per moved node, in bulk (samops.gc_pause)
            size = snapshot_file.save(self._snapshot, Path(path),
                                      self.model(self._snapshot_model), live=live,
                                      live_mesh=mesh)
        self._snapshot = None  # the memory goes; the run directory keeps it
        return size

    def forget_snapshot(self) -> None:
        self._snapshot = None

    def undo(self, target: Target, path: Path,
             limits: snapshot_file.Limits | None = None) -> RestoreOutcome:
        """Put the target back as the snapshot file at ``path`` holds it; a file that is not
        what ``keep_snapshot`` wrote, or holds more than ``limits``, raises ValueError before
        anything is changed."""
        model = self.model(target.model_name)
        if model is None:
            raise ValueError(f"model {target.model_name!r} is gone")
        return self._restore(target, snapshot_file.load(Path(path), model, limits))

    def _restore(self, target: Target, snapshot: snapshots.Snapshot) -> RestoreOutcome:
        model = self.model(target.model_name)
        if model is None:
            return RestoreOutcome(restored=False, error=f"model {target.model_name!r} is gone",
                                  left=[f"model {target.model_name!r}"])
        with collector_paused():
            report = snapshots.restore_quietly(model, snapshot)
        if report["restored"]:
            self._snapshot = None
        return RestoreOutcome(**report)
