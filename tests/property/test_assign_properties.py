"""Property-based: any sequence of assign_property runs leaves every element with at most
one section, the selected elements with exactly the section they were given, and the
predicted coverage equal to the readback."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sam_plugin.compilers.composer import compose
from sam_plugin.compilers.evidence import Prediction
from sam_plugin.compilers.property import MODULE
from sam_plugin.compilers.protocol import CompileContext, Target

TARGET = Target(model_name="Model-1", part_name="Plate")
SECTIONS = ("Thin", "Thick")

assignment = st.tuples(st.sampled_from(SECTIONS),
                       st.sets(st.integers(1, 6), min_size=1, max_size=6))


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(assignment, min_size=1, max_size=4))
def test_each_element_ends_with_exactly_one_section(runs) -> None:
    import sam
    from sam.database import Mdb

    saved = sam.mdb
    sam.mdb = Mdb()
    try:
        _check(sam, runs)
    finally:
        sam.mdb = saved


def _check(sam, runs) -> None:
    from samConstants import QUAD

    from sam_plugin.runtime.host_gateway import HostGateway

    model = sam.mdb.models["Model-1"]
    model.Material(name="Steel").Elastic(table=((210000.0, 0.3),))
    for name, thickness in zip(SECTIONS, (1.0, 4.0), strict=True):
        model.HomogeneousShellSection(name=name, material="Steel", thickness=thickness)
    part = model.Part(name="Plate")
    nodes = [part.Node(coordinates=(float(i % 4), float(i // 4), 0.0)) for i in range(8)]
    for i in range(3):
        part.Element(nodes=(nodes[i], nodes[i + 1], nodes[i + 5], nodes[i + 4]), elemShape=QUAD)
    for i in range(3):  # a second, disconnected row of three
        part.Element(nodes=(nodes[i + 4], nodes[i + 5], nodes[i + 1], nodes[i]), elemShape=QUAD)
    gateway = HostGateway(sam)
    geometry = gateway.readback(TARGET).geometry_fingerprint
    expected: dict[int, str] = {}
    for section, labels in runs:
        state = Prediction.from_readback(gateway.readback(TARGET))
        ctx = CompileContext(request_text="", target=TARGET, state=state, model=model,
                             part=part)
        fragment = MODULE.compile("assign_property", {"assignments": [
            {"section": section, "selection": {"by": "labels", "labels": sorted(labels)}}]}, ctx)
        receipt = gateway.execute(compose([fragment]).text, TARGET, Path(tempfile.mkdtemp()))
        assert receipt.status == "PASS", receipt.traceback
        expected.update(dict.fromkeys(labels, section))
        after = gateway.readback(TARGET)
        assert fragment.evidence.assigned_elements.min == after.assigned_elements
        assert after.geometry_fingerprint == geometry
    found: dict[int, list[str]] = {}
    for entry in part.sectionAssignments:
        for element in entry.region.elements:
            found.setdefault(element.label, []).append(entry.sectionName)
    assert {label: names for label, names in found.items()} == {
        label: [name] for label, name in expected.items()}
