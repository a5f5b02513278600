"""The Property geometry guard and property_audit.json."""

from __future__ import annotations

import json

from sam_plugin.compilers.composer import compose
from sam_plugin.compilers.protocol import Fragment

STEEL = {"name": "Steel", "youngs_modulus": 210000.0, "poisson_ratio": 0.3}


def test_script_guards_counts_and_geometry(pipeline, frame) -> None:
    fragments = pipeline.compile([("define_property", {"materials": [STEEL]}),
                                  ("audit_property", {})])
    text = compose(fragments).text
    assert text.count("_property_ops.GeometryGuard.begin(") == 2
    postflight = text.split("# --- postflight: define_property (call 1) ---\n", 1)[1]
    assert postflight.startswith("    _property_guard.verify(_model, _part_name)\n")


def test_geometry_change_raises_before_the_postflight(pipeline, frame) -> None:
    fragments = pipeline.compile([("define_property", {"materials": [STEEL]}),
                                  ("audit_property", {})])
    # a (hypothetical) faulty mutation that moves a node inside a Property script
    rogue = Fragment(
        tool="rogue",
        mutation="_model.parts[_part_name].editNode(nodes=_model.parts[_part_name].nodes"
        ".getFromLabel(1), coordinates=(0.0, 0.0, 0.5))\n",
        normalized={},
        evidence=fragments[-1].evidence,
    )
    out = pipeline.tmp_path / "guard"
    receipt = pipeline.gateway.execute(compose([*fragments, rogue]).text, pipeline.target, out)
    assert receipt.status == "FAIL"
    assert "PropertyScriptError: Property run changed the part geometry (fingerprint" in (
        receipt.traceback)
    assert "stopped before the postflight" in receipt.traceback
    assert not (out / "property_audit.json").exists()


def test_element_count_change_is_reported(pipeline, frame) -> None:
    fragments = pipeline.compile([("audit_property", {})])
    rogue = Fragment(
        tool="rogue",
        mutation="_model.parts[_part_name].deleteElement(elements=_model.parts[_part_name]"
        ".elements.sequenceFromLabels([3]))\n",
        normalized={},
        evidence=fragments[-1].evidence,
    )
    receipt = pipeline.gateway.execute(compose([*fragments, rogue]).text, pipeline.target,
                                       pipeline.tmp_path / "count")
    assert receipt.status == "FAIL"
    assert "element_count 5 -> 4" in receipt.traceback


def test_property_audit_reports_every_problem(pipeline, frame, model, verified) -> None:
    model.Material(name="Steel").Elastic(table=((210000.0, 0.3),))
    model.Material(name="Putty")  # no elastic data
    model.HomogeneousShellSection(name="Plate", material="Steel", thickness=2.0)
    model.HomogeneousShellSection(name="Spare", material="Steel", thickness=9.0)
    model.CircularProfile(name="Rod", r=3.0)
    model.BeamSection(name="Bar", material="Steel", profile="Rod")
    frame.SectionAssignment(region=frame.elements.sequenceFromLabels([1, 4]),
                            sectionName="Plate")
    frame.SectionAssignment(region=frame.elements.sequenceFromLabels([5]), sectionName="Bar")
    frame.assignBeamSectionOrientation(region=frame.elements.sequenceFromLabels([5]),
                                       n1=(0.0, 1.0, 0.0))
    outcome = pipeline.run([("audit_property", {})])
    verified(outcome)
    report = json.loads((outcome.output_dir / "property_audit.json").read_text())
    assert report["unassigned_elements"] == {"count": 2, "labels": [2, 3]}
    assert report["section_shape_mismatches"] == {"count": 1, "items": [
        {"section": "Plate", "problem": "shell section on BEAM elements", "elements": [4]}]}
    assert report["beams_without_orientation"] == {"count": 1, "labels": [4]}
    assert report["unused_sections"] == ["Spare"]
    assert report["materials_without_elastic"] == ["Putty"]
    assert report["multiply_assigned_elements"] == {"count": 0, "labels": []}
