"""Transport into SAM: find the target, run the one composed script, read the model back.

No Qt here. The script runs exactly once per ``execute`` call (compile + exec in a fresh
namespace); a failure is reported, never retried (invariant I10).
"""

from __future__ import annotations

import importlib
import time
import traceback
from pathlib import Path
from types import ModuleType
from typing import Any, Literal

from pydantic import BaseModel

from sam_plugin.compilers.evidence import Readback
from sam_plugin.compilers.protocol import Target
from sam_plugin.samops.gc_pause import collector_paused
from sam_plugin.samops.readback import find_part, read_part

SCRIPT_FILENAME = "<sam_agent_script>"


class ExecutionReceipt(BaseModel):
    """What the host says about one execution; the verifier still reads the model back."""

    status: Literal["PASS", "FAIL"]
    traceback: str | None = None
    duration_s: float
    # the last stage the script announced (``SAM_AGENT_STAGE``); None when it reached none
    stage: Literal["preflight", "mutation", "postflight"] | None = None

    @property
    def nothing_changed(self) -> bool:
        """A failure during the preflight checks, before the first mutation."""
        return self.status == "FAIL" and self.stage == "preflight"


class HostGateway:
    """The plugin's only door into the ``sam`` module."""

    def __init__(self, sam_module: ModuleType | Any = None):
        self._sam = sam_module

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
        namespace: dict[str, Any] = {
            "__name__": "__sam_agent__",
            "SAM_AGENT_TARGET": {"model_name": target.model_name,
                                 "part_name": target.part_name},
            "SAM_AGENT_OUTPUT_DIR": str(output_dir),
        }
        try:
            code = compile(script, SCRIPT_FILENAME, "exec")
            with collector_paused():  # bulk node creation: see samops.gc_pause
                exec(code, namespace)  # noqa: S102 - the composed, validated script
        except BaseException as exc:  # noqa: BLE001 - every failure is reported, not raised
            if isinstance(exc, KeyboardInterrupt | SystemExit):
                raise
            return ExecutionReceipt(status="FAIL", traceback=traceback.format_exc(),
                                    duration_s=time.perf_counter() - started,
                                    stage=namespace.get("SAM_AGENT_STAGE"))
        elapsed = time.perf_counter() - started
        if namespace.get("SAM_AGENT_COMPLETED") is not True:
            return ExecutionReceipt(
                status="FAIL",
                traceback="the script ended without setting SAM_AGENT_COMPLETED",
                duration_s=elapsed,
            )
        return ExecutionReceipt(status="PASS", duration_s=elapsed)
