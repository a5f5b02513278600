"""Materials, profiles, sections, section assignments and beam orientations."""

from __future__ import annotations

from typing import Any

import pytest
from samConstants import BEAM, N1_COSINES, QUAD


def test_material_elastic_and_density(model: Any) -> None:
    steel = model.Material(name="Steel")
    assert steel.name == "Steel" and steel.elastic is None and steel.density is None
    steel.Elastic(table=((210000, 0.3),))
    steel.Density(table=((7.85e-9,),))
    assert steel.elastic.table == ((210000.0, 0.3),)
    assert steel.density.table == ((7.85e-9,),)
    assert model.materials.keys() == ["Steel"]


@pytest.mark.parametrize(("call", "text"), [
    (lambda m: m.Elastic(table=((210000.0,),)), "Elastic table row 0 must have 2 values; got 1"),
    (lambda m: m.Elastic(table=((-1.0, 0.3),)),
     "Elastic table[0][0] (Young's modulus) must be greater than 0; got -1.0"),
    (lambda m: m.Elastic(table=((1.0, 0.5),)),
     "Elastic table[0][1] (Poisson's ratio) must lie in (-1, 0.5); got 0.5"),
    (lambda m: m.Elastic(table=()), "Elastic table must have at least one row"),
    (lambda m: m.Density(table=((0.0,),)), "Density table[0][0] must be greater than 0; got 0.0"),
    (lambda m: m.Density(table=(("x",),)), "Density table[0][0] must be a number; got str"),
])
def test_material_tables_are_checked(model: Any, call: Any, text: str) -> None:
    material = model.Material("M")
    with pytest.raises((TypeError, ValueError)) as caught:
        call(material)
    assert str(caught.value) == text
    assert material.elastic is None and material.density is None


def test_material_table_must_be_a_table(model: Any) -> None:
    with pytest.raises(TypeError) as caught:
        model.Material("M").Elastic(table=5)
    assert str(caught.value) == "Elastic table must be a sequence of rows of 2 numbers; got 5"
    with pytest.raises(TypeError) as caught:
        model.Material("M").Elastic(table=((1.0, 0.3),), type="ISOTROPIC")
    assert str(caught.value) == "keyword error on type"


def test_profiles(model: Any) -> None:
    rect = model.RectangularProfile(name="R", a=10, b=20.0)
    circle = model.CircularProfile("C", 5.0)
    pipe = model.PipeProfile("P", r=5.0, t=1.0)
    beam_i = model.IProfile("I", l=50.0, h=100.0, b1=50.0, b2=50.0, t1=5.0, t2=5.0, t3=4.0)
    assert (rect.a, rect.b, circle.r, pipe.r, pipe.t) == (10.0, 20.0, 5.0, 5.0, 1.0)
    assert beam_i.dimensions() == {"l": 50.0, "h": 100.0, "b1": 50.0, "b2": 50.0,
                                   "t1": 5.0, "t2": 5.0, "t3": 4.0}
    assert [p.shape for p in model.profiles.values()] == ["rectangle", "circle", "pipe", "I"]


@pytest.mark.parametrize(("call", "text"), [
    (lambda m: m.RectangularProfile("R", a=0.0, b=1.0),
     "RectangularProfile 'R': a must be greater than 0; got 0.0"),
    (lambda m: m.CircularProfile("C", r=-2),
     "CircularProfile 'C': r must be greater than 0; got -2.0"),
    (lambda m: m.PipeProfile("P", r=5.0, t=5.0),
     "PipeProfile 'P': t must be less than r; got t=5.0, r=5.0"),
    (lambda m: m.PipeProfile("P", r=5.0, t=0.0),
     "PipeProfile 'P': t must be greater than 0; got 0.0"),
    (lambda m: m.IProfile("I", l=0.0, h=10.0, b1=5.0, b2=5.0, t1=5.0, t2=5.0, t3=1.0),
     "IProfile 'I': t1 + t2 must be less than h; got 5.0 + 5.0 >= 10.0"),
    (lambda m: m.IProfile("I", l=0.0, h=10.0, b1=5.0, b2=-5.0, t1=1.0, t2=1.0, t3=1.0),
     "IProfile 'I': b2 must be greater than 0; got -5.0"),
    (lambda m: m.IProfile("I", l=0.0, h=10.0, b1=5.0, b2=5.0, t1=1.0, t2=1.0, t3=6.0),
     "IProfile 'I': t3 must be less than b1 and b2; got 6.0"),
    (lambda m: m.RectangularProfile("R", a=1.0), "RectangularProfile needs b"),
    (lambda m: m.CircularProfile("C", r="big"), "CircularProfile 'C': r must be a number; got str"),
])
def test_profile_dimensions_are_checked(model: Any, call: Any, text: str) -> None:
    with pytest.raises((TypeError, ValueError)) as caught:
        call(model)
    assert str(caught.value) == text
    assert len(model.profiles) == 0


def test_sections(model: Any) -> None:
    model.Material("Steel")
    model.PipeProfile("Pipe", r=5.0, t=1.0)
    shell = model.HomogeneousShellSection(name="Shell", material="Steel", thickness=2)
    beam = model.BeamSection(name="Beam", material="Steel", profile="Pipe")
    assert (shell.name, shell.kind, shell.material, shell.thickness) == ("Shell", "shell",
                                                                        "Steel", 2.0)
    assert (beam.name, beam.kind, beam.material, beam.profile) == ("Beam", "beam", "Steel",
                                                                  "Pipe")
    assert model.sections.keys() == ["Shell", "Beam"]


def test_section_references_must_exist(model: Any) -> None:
    model.Material("Steel")
    with pytest.raises(ValueError) as caught:
        model.HomogeneousShellSection("S", material="Alu", thickness=1.0)
    assert str(caught.value) == ("material 'Alu' does not exist in model 'Model-1'; existing "
                                 "materials: 'Steel'")
    with pytest.raises(ValueError) as caught:
        model.BeamSection("B", material="Steel", profile="Box")
    assert str(caught.value) == ("profile 'Box' does not exist in model 'Model-1'; existing "
                                 "profiles: none")
    with pytest.raises(ValueError) as caught:
        model.HomogeneousShellSection("S", material="Steel", thickness=0.0)
    assert str(caught.value) == "thickness must be greater than 0; got 0.0"
    with pytest.raises(TypeError) as caught:
        model.HomogeneousShellSection("S", material="Steel", thickness=1.0, offset=0.0)
    assert str(caught.value) == "keyword error on offset"
    assert len(model.sections) == 0


@pytest.fixture
def props(model: Any, part: Any, make_grid: Any) -> Any:
    model.Material("Steel").Elastic(table=((210000.0, 0.3),))
    model.HomogeneousShellSection("Shell", "Steel", 1.0)
    model.HomogeneousShellSection("Thick", "Steel", 3.0)
    model.CircularProfile("Rod", 2.0)
    model.BeamSection("Beam", "Steel", "Rod")
    nodes, _ = make_grid(part, 2, 1)
    part.Element((nodes[0], nodes[1]), BEAM)
    part.Element((nodes[1], nodes[2]), BEAM)
    return part


def test_section_assignment_by_set_and_by_elements(props: Any) -> None:
    part = props
    shells = part.Set("shells", elements=part.elements.sequenceFromLabels([1, 2]))
    by_set = part.SectionAssignment(region=shells, sectionName="Shell")
    beams = part.elements.sequenceFromLabels([3, 4])
    by_elements = part.SectionAssignment(beams, "Beam")
    assert list(part.sectionAssignments) == [by_set, by_elements]
    assert part.sectionAssignments[0].region is shells
    assert by_set.sectionName == "Shell"
    assert [e.label for e in by_elements.region.elements] == [3, 4]
    part.deleteElement(part.elements.getFromLabel(4))
    assert [e.label for e in by_elements.region.elements] == [3]
    # the assignment follows the set by name: a replaced set changes the region
    part.Set("shells", elements=part.elements.sequenceFromLabels([1]))
    assert [e.label for e in by_set.region.elements] == [1]
    part.sets.changeKey("shells", "plates")
    assert by_set.region.name == "plates"
    by_set.setValues(sectionName="Thick")
    by_set.setValues(region=part.elements.sequenceFromLabels([2]))
    assert by_set.sectionName == "Thick" and [e.label for e in by_set.region.elements] == [2]
    del part.sectionAssignments[0]
    assert list(part.sectionAssignments) == [by_elements]
    with pytest.raises(IndexError) as caught:
        del part.sectionAssignments[3]
    assert str(caught.value) == ("section assignment index 3 out of range: the part has 1 "
                                 "section assignments")


def test_section_assignment_failures(props: Any, model: Any) -> None:
    part = props
    region = part.elements.sequenceFromLabels([1])
    with pytest.raises(ValueError) as caught:
        part.SectionAssignment(region, "Nope")
    assert str(caught.value) == ("section 'Nope' does not exist in model 'Model-1'; existing "
                                 "sections: 'Shell', 'Thick', 'Beam'")
    with pytest.raises(TypeError) as caught:
        part.SectionAssignment([part.elements[0]], "Shell")
    assert str(caught.value) == ("region must be a Set or a MeshElementArray of part 'Plate'; "
                                 "got list")
    other = model.Part("Other")
    a, b = other.Node((0.0, 0.0, 0.0)), other.Node((1.0, 0.0, 0.0))
    other.Element((a, b), BEAM)
    with pytest.raises(ValueError) as caught:
        part.SectionAssignment(other.elements, "Shell")
    assert str(caught.value) == ("region must be elements of part 'Plate'; these belong to part "
                                 "'Other'")
    with pytest.raises(TypeError) as caught:
        part.SectionAssignment(region, "Shell", offset=0.0)
    assert str(caught.value) == "keyword error on offset"
    assert len(part.sectionAssignments) == 0


def test_assigned_region_is_fixed_at_assignment_time(props: Any) -> None:
    part = props
    assignment = part.SectionAssignment(part.elements, "Shell")
    a, b = part.Node((9.0, 9.0, 0.0)), part.Node((9.0, 8.0, 0.0))
    part.Element((a, b), BEAM)
    assert len(assignment.region.elements) == 4


def test_beam_orientations(props: Any) -> None:
    part = props
    beams = part.Set("beams", elements=part.elements.sequenceFromLabels([3, 4]))
    first = part.assignBeamSectionOrientation(region=beams, method=N1_COSINES,
                                              n1=(0.0, 0, -1))
    assert (first.method, first.n1) == (N1_COSINES, (0.0, 0.0, -1.0))
    assert first.region is beams
    newer = part.assignBeamSectionOrientation(part.elements.sequenceFromLabels([4]),
                                              n1=(1.0, 0.0, 0.0))
    assert list(part.beamOrientations) == [first, newer]
    assert [e.label for e in part.beamOrientations[1].region.elements] == [4]
    newer.setValues(n1=(0.0, 1.0, 0.0))
    assert newer.n1 == (0.0, 1.0, 0.0)
    del part.beamOrientations[0]
    assert list(part.beamOrientations) == [newer]


def test_beam_orientation_failures(props: Any) -> None:
    part = props
    beams = part.elements.sequenceFromLabels([3])
    with pytest.raises(ValueError) as caught:
        part.assignBeamSectionOrientation(part.elements, n1=(0.0, 0.0, 1.0))
    assert str(caught.value) == ("a beam section orientation needs BEAM elements; element 1 "
                                 "is QUAD")
    with pytest.raises(ValueError) as caught:
        part.assignBeamSectionOrientation(beams, n1=(0.0, 0.0, 0.0))
    assert str(caught.value) == "n1 must not be the zero vector"
    with pytest.raises(TypeError) as caught:
        part.assignBeamSectionOrientation(beams, method="N1_COSINES", n1=(0.0, 0.0, 1.0))
    assert str(caught.value) == "found string, expecting enum"
    with pytest.raises(ValueError) as caught:
        part.assignBeamSectionOrientation(beams, method=QUAD, n1=(0.0, 0.0, 1.0))
    assert str(caught.value) == "method must be N1_COSINES; got QUAD"
    with pytest.raises(TypeError) as caught:
        part.assignBeamSectionOrientation(beams)
    assert str(caught.value) == "assignBeamSectionOrientation needs n1 (three direction cosines)"
    assert len(part.beamOrientations) == 0


def test_regions_from_other_parts_or_stale_sets_are_refused(props: Any, model: Any) -> None:
    part = props
    other = model.Part("Other")
    a, b = other.Node((0.0, 0.0, 0.0)), other.Node((1.0, 0.0, 0.0))
    other.Element((a, b), BEAM)
    foreign = other.Set("rods", elements=other.elements)
    with pytest.raises(ValueError) as caught:
        part.SectionAssignment(foreign, "Beam")
    assert str(caught.value) == ("region must be a set of part 'Plate'; set 'rods' belongs to "
                                 "part 'Other'")
    stale = part.Set("s", elements=part.elements)
    part.Set("s", elements=part.elements[:1])
    with pytest.raises(ValueError) as caught:
        part.SectionAssignment(stale, "Shell")
    assert str(caught.value) == ("region: set 's' is no longer in part 'Plate' (it was replaced "
                                 "or deleted); existing sets: 's'")
    assert len(part.sectionAssignments) == 0


def test_an_assignment_whose_set_was_deleted_has_an_empty_region(props: Any) -> None:
    part = props
    assignment = part.SectionAssignment(part.Set("all", elements=part.elements), "Shell")
    del part.sets["all"]
    assert len(assignment.region.elements) == 0
    part.Set("all", elements=part.elements[:2])
    assert [e.label for e in assignment.region.elements] == [1, 2]
