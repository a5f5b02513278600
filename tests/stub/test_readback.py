"""sam_plugin.samops.readback against the offline SAM (the verifier's view of the host)."""

from __future__ import annotations

from typing import Any

from samConstants import BEAM, TRI

from sam_plugin.samops.readback import geometry_fingerprint, read_part


def test_read_part_on_a_stub_part(model: Any, part: Any, make_grid: Any) -> None:
    nodes, _ = make_grid(part, 2, 2)
    part.Element((nodes[0], nodes[1], nodes[3]), TRI)
    beam = part.Element((nodes[0], nodes[8]), BEAM)
    part.Set("all", elements=part.elements)
    model.Material("Steel").Elastic(table=((1.0, 0.3),))
    model.HomogeneousShellSection("Shell", "Steel", 1.0)
    model.RectangularProfile("R", 1.0, 2.0)
    model.BeamSection("Beam", "Steel", "R")
    part.SectionAssignment(part.elements.sequenceFromLabels([1, 2, 3]), "Shell")
    part.SectionAssignment(part.sets["all"], "Beam")
    part.assignBeamSectionOrientation(part.elements.sequenceFromLabels([beam.label]),
                                      n1=(0.0, 0.0, 1.0))
    readback = read_part(model, "Plate")
    assert readback.part_exists
    assert (readback.node_count, readback.element_count) == (9, 6)
    assert readback.shape_counts == {"QUAD": 4, "TRI": 1, "BEAM": 1}
    assert readback.sets == ["all"]
    assert readback.bounding_box == ((0.0, 0.0, 0.0), (2.0, 2.0, 0.0))
    assert (readback.materials, readback.sections) == (["Steel"], ["Beam", "Shell"])
    assert (readback.assigned_elements, readback.oriented_beams) == (6, 1)
    assert readback.fingerprint.startswith("9n-6e-")


def test_fingerprint_follows_geometry_and_survives_a_round_trip(
        fresh_sam: Any, part: Any, make_grid: Any, tmp_path: Any) -> None:
    make_grid(part, 3, 1)
    before = geometry_fingerprint(part)
    fresh_sam.mdb.saveAs(str(tmp_path / "f.sam.json"))
    reopened = fresh_sam.openMdb(str(tmp_path / "f.sam.json"))
    assert geometry_fingerprint(reopened.models["Model-1"].parts["Plate"]) == before
    part.editNode(part.nodes[0], (0.0, 0.0, 1e-9))
    assert geometry_fingerprint(part) != before
    assert read_part(fresh_sam.mdb.models["Model-1"], "Nope").part_exists is False
