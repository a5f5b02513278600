"""Property: random meshes with sets, materials, sections and assignments round-trip exactly."""

from __future__ import annotations

import struct
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from samConstants import BEAM, N1_COSINES, QUAD, TRI

SHAPES = ((QUAD, 4), (TRI, 3), (BEAM, 2))
coordinate = st.floats(allow_nan=False, allow_infinity=False)
point = st.tuples(coordinate, coordinate, coordinate)
name = st.from_regex(r"[A-Za-z][A-Za-z0-9_.-]{0,10}", fullmatch=True)


def _bits(value: float) -> bytes:
    return struct.pack("<d", value)


def _state(mdb: Any) -> Any:
    """Everything observable, with floats compared bit for bit (so -0.0 != 0.0)."""
    from sam.storage import mdb_doc

    def exact(value: Any) -> Any:
        if isinstance(value, float):
            return _bits(value)
        if isinstance(value, dict):
            return {key: exact(item) for key, item in value.items()}
        if isinstance(value, (list, tuple)):
            return [exact(item) for item in value]
        return value

    return exact(mdb_doc(mdb))


def _build(data: Any, sam: Any) -> None:
    model = sam.mdb.models["Model-1"]
    materials = data.draw(st.lists(name, max_size=3, unique=True), label="materials")
    for material_name in materials:
        material = model.Material(material_name)
        if data.draw(st.booleans()):
            material.Elastic(table=((data.draw(st.floats(1e-3, 1e12)),
                                     data.draw(st.floats(-0.99, 0.49))),))
        if data.draw(st.booleans()):
            material.Density(table=((data.draw(st.floats(1e-12, 1e5)),),))
    sections: list[str] = []
    if materials:
        model.RectangularProfile("Rect", a=data.draw(st.floats(1e-3, 1e3)), b=2.0)
        model.PipeProfile("Pipe", r=2.0, t=data.draw(st.floats(1e-3, 1.999)))
        for i in range(data.draw(st.integers(0, 3))):
            material = data.draw(st.sampled_from(materials))
            if data.draw(st.booleans()):
                model.HomogeneousShellSection(f"S{i}", material,
                                              data.draw(st.floats(1e-6, 1e3)))
            else:
                model.BeamSection(f"S{i}", material, data.draw(st.sampled_from(["Rect",
                                                                               "Pipe"])))
            sections.append(f"S{i}")
    part = model.Part(data.draw(name, label="part"))
    nodes = [part.Node(data.draw(point))
             for _ in range(data.draw(st.integers(0, 25)))]
    if data.draw(st.booleans()):
        nodes.append(part.Node(data.draw(point), label=data.draw(st.integers(100, 200))))
    for _ in range(data.draw(st.integers(0, 20))):
        shape, count = data.draw(st.sampled_from(SHAPES))
        if len(nodes) < count:
            continue
        picked = data.draw(st.lists(st.sampled_from(nodes), min_size=count, max_size=count,
                                    unique_by=lambda n: n.label))
        part.Element(picked, shape)
    if len(part.nodes) and data.draw(st.booleans()):
        part.deleteNode(part.nodes[data.draw(st.integers(0, len(part.nodes) - 1))])
    if len(part.elements) and data.draw(st.booleans()):
        part.deleteElement(part.elements[0], deleteUnreferencedNodes=data.draw(st.booleans()))
    for set_name in data.draw(st.lists(name, max_size=3, unique=True), label="sets"):
        chosen_nodes = data.draw(st.lists(st.sampled_from(list(part.nodes)), max_size=5)
                                 if len(part.nodes) else st.just([]))
        chosen_elements = data.draw(st.lists(st.sampled_from(list(part.elements)), max_size=5)
                                    if len(part.elements) else st.just([]))
        part.Set(set_name, nodes=chosen_nodes, elements=chosen_elements)
    if sections:
        for _ in range(data.draw(st.integers(0, 3))):
            section = data.draw(st.sampled_from(sections))
            if part.sets.keys() and data.draw(st.booleans()):
                region = part.sets[data.draw(st.sampled_from(part.sets.keys()))]
            else:
                labels = [e.label for e in part.elements]
                region = part.elements.sequenceFromLabels(
                    data.draw(st.lists(st.sampled_from(labels), max_size=4)) if labels else [])
            part.SectionAssignment(region, section)
    beams = [e.label for e in part.elements if e.type == BEAM]
    if beams and data.draw(st.booleans()):
        n1 = data.draw(point.filter(lambda v: v != (0.0, 0.0, 0.0)))
        part.assignBeamSectionOrientation(part.elements.sequenceFromLabels(beams[:2]),
                                          N1_COSINES, n1)
    if data.draw(st.booleans()):
        sam.mdb.Model("Other", objectToCopy=model)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_random_databases_round_trip_exactly(data: Any) -> None:
    import sam
    from sam.database import Mdb

    saved = sam.mdb
    sam.mdb = Mdb()
    try:
        _build(data, sam)
        before = _state(sam.mdb)
        with tempfile.TemporaryDirectory() as folder:
            path = str(Path(folder) / "random.sam.json")
            sam.mdb.saveAs(path)
            opened = sam.openMdb(path)
            assert _state(opened) == before
            opened.saveAs(str(Path(folder) / "again.sam.json"))
            again = (Path(folder) / "again.sam.json").read_bytes()
            assert again == Path(path).read_bytes()
    finally:
        sam.mdb = saved
