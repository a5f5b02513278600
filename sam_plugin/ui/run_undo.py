"""Undo a run of the runs directory when the dock has no controller of its own yet: an MCP
client's run shown before the analyst's first run. The same checks and the same undo as
``RunController.undo`` (``runtime/store/undo.py``), its events in the run's ``events.jsonl``.
"""

from __future__ import annotations

from pathlib import Path

from sam_plugin.errors import UndoRefused
from sam_plugin.runtime.host_gateway import HostGateway
from sam_plugin.runtime.store.run_store import RunDir, RunResult
from sam_plugin.runtime.store.undo import log_emitter, undo_refusal, undo_run


class RunsUndo:
    """What ``UndoControl`` needs of a controller: ``runs_dir``, ``undo_refusal``, ``undo``."""

    def __init__(self, host: HostGateway, runs_dir: Path) -> None:
        self.host = host
        self.runs_dir = Path(runs_dir)

    def undo_refusal(self, run_id: str) -> str | None:
        return undo_refusal(self.host, self.runs_dir, run_id)

    def undo(self, run_id: str) -> RunResult:
        refusal = self.undo_refusal(run_id)
        if refusal is not None:
            raise UndoRefused(refusal)
        return undo_run(self.host, self.runs_dir, run_id,
                        emit=log_emitter(RunDir(self.runs_dir, run_id)))
