"""Part test harness: a fresh offline SAM per test and a compile → compose → execute helper."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from sam_plugin.compilers.composer import ComposedScript, compose
from sam_plugin.compilers.evidence import SHAPES, Prediction, Readback
from sam_plugin.compilers.part import MODULE
from sam_plugin.compilers.protocol import CompileContext, Fragment, Target
from sam_plugin.runtime.host_gateway import ExecutionReceipt
from tests.support.pipeline import Pipeline, fresh_database

TARGET = Target(model_name="Model-1", part_name="Plate")


fresh_sam = pytest.fixture(fresh_database)


@dataclass
class RunResult:
    fragments: list[Fragment]
    script: ComposedScript
    receipt: ExecutionReceipt
    before: Readback
    after: Readback
    output_dir: Path

    @property
    def evidence(self) -> Prediction:
        return self.fragments[-1].evidence


def within(prediction: Prediction, readback: Readback) -> list[str]:
    """Evidence lines the readback violates (empty: all inside the predicted ranges)."""
    bad = []
    if not prediction.node_count.contains(readback.node_count):
        bad.append(f"nodes {readback.node_count} not in {prediction.node_count.describe()}")
    if not prediction.element_count.contains(readback.element_count):
        bad.append(f"elements {readback.element_count} not in "
                   f"{prediction.element_count.describe()}")
    for shape in SHAPES:
        if not prediction.shape_counts[shape].contains(readback.shape_counts[shape]):
            bad.append(f"{shape} {readback.shape_counts[shape]} not in "
                       f"{prediction.shape_counts[shape].describe()}")
    missing = set(prediction.sets_present) - set(readback.sets)
    if missing:
        bad.append(f"sets missing: {sorted(missing)}")
    return bad


class PartHarness(Pipeline):
    """The domain pipeline (tests/support/pipeline.py) on the Part module and ``Plate``, plus
    what Part tests need: a context for one compiler, runs keeping the composed script, a
    grid builder."""

    def __init__(self, sam_module: Any, tmp_path: Path):
        super().__init__(MODULE, sam_module, tmp_path, TARGET)

    @property
    def model(self) -> Any:
        return self.gateway.model(TARGET.model_name)

    def part(self) -> Any:
        return self.gateway.part(TARGET)

    within = staticmethod(within)

    def context(self, request: str, state: Prediction | None = None,
                prior: Sequence[Fragment] = ()) -> CompileContext:
        """What the controller hands a compiler: the state so far and the earlier fragments."""
        if state is None:
            state = Prediction.from_readback(self.gateway.readback(TARGET))
        return CompileContext(request_text=request, target=TARGET, state=state,
                              model=self.model, part=self.part(), prior_fragments=tuple(prior))

    def compile_all(self, request: str, calls: Sequence[tuple[str, Any]]) -> list[Fragment]:
        return self.compile(calls, request)

    def run(self, request: str, calls: Sequence[tuple[str, Any]]) -> RunResult:
        before = self.gateway.readback(TARGET)
        fragments = self.compile_all(request, calls)
        script = compose(fragments)
        out = self.tmp_path / f"out{len(list(self.tmp_path.iterdir()))}"
        receipt = self.gateway.execute(script.text, TARGET, out)
        return RunResult(fragments, script, receipt, before, self.gateway.readback(TARGET), out)

    def grid(self, nx: int, ny: int, spacing: float = 1.0, shape: str = "QUAD") -> RunResult:
        """Build an nx x ny patch on z = 0 through build_part (labels row by row from 1)."""
        patch = {"id": "G", "shape": shape, "divisions": [nx, ny],
                 "corners": [[0, 0, 0], [nx * spacing, 0, 0], [nx * spacing, ny * spacing, 0],
                             [0, ny * spacing, 0]]}
        result = self.run("build a plate", [("build_part", {"patches": [patch]})])
        assert result.receipt.status == "PASS", result.receipt.traceback
        return result


@pytest.fixture
def harness(fresh_sam: Any, tmp_path: Path) -> PartHarness:
    return PartHarness(fresh_sam, tmp_path)
