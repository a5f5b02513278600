"""Run records a view is given in tests: a ``result.json`` of a status, and a part's counts."""

from __future__ import annotations

from typing import Any

from sam_plugin.compilers.protocol import Target
from sam_plugin.runtime.store.run_store import ErrorRecord, RunResult, StateSummary


def run_result(status: str, error: ErrorRecord | None = None, **extra: Any) -> RunResult:
    return RunResult(run_id="20261129T193000Z-ab12cd", status=status, phase="x", module="part",
                     target=Target(model_name="Model-1", part_name="Panel"), error=error,
                     **extra)


def quad_summary(nodes: int, elements: int) -> StateSummary:
    return StateSummary(node_count=nodes, element_count=elements,
                        shape_counts={"QUAD": elements, "TRI": 0, "BEAM": 0}, sets=[])
