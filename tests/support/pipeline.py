"""A compile → compose → execute → readback harness for domain tests (no controller).

It chains predictions exactly as the controller does (``state`` and ``prior_fragments``)
and runs the composed script once through the in-process host gateway.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sam_plugin.compilers.chain import CompileChain
from sam_plugin.compilers.composer import compose
from sam_plugin.compilers.evidence import Prediction, Readback
from sam_plugin.compilers.protocol import DomainModule, Fragment, Target
from sam_plugin.compilers.spec.ir import Spec
from sam_plugin.runtime.host_gateway import ExecutionReceipt, HostGateway

Calls = Sequence[tuple[str, Mapping[str, Any] | str]]


def fresh_database() -> Iterator[Any]:
    """The offline ``sam`` module with a new, empty database; the old one is put back after."""
    import sam
    from sam.database import Mdb

    saved = sam.mdb
    sam.mdb = Mdb()
    try:
        yield sam
    finally:
        sam.mdb = saved
        sam.session.viewports["Viewport: 1"].displayedObject = None


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
    def __init__(self, module: DomainModule, sam: Any, tmp_path: Path, target: Target):
        self.module = module
        self.gateway = HostGateway(sam)
        self.target = target
        self.tmp_path = tmp_path

    def chain(self, request: str = "", spec: Spec | None = None) -> CompileChain:
        """A compile chain on the target as it is now (bound to ``spec`` when given)."""
        return CompileChain(self.module, request=request, target=self.target,
                            start=Prediction.from_readback(self.gateway.readback(self.target)),
                            model=self.gateway.model(self.target.model_name),
                            part=self.gateway.part(self.target), spec=spec)

    def compile(self, calls: Calls, request: str = "", spec: Spec | None = None
                ) -> list[Fragment]:
        chain = self.chain(request, spec)
        for tool, arguments in calls:
            chain.add(tool, arguments)
        return chain.fragments

    def run(self, calls: Calls, request: str = "") -> Outcome:
        before = self.gateway.readback(self.target)
        fragments = self.compile(calls, request)
        script = compose(fragments).text
        out = self.tmp_path / "run"
        receipt = self.gateway.execute(script, self.target, out)
        probe_hanging = fragments[-1].evidence.hanging_nodes is not None if fragments else False
        after = self.gateway.readback(self.target, hanging_nodes=probe_hanging)
        return Outcome(fragments, script, receipt, before, after, out)


def assert_verified(outcome: Outcome) -> None:
    """The readback matches every predicted field; the runtime verifier agrees."""
    from sam_plugin.runtime.verify.verifier import all_passed, verify

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
    if p.hanging_nodes is not None:
        assert p.hanging_nodes.contains(after.hanging_nodes)
    if p.geometry_unchanged:
        assert after.geometry_fingerprint == outcome.before.geometry_fingerprint
    for name in p.files:
        assert (outcome.output_dir / name).is_file(), name


def quad_grid(part: Any, nx: int, ny: int) -> list[Any]:
    """An nx x ny grid of unit QUADs on z = 0 in ``part`` (labels row by row); its nodes."""
    from samConstants import QUAD

    nodes = [part.Node(coordinates=(float(i), float(j), 0.0))
             for j in range(ny + 1) for i in range(nx + 1)]
    for j in range(ny):
        for i in range(nx):
            a = j * (nx + 1) + i
            part.Element(nodes=(nodes[a], nodes[a + 1], nodes[a + nx + 2], nodes[a + nx + 1]),
                         elemShape=QUAD)
    return nodes


def s1_grid(sam: Any, nx: int = 2, ny: int = 2) -> Any:
    """Part Plate: an nx x ny QUAD grid on z = 0 (labels row by row from 1), set S1 =
    element 1."""
    part = sam.mdb.models["Model-1"].Part(name="Plate")
    quad_grid(part, nx, ny)
    part.Set(name="S1", elements=part.elements.sequenceFromLabels([1]))
    return part


class RecordingGateway(HostGateway):
    """The stub host, recording every script it is given."""

    def __init__(self, sam: Any):
        super().__init__(sam)
        self.scripts: list[str] = []

    def execute(self, script: str, target: Target, output_dir: Path) -> Any:
        self.scripts.append(script)
        return super().execute(script, target, output_dir)
