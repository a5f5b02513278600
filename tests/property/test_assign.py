"""assign_property: shape legality, exactly one section per element, n1 against the live
geometry (at compile time and again in the script's preflight)."""

from __future__ import annotations

import pytest

from sam_plugin.compilers.composer import compose
from sam_plugin.errors import CompileError

STEEL = {"name": "Steel", "youngs_modulus": 210000.0, "poisson_ratio": 0.3}
SHELL = {"name": "Plate", "kind": "shell", "material": "Steel", "thickness": 2.0}
BEAM = {"name": "Bar", "kind": "beam", "material": "Steel",
        "profile": {"shape": "circle", "r": 5.0}}
DEFINE = ("define_property", {"materials": [STEEL], "sections": [SHELL, BEAM]})


def messages(excinfo: pytest.ExceptionInfo[CompileError]) -> list[str]:
    return [str(d) for d in excinfo.value.diagnostics]


def define_in_model(model) -> None:
    model.Material(name="Steel").Elastic(table=((210000.0, 0.3),))
    model.HomogeneousShellSection(name="Plate", material="Steel", thickness=2.0)
    model.CircularProfile(name="Bar_profile", r=5.0)
    model.BeamSection(name="Bar", material="Steel", profile="Bar_profile")


def sections_of(part) -> dict[int, list[str]]:
    found: dict[int, list[str]] = {}
    for entry in part.sectionAssignments:
        for element in entry.region.elements:
            found.setdefault(element.label, []).append(entry.sectionName)
    return found


def test_define_assign_audit_verified(pipeline, frame, verified) -> None:
    outcome = pipeline.run([
        DEFINE,
        ("assign_property", {
            "assignments": [
                {"section": "Plate", "selection": {"by": "labels", "labels": [1, 2, 3]}},
                {"section": "Bar", "selection": {"by": "shape", "shape": "BEAM"}},
            ],
            "beam_orientations": [{"selection": {"by": "shape", "shape": "BEAM"},
                                   "n1": [0.0, 1.0, 0.0]}],
        }),
        ("audit_property", {}),
    ])
    verified(outcome)
    assert outcome.after.assigned_elements == 5
    assert outcome.after.oriented_beams == 2
    assert sections_of(frame) == {1: ["Plate"], 2: ["Plate"], 3: ["Plate"], 4: ["Bar"],
                                  5: ["Bar"]}
    assert [tuple(o.n1) for o in frame.beamOrientations] == [(0.0, 1.0, 0.0)]


def test_shell_section_on_beams_is_refused(pipeline, frame) -> None:
    with pytest.raises(CompileError) as excinfo:
        pipeline.compile([DEFINE, ("assign_property", {"assignments": [
            {"section": "Plate", "selection": {"by": "all"}}]})])
    assert messages(excinfo) == [
        "assignments[0].section: section 'Plate' is a shell section and cannot go on BEAM "
        "elements; the selection holds BEAM (2), QUAD (2), TRI (1); legal sections for BEAM: "
        "Bar"
    ]


def test_beam_section_on_shells_is_refused_with_model_sections(pipeline, frame, model) -> None:
    define_in_model(model)
    with pytest.raises(CompileError) as excinfo:
        pipeline.compile([("assign_property", {"assignments": [
            {"section": "Bar", "selection": {"by": "labels", "labels": [2, 3]}}]})])
    assert messages(excinfo) == [
        "assignments[0].section: section 'Bar' is a beam section and cannot go on QUAD, TRI "
        "elements; the selection holds QUAD (1), TRI (1); legal sections for QUAD: Plate; "
        "legal sections for TRI: Plate"
    ]


def test_unknown_section(pipeline, frame, model) -> None:
    define_in_model(model)
    with pytest.raises(CompileError) as excinfo:
        pipeline.compile([("assign_property", {"assignments": [
            {"section": "Web", "selection": {"by": "all"}}]})])
    assert messages(excinfo) == [
        "assignments[0].section: unknown section 'Web'; existing sections: Bar, Plate"
    ]


def test_unknown_labels_name_the_legal_range(pipeline, frame, model) -> None:
    define_in_model(model)
    with pytest.raises(CompileError) as excinfo:
        pipeline.compile([("assign_property", {"assignments": [
            {"section": "Plate", "selection": {"by": "labels", "labels": [1, 99]}}]})])
    assert messages(excinfo) == [
        "assignments[0].selection.labels: unknown element label(s) 99; existing element "
        "labels: 1..5 (5 elements)"
    ]


def test_overlapping_assignments_in_one_call(pipeline, frame, model) -> None:
    define_in_model(model)
    with pytest.raises(CompileError) as excinfo:
        pipeline.compile([("assign_property", {"assignments": [
            {"section": "Plate", "selection": {"by": "labels", "labels": [1, 2]}},
            {"section": "Plate", "selection": {"by": "shape", "shape": "QUAD"}},
        ]})])
    assert messages(excinfo) == [
        "assignments[1].selection: overlaps assignments[0] on element(s) 1, 2; each element "
        "takes exactly one section"
    ]


def test_existing_assignment_is_replaced_and_reported(pipeline, frame, model, verified) -> None:
    define_in_model(model)
    model.HomogeneousShellSection(name="Thick", material="Steel", thickness=8.0)
    frame.SectionAssignment(region=frame.elements.sequenceFromLabels([1, 2, 3]),
                            sectionName="Plate")
    outcome = pipeline.run([("assign_property", {"assignments": [
        {"section": "Thick", "selection": {"by": "labels", "labels": [2]}}]})])
    verified(outcome)
    assert outcome.fragments[0].notes == ["replaces section 'Plate' on 1 element(s): 2"]
    assert sections_of(frame) == {1: ["Plate"], 2: ["Thick"], 3: ["Plate"]}
    assert outcome.after.assigned_elements == 3


def test_fully_covered_assignment_is_removed(pipeline, frame, model, verified) -> None:
    define_in_model(model)
    frame.Set(name="Beams", elements=frame.elements.sequenceFromLabels([4, 5]))
    frame.SectionAssignment(region=frame.sets["Beams"], sectionName="Plate")  # wrong on purpose
    outcome = pipeline.run([("assign_property", {"assignments": [
        {"section": "Bar", "selection": {"by": "set", "name": "Beams"}}]})])
    verified(outcome)
    assert sections_of(frame) == {4: ["Bar"], 5: ["Bar"]}
    assert len(frame.sectionAssignments) == 1


def test_n1_parallel_to_a_beam_is_refused_with_labels(pipeline, frame, model) -> None:
    define_in_model(model)
    with pytest.raises(CompileError) as excinfo:
        pipeline.compile([("assign_property", {"beam_orientations": [
            {"selection": {"by": "shape", "shape": "BEAM"}, "n1": [0.0, 0.0, -3.0]}]})])
    assert messages(excinfo) == [
        "beam_orientations[0].n1: n1 [0.0, 0.0, -3.0] is parallel to the axis of beam "
        "element(s) 5; choose an n1 that is not along those beams"
    ]


def test_n1_checked_again_in_the_script_preflight(pipeline, frame, model) -> None:
    define_in_model(model)
    fragments = pipeline.compile([("assign_property", {
        "assignments": [{"section": "Bar", "selection": {"by": "shape", "shape": "BEAM"}}],
        "beam_orientations": [{"selection": {"by": "shape", "shape": "BEAM"},
                               "n1": [0.0, 1.0, 0.0]}],
    })])
    # the live geometry changes after compilation: beam 5 now points along y
    frame.editNode(nodes=frame.nodes.getFromLabel(8), coordinates=(0.0, 2.0, 0.0))
    out = pipeline.tmp_path / "late"
    receipt = pipeline.gateway.execute(compose(fragments).text, pipeline.target, out)
    assert receipt.status == "FAIL"
    assert ("beam_orientations[0].n1 (0.0, 1.0, 0.0) is parallel to the axis of beam "
            "element(s) 5") in receipt.traceback
    assert len(frame.sectionAssignments) == 0  # the preflight stopped it before any change


def test_orientation_needs_beams(pipeline, frame, model) -> None:
    define_in_model(model)
    with pytest.raises(CompileError) as excinfo:
        pipeline.compile([("assign_property", {"beam_orientations": [
            {"selection": {"by": "shape", "shape": "QUAD"}, "n1": [0.0, 1.0, 0.0]}]})])
    assert messages(excinfo) == [
        "beam_orientations[0].selection: the selection picks no BEAM elements (it holds "
        "QUAD (2)); orientations apply to BEAM elements only"
    ]


def test_existing_orientation_is_replaced(pipeline, frame, model, verified) -> None:
    define_in_model(model)
    frame.assignBeamSectionOrientation(region=frame.elements.sequenceFromLabels([4, 5]),
                                       n1=(0.0, 1.0, 0.0))
    outcome = pipeline.run([("assign_property", {"beam_orientations": [
        {"selection": {"by": "labels", "labels": [4]}, "n1": [0.0, 0.0, 1.0]}]})])
    verified(outcome)
    assert outcome.fragments[0].notes == [
        "replaces orientation n1=(0.0, 1.0, 0.0) on 1 beam(s): 4"]
    by_label = {e.label: tuple(o.n1) for o in frame.beamOrientations for e in o.region.elements}
    assert by_label == {4: (0.0, 0.0, 1.0), 5: (0.0, 1.0, 0.0)}


def test_zero_n1_is_refused(pipeline, frame, model) -> None:
    define_in_model(model)
    with pytest.raises(CompileError) as excinfo:
        pipeline.compile([("assign_property", {"beam_orientations": [
            {"selection": {"by": "shape", "shape": "BEAM"}, "n1": [0, 0, 0]}]})])
    assert messages(excinfo) == [
        "beam_orientations[0].n1: n1 must not be the zero vector; give the beam's 1-direction"
    ]


def test_missing_part(pipeline, model) -> None:
    define_in_model(model)
    with pytest.raises(CompileError) as excinfo:
        pipeline.compile([("assign_property", {"assignments": [
            {"section": "Plate", "selection": {"by": "all"}}]})])
    assert messages(excinfo) == [
        "part 'Frame' does not exist in model 'Model-1'; build it in Part mode first"
    ]


def test_kind_checked_in_the_script_without_prior_fragments(pipeline, frame, model) -> None:
    """A controller that does not pass ``prior_fragments`` still cannot put a shell section
    on beams: the script's mutation refuses before assigning anything."""
    from sam_plugin.compilers.evidence import Prediction
    from sam_plugin.compilers.property import MODULE
    from sam_plugin.compilers.protocol import CompileContext

    gateway = pipeline.gateway
    state = Prediction.from_readback(gateway.readback(pipeline.target))
    fragments = []
    for tool, args in [DEFINE, ("assign_property", {"assignments": [
            {"section": "Plate", "selection": {"by": "shape", "shape": "BEAM"}}]})]:
        ctx = CompileContext(request_text="", target=pipeline.target, state=state,
                             model=model, part=frame)
        fragments.append(MODULE.compile(tool, args, ctx))
        state = fragments[-1].evidence
    receipt = gateway.execute(compose(fragments).text, pipeline.target, pipeline.tmp_path / "k")
    assert receipt.status == "FAIL"
    assert "section 'Plate' is a shell section and cannot go on BEAM elements" in (
        receipt.traceback)
    assert len(frame.sectionAssignments) == 0
