"""Property test fixtures: a fresh offline SAM and a compile → compose → execute → readback
pipeline that chains predictions exactly as the controller does."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from sam_plugin.compilers.composer import compose
from sam_plugin.compilers.evidence import Prediction, Readback
from sam_plugin.compilers.property import MODULE
from sam_plugin.compilers.protocol import CompileContext, Fragment, Target
from sam_plugin.runtime.host_gateway import ExecutionReceipt, HostGateway

TARGET = Target(model_name="Model-1", part_name="Frame")


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


def build_frame(model: Any) -> Any:
    """Part ``Frame``: a 2 x 1 QUAD plate (elements 1, 2), one TRI (3) beside it and two BEAM
    elements (4 along x, 5 along z) standing on the plate."""
    from samConstants import BEAM, QUAD, TRI

    part = model.Part(name="Frame")
    n = [part.Node(coordinates=c) for c in [
        (0.0, 0.0, 0.0), (1.0, 0.0, 0.0), (2.0, 0.0, 0.0),
        (0.0, 1.0, 0.0), (1.0, 1.0, 0.0), (2.0, 1.0, 0.0),
        (3.0, 0.0, 0.0), (0.0, 0.0, 1.0),
    ]]
    part.Element(nodes=(n[0], n[1], n[4], n[3]), elemShape=QUAD)
    part.Element(nodes=(n[1], n[2], n[5], n[4]), elemShape=QUAD)
    part.Element(nodes=(n[2], n[6], n[5]), elemShape=TRI)
    part.Element(nodes=(n[0], n[1]), elemShape=BEAM)
    part.Element(nodes=(n[0], n[7]), elemShape=BEAM)
    return part


@pytest.fixture
def frame(model: Any) -> Any:
    return build_frame(model)


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
