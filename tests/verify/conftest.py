"""Verification fixtures: a hull-like part with sets, sections and oriented beams, and a
plan → execute → readback harness whose host can be made to misbehave after the script."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from sam_plugin.compilers.composer import compose
from sam_plugin.compilers.evidence import Check, Prediction, Readback
from sam_plugin.compilers.plan import PlanDetail
from sam_plugin.compilers.protocol import CompileContext, DomainModule, Target
from sam_plugin.runtime.host_gateway import HostGateway
from sam_plugin.runtime.verify.verifier import verify
from tests.support.pipeline import Pipeline, fresh_database

TARGET = Target(model_name="Model-1", part_name="Hull")
fresh_sam = pytest.fixture(fresh_database)


def build_hull(model: Any, n: int, origin: tuple[float, float, float] = (0.0, 0.0, 0.0),
               beams: int = 4) -> Any:
    """``Hull``: an n x n grid of unit QUADs at ``origin`` (elements 1..(n-1)^2; set ``S`` the
    first min(100, all) of them, set ``SKIN`` all of them, node set ``KEEL`` the first row),
    and ``beams`` BEAMs on their own nodes above it (set ``FRAMES``). Shell-5 is assigned
    through ``SKIN``, Beam-1 to the beams by element, which are oriented with n1 (0, 0, 1)."""
    from samConstants import BEAM, N1_COSINES, QUAD

    ox, oy, oz = origin
    part = model.Part(name="Hull")
    nodes = [part.Node(coordinates=(ox + i, oy + j, oz)) for j in range(n) for i in range(n)]
    quads = [part.Element(nodes=(nodes[j * n + i], nodes[j * n + i + 1],
                                 nodes[j * n + i + n + 1], nodes[j * n + i + n]),
                          elemShape=QUAD)
             for j in range(n - 1) for i in range(n - 1)]
    frame = [part.Node(coordinates=(ox + i, oy - 2.0, oz + 1.0)) for i in range(beams + 1)]
    bars = [part.Element(nodes=(frame[i], frame[i + 1]), elemShape=BEAM) for i in range(beams)]
    part.Set(name="S", elements=quads[:100])
    part.Set(name="SKIN", elements=quads)
    part.Set(name="KEEL", nodes=nodes[:n])
    part.Set(name="FRAMES", elements=bars)
    model.Material(name="Steel").Elastic(table=((210000.0, 0.3),))
    model.HomogeneousShellSection(name="Shell-5", material="Steel", thickness=5.0)
    model.HomogeneousShellSection(name="Shell-9", material="Steel", thickness=9.0)
    model.RectangularProfile(name="Bar", a=1.0, b=2.0)
    model.BeamSection(name="Beam-1", material="Steel", profile="Bar")
    part.SectionAssignment(region=part.sets["SKIN"], sectionName="Shell-5")
    part.SectionAssignment(region=part.elements.sequenceFromLabels([e.label for e in bars]),
                           sectionName="Beam-1")
    part.assignBeamSectionOrientation(region=part.sets["FRAMES"], method=N1_COSINES,
                                      n1=(0.0, 0.0, 1.0))
    return part


@dataclass
class Planned:
    """A plan (its detail, with the predicted part) and its execution on the live host."""

    gateway: HostGateway
    detail: PlanDetail
    prediction: Prediction
    before: Readback
    output_dir: Path

    @property
    def part(self) -> Any:
        return self.gateway.part(TARGET)

    def verify(self) -> list[Check]:
        """Read the live part back (once) and verify it against the plan."""
        after = self.gateway.readback(TARGET)
        return verify(self.prediction, self.before, after, self.output_dir, self.detail,
                      self.part, self.gateway.model(TARGET.model_name))


def plan_and_run(sam: Any, module: DomainModule, calls: Sequence[tuple[str, Mapping[str, Any]]],
                 tmp_path: Path, request: str = "",
                 tamper: Callable[[Any], None] | None = None) -> Planned:
    """Compile, describe (the plan), execute once; then ``tamper`` with the live part as a
    misbehaving host would, before anything is read back."""
    pipeline = Pipeline(module, sam, tmp_path, TARGET)
    gateway = pipeline.gateway
    before = gateway.readback(TARGET)
    fragments = pipeline.compile(calls, request)
    ctx = CompileContext(request_text=request, target=TARGET,
                         state=Prediction.from_readback(before),
                         model=gateway.model(TARGET.model_name), part=gateway.part(TARGET),
                         extra={"before_fingerprint": before.fingerprint})
    detail = module.describe(fragments, ctx)
    out = tmp_path / "run"
    receipt = gateway.execute(compose(fragments).text, TARGET, out)
    assert receipt.status == "PASS", receipt.traceback
    if tamper is not None:
        tamper(gateway.part(TARGET))
    return Planned(gateway, detail, fragments[-1].evidence, before, out)


def failed(checks: list[Check]) -> dict[str, Check]:
    return {c.name: c for c in checks if not c.ok}
