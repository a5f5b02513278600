"""Mesh test fixtures: a fresh offline SAM and a compile → compose → execute → readback
pipeline that chains predictions exactly as the controller does."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from sam_plugin.compilers.composer import compose
from sam_plugin.compilers.evidence import Prediction, Readback
from sam_plugin.compilers.mesh import MODULE
from sam_plugin.compilers.protocol import CompileContext, Fragment, Target
from sam_plugin.runtime.host_gateway import ExecutionReceipt, HostGateway

TARGET = Target(model_name="Model-1", part_name="Plate")


@pytest.fixture
def fresh_sam() -> Iterator[Any]:
    import sam
    from sam.database import Mdb

    saved = sam.mdb
    sam.mdb = Mdb()
    try:
        yield sam
    finally:
        sam.mdb = saved


@pytest.fixture
def model(fresh_sam: Any) -> Any:
    return fresh_sam.mdb.models["Model-1"]


def grid(part: Any, nx: int, ny: int, shape: str = "QUAD", spacing: float = 1.0) -> None:
    """An nx x ny grid on z = 0 (node labels row by row from 1); TRI: two per cell."""
    import samConstants

    row = nx + 1
    nodes = [part.Node(coordinates=(i * spacing, j * spacing, 0.0))
             for j in range(ny + 1) for i in range(row)]
    for j in range(ny):
        for i in range(nx):
            a, b, c, d = (nodes[j * row + i], nodes[j * row + i + 1],
                          nodes[(j + 1) * row + i + 1], nodes[(j + 1) * row + i])
            if shape == "QUAD":
                part.Element(nodes=(a, b, c, d), elemShape=samConstants.QUAD)
            else:
                part.Element(nodes=(a, b, c), elemShape=samConstants.TRI)
                part.Element(nodes=(a, c, d), elemShape=samConstants.TRI)


@pytest.fixture
def plate(model: Any) -> Any:
    return model.Part(name="Plate")


@dataclass
class Outcome:
    fragments: list[Fragment]
    script: str
    receipt: ExecutionReceipt
    before: Readback
    after: Readback
    output_dir: Path

    @property
    def prediction(self) -> Prediction:
        return self.fragments[-1].evidence


class Pipeline:
    def __init__(self, sam: Any, tmp_path: Path, target: Target = TARGET):
        self.gateway = HostGateway(sam)
        self.target = target
        self.tmp_path = tmp_path

    def compile(self, calls: Sequence[tuple[str, Mapping[str, Any] | str]],
                request: str = "") -> list[Fragment]:
        state = Prediction.from_readback(self.gateway.readback(self.target))
        fragments: list[Fragment] = []
        for tool, arguments in calls:
            ctx = CompileContext(
                request_text=request, target=self.target, state=state,
                model=self.gateway.model(self.target.model_name),
                part=self.gateway.part(self.target),
                prior_fragments=tuple(fragments),
            )
            fragment = MODULE.compile(tool, arguments, ctx)
            fragments.append(fragment)
            state = fragment.evidence
        return fragments

    def run(self, calls: Sequence[tuple[str, Mapping[str, Any] | str]],
            request: str = "") -> Outcome:
        before = self.gateway.readback(self.target)
        fragments = self.compile(calls, request)
        script = compose(fragments).text
        out = self.tmp_path / "run"
        receipt = self.gateway.execute(script, self.target, out)
        after = self.gateway.readback(self.target)
        return Outcome(fragments, script, receipt, before, after, out)


@pytest.fixture
def pipeline(fresh_sam: Any, tmp_path: Path) -> Pipeline:
    return Pipeline(fresh_sam, tmp_path)


def assert_verified(outcome: Outcome) -> None:
    """The readback matches every predicted field; the runtime verifier agrees."""
    from sam_plugin.runtime.verifier import all_passed, verify

    assert outcome.receipt.status == "PASS", outcome.receipt.traceback
    checks = verify(outcome.prediction, outcome.before, outcome.after, outcome.output_dir)
    assert all_passed(checks), [c for c in checks if not c.ok]
    p, after = outcome.prediction, outcome.after
    assert p.node_count.contains(after.node_count)
    assert p.element_count.contains(after.element_count)
    for shape, expected in p.shape_counts.items():
        assert expected.contains(after.shape_counts[shape]), shape
    assert p.sets_present == after.sets
    assert p.materials_present == after.materials
    assert p.sections_present == after.sections
    if p.assigned_elements is not None:
        assert p.assigned_elements.contains(after.assigned_elements)
    if p.oriented_beams is not None:
        assert p.oriented_beams.contains(after.oriented_beams)
    if p.geometry_unchanged:
        assert after.fingerprint == outcome.before.fingerprint
    for name in p.files:
        assert (outcome.output_dir / name).is_file(), name


@pytest.fixture
def verified() -> Any:
    return assert_verified


@pytest.fixture
def make_grid() -> Any:
    return grid
