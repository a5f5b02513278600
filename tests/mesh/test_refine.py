"""refine_mesh: exact counts, conformity, hanging nodes, inheritance, diagnostics."""

from __future__ import annotations

import json

import pytest

from sam_plugin.compilers.composer import compose
from sam_plugin.errors import CompileError

ALL = {"by": "all"}


def messages(excinfo: pytest.ExceptionInfo[CompileError]) -> list[str]:
    return [str(d) for d in excinfo.value.diagnostics]


def coordinates(part) -> list[tuple[float, float, float]]:
    return [tuple(round(c, 9) for c in n.coordinates) for n in part.nodes]


def assert_no_duplicate_nodes(part) -> None:
    points = coordinates(part)
    assert len(points) == len(set(points))


def audit(outcome) -> dict:
    return json.loads((outcome.output_dir / "mesh_audit.json").read_text())


def test_strip_refined_once_has_15_nodes_and_8_elements(pipeline, plate, make_grid,
                                                         verified) -> None:
    make_grid(plate, 2, 1)
    outcome = pipeline.run([("refine_mesh", {"selection": ALL, "levels": 1}),
                            ("audit_mesh", {})])
    verified(outcome)
    assert (outcome.after.node_count, outcome.after.element_count) == (15, 8)
    assert outcome.prediction.node_count.is_exact and outcome.prediction.node_count.min == 15
    assert_no_duplicate_nodes(plate)
    report = audit(outcome)
    assert report["hanging_nodes"] == {"count": 0, "labels": []}
    assert report["free_edges"]["count"] == 12


@pytest.mark.parametrize(("nx", "ny", "levels"), [(1, 1, 1), (3, 2, 2), (2, 2, 3), (5, 1, 2)])
def test_quad_grid_counts(pipeline, plate, make_grid, verified, nx, ny, levels) -> None:
    make_grid(plate, nx, ny)
    outcome = pipeline.run([("refine_mesh", {"selection": ALL, "levels": levels})])
    verified(outcome)
    k = 2**levels
    assert outcome.after.node_count == (nx * k + 1) * (ny * k + 1)
    assert outcome.after.element_count == nx * ny * k * k
    assert_no_duplicate_nodes(plate)


def test_tri_grid_counts(pipeline, plate, make_grid, verified) -> None:
    make_grid(plate, 2, 2, shape="TRI")
    outcome = pipeline.run([("refine_mesh", {"selection": ALL, "levels": 2})])
    verified(outcome)
    assert outcome.after.node_count == 9 * 9
    assert outcome.after.shape_counts == {"QUAD": 0, "TRI": 8 * 16, "BEAM": 0}
    assert_no_duplicate_nodes(plate)


def mixed_part(model):
    """QUAD (1) + TRI (2) sharing an edge, a BEAM (3) on the quad's bottom edge and a BEAM (4)
    sticking out of the tri."""
    from samConstants import BEAM, QUAD, TRI

    part = model.Part(name="Plate")
    n = [part.Node(coordinates=c) for c in [(0.0, 0.0, 0.0), (1.0, 0.0, 0.0), (1.0, 1.0, 0.0),
                                            (0.0, 1.0, 0.0), (2.0, 0.5, 0.0), (3.0, 0.5, 0.0)]]
    part.Element(nodes=(n[0], n[1], n[2], n[3]), elemShape=QUAD)
    part.Element(nodes=(n[1], n[4], n[2]), elemShape=TRI)
    part.Element(nodes=(n[0], n[1]), elemShape=BEAM)
    part.Element(nodes=(n[4], n[5]), elemShape=BEAM)
    return part


def test_mixed_part_counts_and_conformity(pipeline, model, verified) -> None:
    part = mixed_part(model)
    outcome = pipeline.run([("refine_mesh", {"selection": ALL, "levels": 1}),
                            ("audit_mesh", {})])
    verified(outcome)
    # 6 corners + edge midpoints: quad 4, tri 2 more (edge 2-3 shared), beam 4-5 one
    # (beam 1-2 shares the quad's midpoint) + quad centre = 6 + 7 + 1
    assert outcome.after.node_count == 14
    assert outcome.after.shape_counts == {"QUAD": 4, "TRI": 4, "BEAM": 4}
    assert_no_duplicate_nodes(part)
    assert audit(outcome)["hanging_nodes"]["count"] == 0


def test_partial_refinement_predicts_and_reports_hanging_nodes(pipeline, plate, make_grid,
                                                               verified) -> None:
    make_grid(plate, 2, 1)
    outcome = pipeline.run([
        ("refine_mesh", {"selection": {"by": "labels", "labels": [1]}, "levels": 2}),
        ("audit_mesh", {}),
    ])
    verified(outcome)
    assert (outcome.after.node_count, outcome.after.element_count) == (27, 17)
    assert outcome.fragments[0].notes[1] == (
        "predicted hanging nodes after refinement: 3 (3 new on the border with unrefined "
        "elements; 0 before)"
    )
    report = audit(outcome)
    assert report["hanging_nodes"]["count"] == 3
    hanging = {tuple(plate.nodes.getFromLabel(n).coordinates)
               for n in report["hanging_nodes"]["labels"]}
    assert hanging == {(1.0, 0.25, 0.0), (1.0, 0.5, 0.0), (1.0, 0.75, 0.0)}
    assert report["free_edges"]["count"] == 4 * 3 + 3


def test_refining_the_neighbour_later_reuses_hanging_nodes(pipeline, plate, make_grid,
                                                           verified) -> None:
    make_grid(plate, 2, 1)
    first = pipeline.run([("refine_mesh", {"selection": {"by": "labels", "labels": [1]},
                                           "levels": 1})])
    verified(first)
    second = pipeline.run([("refine_mesh", {"selection": {"by": "labels", "labels": [2]},
                                            "levels": 1}), ("audit_mesh", {})])
    verified(second)
    assert second.fragments[0].notes[2].startswith("reuses 1 existing node(s) at edge midpoints")
    assert (second.after.node_count, second.after.element_count) == (15, 8)
    assert_no_duplicate_nodes(plate)
    assert audit(second)["hanging_nodes"]["count"] == 0


def test_children_inherit_sets_sections_and_orientations(pipeline, model, verified) -> None:
    part = mixed_part(model)
    model.Material(name="Steel").Elastic(table=((210000.0, 0.3),))
    model.HomogeneousShellSection(name="Skin", material="Steel", thickness=1.0)
    model.CircularProfile(name="Rod", r=1.0)
    model.BeamSection(name="Bar", material="Steel", profile="Rod")
    part.Set(name="Skin", elements=part.elements.sequenceFromLabels([1, 2]))
    part.Set(name="Bottom", nodes=part.nodes.sequenceFromLabels([1, 2]),
             elements=part.elements.sequenceFromLabels([3]))
    part.SectionAssignment(region=part.sets["Skin"], sectionName="Skin")
    part.SectionAssignment(region=part.elements.sequenceFromLabels([3, 4]), sectionName="Bar")
    part.assignBeamSectionOrientation(region=part.elements.sequenceFromLabels([3]),
                                      n1=(0.0, 0.0, 1.0))
    outcome = pipeline.run([("refine_mesh", {"selection": {"by": "labels", "labels": [1, 2, 3]},
                                             "levels": 1})])
    verified(outcome)
    skin = {str(e.type) for e in part.sets["Skin"].elements}
    assert skin == {"QUAD", "TRI"} and len(part.sets["Skin"].elements) == 8
    bottom = part.sets["Bottom"]
    assert len(bottom.elements) == 2 and {str(e.type) for e in bottom.elements} == {"BEAM"}
    assert sorted(tuple(n.coordinates) for n in bottom.nodes) == [
        (0.0, 0.0, 0.0), (0.5, 0.0, 0.0), (1.0, 0.0, 0.0)]
    assert outcome.after.assigned_elements == 8 + 2 + 1
    assert outcome.after.oriented_beams == 2
    bar = [e.label for a in part.sectionAssignments if a.sectionName == "Bar"
           for e in a.region.elements]
    assert len(bar) == 3  # two children of beam 3 and the untouched beam 4


@pytest.mark.parametrize(("levels", "expected"), [
    (0, "levels: 0 is below the minimum 1"),
    (4, "levels: 4 exceeds the maximum 3"),
])
def test_levels_out_of_range(pipeline, plate, make_grid, levels, expected) -> None:
    make_grid(plate, 1, 1)
    with pytest.raises(CompileError) as excinfo:
        pipeline.compile([("refine_mesh", {"selection": ALL, "levels": levels})])
    assert messages(excinfo) == [expected]


def test_unknown_set(pipeline, plate, make_grid) -> None:
    make_grid(plate, 1, 1)
    plate.Set(name="Edge", elements=plate.elements)
    with pytest.raises(CompileError) as excinfo:
        pipeline.compile([("refine_mesh", {"selection": {"by": "set", "name": "Hole"},
                                           "levels": 1})])
    assert messages(excinfo) == ["selection.name: unknown set 'Hole'; existing sets: Edge"]


def test_empty_selection(pipeline, plate, make_grid) -> None:
    make_grid(plate, 1, 1)
    with pytest.raises(CompileError) as excinfo:
        pipeline.compile([("refine_mesh", {"selection": {"by": "shape", "shape": "BEAM"},
                                           "levels": 1})])
    assert messages(excinfo) == [
        "selection: the selection picks no elements; the part has 1 elements"]


def test_missing_part(pipeline) -> None:
    with pytest.raises(CompileError) as excinfo:
        pipeline.compile([("refine_mesh", {"selection": ALL, "levels": 1})])
    assert messages(excinfo) == [
        "part 'Plate' does not exist in model 'Model-1'; build it in Part mode first"]


def test_drift_between_compile_and_run_stops_the_script(pipeline, plate, make_grid) -> None:
    make_grid(plate, 2, 1)
    fragments = pipeline.compile([("refine_mesh", {"selection": ALL, "levels": 1})])
    from samConstants import QUAD

    n = plate.nodes
    plate.Element(nodes=(n.getFromLabel(1), n.getFromLabel(2), n.getFromLabel(5),
                         n.getFromLabel(4)), elemShape=QUAD)  # a new element appears
    receipt = pipeline.gateway.execute(compose(fragments).text, pipeline.target,
                                       pipeline.tmp_path / "drift")
    assert receipt.status == "FAIL"
    assert "refine_mesh was compiled to add 9 nodes and 6 elements" in receipt.traceback
    assert len(plate.elements) == 3  # nothing refined


def test_refinement_size_limit(pipeline, plate, make_grid, monkeypatch) -> None:
    from sam_plugin.compilers.mesh import refine

    monkeypatch.setattr(refine, "MAX_ELEMENTS_AFTER", 100)
    make_grid(plate, 3, 3)
    with pytest.raises(CompileError) as excinfo:
        pipeline.compile([("refine_mesh", {"selection": ALL, "levels": 2})])
    assert messages(excinfo) == [
        "levels: refining 9 element(s) 2 level(s) would leave 144 elements; the limit is "
        "100: refine fewer elements or fewer levels"]


@pytest.mark.parametrize("levels", [2, 3])
def test_mixed_part_deeper_levels(pipeline, model, verified, levels) -> None:
    part = mixed_part(model)
    outcome = pipeline.run([("refine_mesh", {"selection": ALL, "levels": levels}),
                            ("audit_mesh", {})])
    verified(outcome)
    k = 2**levels
    assert outcome.after.shape_counts == {"QUAD": k * k, "TRI": k * k, "BEAM": 2 * k}
    assert_no_duplicate_nodes(part)
    assert audit(outcome)["hanging_nodes"]["count"] == 0


def test_audit_needs_a_part(pipeline) -> None:
    with pytest.raises(CompileError) as excinfo:
        pipeline.compile([("audit_mesh", {})])
    assert messages(excinfo) == [
        "part 'Plate' does not exist in model 'Model-1'; there is no mesh to audit"]


def test_arguments_as_json_text_and_unknown_fields(pipeline, plate, make_grid) -> None:
    make_grid(plate, 1, 1)
    fragment = pipeline.compile([("refine_mesh", '{"selection": {"by": "all"}, "levels": 1}')])[0]
    assert fragment.normalized == {"selection": {"by": "all"}, "levels": 1}
    with pytest.raises(CompileError) as excinfo:
        pipeline.compile([("refine_mesh", {"selection": ALL, "levels": 1, "smooth": True})])
    assert messages(excinfo) == [
        "smooth: unknown field 'smooth'; remove it (allowed fields: selection, levels)"]
    with pytest.raises(CompileError) as excinfo:
        pipeline.compile([("refine_part", {})])
    assert messages(excinfo) == [
        "unknown Mesh tool 'refine_part'; legal tools: refine_mesh, audit_mesh"]


def test_postflight_checks_the_predicted_hanging_nodes(pipeline, plate, make_grid) -> None:
    make_grid(plate, 2, 1)
    (fragment,) = pipeline.compile([("refine_mesh", {"selection": {"by": "labels",
                                                                   "labels": [1]}, "levels": 1})])
    assert "hanging_nodes=1)" in fragment.postflight
    wrong = fragment.model_copy(update={
        "postflight": fragment.postflight.replace("hanging_nodes=1)", "hanging_nodes=0)")})
    receipt = pipeline.gateway.execute(compose([wrong]).text, pipeline.target,
                                       pipeline.tmp_path / "hanging")
    assert receipt.status == "FAIL"
    assert "after refine_mesh the part has 1 hanging nodes; predicted 0" in receipt.traceback


def test_beam_refined_alone_on_a_shell_edge_leaves_a_hanging_node(pipeline, plate, make_grid,
                                                                  verified) -> None:
    from samConstants import BEAM

    make_grid(plate, 2, 1)  # quads 1, 2 share the edge of nodes 2-5
    n = plate.nodes
    plate.Element(nodes=(n.getFromLabel(2), n.getFromLabel(5)), elemShape=BEAM)
    outcome = pipeline.run([("refine_mesh", {"selection": {"by": "shape", "shape": "BEAM"},
                                             "levels": 1}), ("audit_mesh", {})])
    verified(outcome)
    assert outcome.fragments[0].notes[1].startswith("predicted hanging nodes after refinement: 1")
    report = audit(outcome)
    assert report["hanging_nodes"]["count"] == 1
    assert tuple(plate.nodes.getFromLabel(report["hanging_nodes"]["labels"][0]).coordinates) == (
        1.0, 0.5, 0.0)


def test_hanging_nodes_are_evidence_the_verifier_reads_back(pipeline, plate, make_grid) -> None:
    """The prediction carries the hanging nodes; the verifier counts them on the live part."""
    from sam_plugin.compilers.evidence import Range
    from sam_plugin.runtime.verify.verifier import verify

    make_grid(plate, 2, 1)
    outcome = pipeline.run(
        [("refine_mesh", {"selection": {"by": "labels", "labels": [1]}, "levels": 2})]
    )
    assert outcome.prediction.hanging_nodes == Range.exact(3)
    assert outcome.after.hanging_nodes == 3
    checks = {c.name: c for c in verify(outcome.prediction, outcome.before, outcome.after,
                                        outcome.output_dir)}
    assert (checks["hanging nodes"].expected, checks["hanging nodes"].actual) == ("3", "3")
    wrong = outcome.prediction.model_copy(update={"hanging_nodes": Range.exact(0)})
    failed = {c.name: c for c in verify(wrong, outcome.before, outcome.after, outcome.output_dir)}
    assert not failed["hanging nodes"].ok
    unread = outcome.after.model_copy(update={"hanging_nodes": None})
    checks = {c.name: c for c in verify(outcome.prediction, outcome.before, unread,
                                        outcome.output_dir)}
    assert (checks["hanging nodes"].actual, checks["hanging nodes"].ok) == ("not read", False)


def test_refine_script_literals_go_through_the_plain_check(pipeline, plate, make_grid,
                                                           monkeypatch) -> None:
    from sam_plugin.compilers import codegen
    from sam_plugin.compilers.mesh import refine

    class Evil(str):
        def __repr__(self) -> str:
            return "__import__('os').system('echo pwned')"

    make_grid(plate, 2, 1)
    fragment = pipeline.compile([("refine_mesh", {"selection": ALL, "levels": 1})])[0]
    var = codegen.variable("refine_mesh", fragment.normalized)
    assert fragment.preflight == (
        f"{var} = _mesh_ops.prepare_refinement(\n"
        "    _model.parts[_part_name], {'by': 'all'}, 1,\n"
        "    node_delta=9, element_delta=6,\n"
        ")\n"
    )
    monkeypatch.setattr(refine, "selector_literal", lambda selector: {"by": Evil("all")})
    with pytest.raises(TypeError, match="Evil cannot enter a script as a literal"):
        pipeline.compile([("refine_mesh", {"selection": ALL, "levels": 1})])
