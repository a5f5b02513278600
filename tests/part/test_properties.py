"""Hypothesis: schema-valid calls either compile to a script that runs against the stub with
a readback inside the evidence ranges, or are rejected before any mutation."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from sam_plugin.compilers.composer import compose
from sam_plugin.compilers.evidence import SHAPES, Prediction
from sam_plugin.compilers.part import MODULE
from sam_plugin.compilers.part.schemas import SCHEMAS
from sam_plugin.compilers.protocol import CompileContext, Fragment, Target
from sam_plugin.errors import CompileError
from sam_plugin.runtime.host_gateway import HostGateway

TARGET = Target(model_name="Model-1", part_name="P")
SETTINGS = settings(max_examples=40, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture,
                                           HealthCheck.too_slow])

coord = st.integers(-4, 4).map(float)
vec = st.tuples(coord, coord, coord).map(list)
ids = st.sampled_from(["a", "b", "c", "d", "e"])
shape = st.sampled_from(["QUAD", "TRI", "BEAM"])


@st.composite
def patches(draw: Any) -> dict:
    x0, y0 = draw(coord), draw(coord)
    w, h = draw(st.integers(1, 4)), draw(st.integers(1, 4))
    z = draw(coord)
    corners = [[x0, y0, z], [x0 + w, y0, z], [x0 + w, y0 + h, z], [x0, y0 + h, z]]
    if draw(st.booleans()):
        corners = [corners[0], corners[2], corners[1], corners[3]]  # sometimes crossed
    return {"id": draw(st.sampled_from(["P1", "P2"])), "shape": draw(st.sampled_from(
        ["QUAD", "TRI"])), "corners": corners,
        "divisions": [draw(st.integers(1, 3)), draw(st.integers(1, 3))]}


lines = st.fixed_dictionaries({"id": st.sampled_from(["L1", "L2"]), "start": vec, "end": vec,
                               "divisions": st.integers(1, 3)})
nodes = st.lists(st.fixed_dictionaries({"id": ids, "coordinates": vec}), max_size=5,
                 unique_by=lambda n: n["id"])
elements = st.lists(st.fixed_dictionaries({
    "id": st.sampled_from(["E1", "E2"]), "shape": shape,
    "node_ids": st.lists(ids, min_size=2, max_size=4, unique=True)}), max_size=2,
    unique_by=lambda e: e["id"])
selector = st.one_of(
    st.just({"by": "all"}),
    st.fixed_dictionaries({"by": st.just("labels"),
                           "labels": st.lists(st.integers(1, 12), min_size=1, max_size=3)}),
    st.fixed_dictionaries({"by": st.just("shape"), "shape": shape}),
    st.fixed_dictionaries({"by": st.just("set"), "name": st.sampled_from(["Left", "Nope"])}),
    st.fixed_dictionaries({"by": st.just("box"), "min": st.just([0, 0, -1]),
                           "max": st.just([1, 2, 1])}),
)
build_args = st.fixed_dictionaries({}, optional={
    "nodes": nodes, "elements": elements, "patches": st.lists(patches(), max_size=2),
    "lines": st.lists(lines, max_size=2)})
edit_args = st.fixed_dictionaries({}, optional={
    "nodes": nodes, "add_elements": elements, "add_patches": st.lists(patches(), max_size=1),
    "add_lines": st.lists(lines, max_size=1), "delete_elements": selector,
    "delete_nodes": selector,
    "move_nodes": st.lists(st.fixed_dictionaries({"label": st.integers(1, 11),
                                                  "coordinates": vec}), max_size=2,
                           unique_by=lambda m: m["label"]),
    "element_sets": st.lists(st.fixed_dictionaries({"name": st.sampled_from(["S", "Left"]),
                                                    "selection": selector}), max_size=1),
    "clear_all": st.booleans()})
operation = st.one_of(
    st.fixed_dictionaries({"op": st.just("translate"), "vector": vec},
                          optional={"selection": selector}),
    st.fixed_dictionaries({"op": st.just("rotate"), "origin": vec, "axis": vec,
                           "angle_deg": st.floats(-360, 360)}, optional={"selection": selector}),
    st.fixed_dictionaries({"op": st.just("mirror"), "origin": vec, "normal": vec,
                           "copy": st.booleans()}, optional={"selection": selector}),
    st.fixed_dictionaries({"op": st.just("scale"), "origin": vec,
                           "factor": st.floats(0.1, 5)}, optional={"selection": selector}),
    st.fixed_dictionaries({"op": st.just("translate_copy"), "vector": vec},
                          optional={"selection": selector}),
    st.fixed_dictionaries({"op": st.just("linear_array"), "vector": vec,
                           "count": st.integers(2, 4)}, optional={"selection": selector}),
)
transform_args = st.fixed_dictionaries({"operations": st.lists(operation, min_size=1,
                                                               max_size=3)})


def _fresh_with_grid(sam: Any, with_grid: bool) -> HostGateway:
    from sam.database import Mdb
    from samConstants import BEAM, QUAD

    sam.mdb = Mdb()
    if with_grid:
        part = sam.mdb.models["Model-1"].Part(name="P")
        n = [part.Node(coordinates=(i, j, 0.0)) for j in range(3) for i in range(3)]
        for j in range(2):
            for i in range(2):
                a = j * 3 + i
                part.Element(nodes=(n[a], n[a + 1], n[a + 4], n[a + 3]), elemShape=QUAD)
        part.Element(nodes=(n[0], part.Node(coordinates=(0.0, 0.0, 2.0))), elemShape=BEAM)
        part.Set(name="Left", elements=part.elements[0:1])
    return HostGateway(sam)


def _exact_unless_noted(fragment: Fragment) -> None:
    """Small parts are simulated: counts are exact unless a note says why they are ranges."""
    evidence = fragment.evidence
    counts = [evidence.node_count, evidence.element_count, *evidence.shape_counts.values()]
    if not all(r.is_exact for r in counts):
        assert any(n.startswith("evidence kept as ranges: ") for n in fragment.notes), (
            fragment.tool, evidence, fragment.notes)


def _check(sam: Any, tmp: Path, tool: str, args: dict, with_grid: bool) -> None:
    assert Draft202012Validator(SCHEMAS[tool]).is_valid(args)
    gateway = _fresh_with_grid(sam, with_grid)
    before = gateway.readback(TARGET)
    request = "delete everything and rebuild; put it in a set"
    ctx = CompileContext(request_text=request, target=TARGET,
                         state=Prediction.from_readback(before),
                         model=gateway.model("Model-1"), part=gateway.part(TARGET))
    try:
        fragment = MODULE.compile(tool, args, ctx)
    except CompileError as err:
        assert err.diagnostics and all(str(d) for d in err.diagnostics)
        assert gateway.readback(TARGET).fingerprint == before.fingerprint
        return
    receipt = gateway.execute(compose([fragment]).text, TARGET, tmp)
    after = gateway.readback(TARGET)
    if receipt.status == "FAIL":
        assert "PreflightError" in receipt.traceback, receipt.traceback
        assert after.fingerprint == before.fingerprint
        return
    evidence = fragment.evidence
    _exact_unless_noted(fragment)
    assert evidence.node_count.contains(after.node_count), (evidence, after)
    assert evidence.element_count.contains(after.element_count), (evidence, after)
    for s in SHAPES:
        assert evidence.shape_counts[s].contains(after.shape_counts[s]), (s, evidence, after)
    assert set(evidence.sets_present) <= set(after.sets)


@SETTINGS
@given(args=build_args)
def test_build_part_property(fresh_sam: Any, tmp_path: Path, args: dict) -> None:
    _check(fresh_sam, tmp_path, "build_part", args, with_grid=False)


@SETTINGS
@given(args=edit_args)
def test_edit_part_property(fresh_sam: Any, tmp_path: Path, args: dict) -> None:
    _check(fresh_sam, tmp_path, "edit_part", args, with_grid=True)


@SETTINGS
@given(args=transform_args)
def test_transform_part_property(fresh_sam: Any, tmp_path: Path, args: dict) -> None:
    _check(fresh_sam, tmp_path, "transform_part", args, with_grid=True)


repair_args = st.fixed_dictionaries({}, optional={
    "merge_coincident_nodes": st.one_of(st.just({}), st.just({"tolerance": 0.5})),
    "delete_duplicate_elements": st.booleans(), "delete_free_nodes": st.booleans()})


@SETTINGS
@given(edit=st.one_of(st.none(), edit_args), transform=transform_args, repair=repair_args)
def test_chained_run_property(fresh_sam: Any, tmp_path: Path, edit: dict | None,
                              transform: dict, repair: dict) -> None:
    """edit → transform → repair → audit in one script: evidence chains across the calls."""
    gateway = _fresh_with_grid(fresh_sam, True)
    before = gateway.readback(TARGET)
    calls = ([("edit_part", edit)] if edit is not None else []) + [
        ("transform_part", transform), ("repair_part", repair), ("audit_part", {})]
    state = Prediction.from_readback(before)
    fragments = []
    try:
        for tool, args in calls:
            ctx = CompileContext(request_text="delete everything and rebuild; put it in a set",
                                 target=TARGET, state=state, model=gateway.model("Model-1"),
                                 part=gateway.part(TARGET), prior_fragments=tuple(fragments))
            fragments.append(MODULE.compile(tool, args, ctx))
            _exact_unless_noted(fragments[-1])
            state = fragments[-1].evidence
    except CompileError:
        assert gateway.readback(TARGET).fingerprint == before.fingerprint
        return
    receipt = gateway.execute(compose(fragments).text, TARGET, tmp_path)
    after = gateway.readback(TARGET)
    if receipt.status == "FAIL":
        assert "PreflightError" in receipt.traceback, receipt.traceback
        assert after.fingerprint == before.fingerprint
        return
    assert state.node_count.contains(after.node_count), (state, after)
    assert state.element_count.contains(after.element_count), (state, after)
    for s in SHAPES:
        assert state.shape_counts[s].contains(after.shape_counts[s]), (s, state, after)
    assert (tmp_path / "part_audit.json").exists()
