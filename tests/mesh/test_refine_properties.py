"""Property-based: on random grids and random selections, the compiled prediction (counts and
hanging nodes) equals what the stub and the audit report after the one execution."""

from __future__ import annotations

import json
import re
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sam_plugin.compilers.composer import compose
from sam_plugin.compilers.evidence import Prediction
from sam_plugin.compilers.mesh import MODULE
from sam_plugin.compilers.protocol import CompileContext, Target
from sam_plugin.runtime.host_gateway import HostGateway

TARGET = Target(model_name="Model-1", part_name="Plate")


@st.composite
def cases(draw):
    nx = draw(st.integers(1, 4))
    ny = draw(st.integers(1, 3))
    shape = draw(st.sampled_from(["QUAD", "TRI"]))
    count = nx * ny * (1 if shape == "QUAD" else 2)
    picked = draw(st.sets(st.integers(1, count), min_size=1, max_size=count))
    levels = draw(st.integers(1, 2))
    return nx, ny, shape, sorted(picked), levels


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases())
def test_prediction_matches_execution(case) -> None:
    import sam
    from sam.database import Mdb

    nx, ny, shape, picked, levels = case
    saved = sam.mdb
    sam.mdb = Mdb()
    try:
        _check(sam, nx, ny, shape, picked, levels)
    finally:
        sam.mdb = saved


def _check(sam, nx, ny, shape, picked, levels) -> None:
    import samConstants

    model = sam.mdb.models["Model-1"]
    part = model.Part(name="Plate")
    row = nx + 1
    nodes = [part.Node(coordinates=(float(i), float(j), 0.0))
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
    gateway = HostGateway(sam)
    state = Prediction.from_readback(gateway.readback(TARGET))
    fragments = []
    for tool, args in [("refine_mesh", {"selection": {"by": "labels", "labels": picked},
                                        "levels": levels}), ("audit_mesh", {})]:
        ctx = CompileContext(request_text="", target=TARGET, state=state, model=model,
                             part=part)
        fragments.append(MODULE.compile(tool, args, ctx))
        state = fragments[-1].evidence
    out = Path(tempfile.mkdtemp())
    receipt = gateway.execute(compose(fragments).text, TARGET, out)
    assert receipt.status == "PASS", receipt.traceback
    after = gateway.readback(TARGET)
    assert state.node_count.min == state.node_count.max == after.node_count
    assert state.element_count.min == after.element_count
    assert state.shape_counts[shape].min == after.shape_counts[shape]
    points = [tuple(round(c, 9) for c in n.coordinates) for n in part.nodes]
    assert len(points) == len(set(points)), "a shared edge got two midpoints"
    report = json.loads((out / "mesh_audit.json").read_text())
    predicted = int(re.search(r"hanging nodes after refinement: (\d+)",
                              fragments[0].notes[1]).group(1))
    assert report["hanging_nodes"]["count"] == predicted
    assert report["quality"]["inverted_elements"]["count"] == 0
