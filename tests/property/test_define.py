"""define_property: value rules, material references, identical vs conflicting names."""

from __future__ import annotations

import pytest

from sam_plugin.errors import CompileError

STEEL = {"name": "Steel", "youngs_modulus": 210000.0, "poisson_ratio": 0.3, "density": 7.85e-9}
SHELL = {"name": "Plate", "kind": "shell", "material": "Steel", "thickness": 2.0}
BEAM = {"name": "Bar", "kind": "beam", "material": "Steel",
        "profile": {"shape": "rectangle", "a": 10.0, "b": 20.0}}


def messages(excinfo: pytest.ExceptionInfo[CompileError]) -> list[str]:
    return [str(d) for d in excinfo.value.diagnostics]


def test_define_creates_materials_and_sections_verified(pipeline, frame, verified) -> None:
    outcome = pipeline.run([("define_property", {"materials": [STEEL],
                                                 "sections": [SHELL, BEAM]})])
    verified(outcome)
    assert outcome.after.materials == ["Steel"]
    assert outcome.after.sections == ["Bar", "Plate"]
    model = pipeline.gateway.model("Model-1")
    assert model.materials["Steel"].elastic.table == ((210000.0, 0.3),)
    assert model.materials["Steel"].density.table == ((7.85e-9,),)
    assert model.sections["Plate"].thickness == 2.0
    assert model.profiles[model.sections["Bar"].profile].dimensions() == {"a": 10.0, "b": 20.0}


@pytest.mark.parametrize(
    ("material", "expected"),
    [
        ({**STEEL, "youngs_modulus": 0}, "materials[0].youngs_modulus: 0 must be greater than 0"),
        ({**STEEL, "poisson_ratio": 0.5},
         "materials[0].poisson_ratio: Poisson's ratio must lie strictly between -1 and 0.5; "
         "got 0.5"),
        ({**STEEL, "poisson_ratio": -1.0},
         "materials[0].poisson_ratio: Poisson's ratio must lie strictly between -1 and 0.5; "
         "got -1.0"),
        ({**STEEL, "density": -1.0}, "materials[0].density: -1.0 must be greater than 0"),
    ],
)
def test_material_value_rules(pipeline, frame, material, expected) -> None:
    with pytest.raises(CompileError) as excinfo:
        pipeline.compile([("define_property", {"materials": [material]})])
    assert messages(excinfo) == [expected]


@pytest.mark.parametrize(
    ("profile", "expected"),
    [
        ({"shape": "pipe", "r": 5.0, "t": 5.0},
         "sections[0].profile: pipe wall thickness t=5.0 must be less than the outer "
         "radius r=5.0 (a solid bar is shape circle)"),
        ({"shape": "I", "l": 50.0, "h": 100.0, "b1": 50.0, "b2": 50.0, "t1": 60.0,
          "t2": 40.0, "t3": 5.0},
         "sections[0].profile: I profile flange thicknesses t1 + t2 = 100.0 must be less "
         "than the height h=100.0"),
        ({"shape": "I", "l": 50.0, "h": 100.0, "b1": 50.0, "b2": 4.0, "t1": 6.0,
          "t2": 6.0, "t3": 5.0},
         "sections[0].profile: I profile web thickness t3=5.0 must be less than both flange "
         "widths b1=50.0 and b2=4.0"),
        ({"shape": "I", "l": 150.0, "h": 100.0, "b1": 50.0, "b2": 50.0, "t1": 6.0,
          "t2": 6.0, "t3": 5.0},
         "sections[0].profile: I profile l=150.0 (origin offset from the bottom flange) "
         "must not exceed the height h=100.0"),
        ({"shape": "circle", "r": 0}, "sections[0].profile.r: 0 must be greater than 0"),
        ({"shape": "hexagon", "r": 1.0},
         "sections[0].profile.shape: unknown shape 'hexagon'; legal shape values: rectangle, "
         "circle, pipe, I"),
    ],
)
def test_beam_profile_rules(pipeline, frame, profile, expected) -> None:
    section = {**BEAM, "profile": profile}
    with pytest.raises(CompileError) as excinfo:
        pipeline.compile([("define_property", {"materials": [STEEL], "sections": [section]})])
    assert messages(excinfo) == [expected]


def test_shell_thickness_must_be_positive(pipeline, frame) -> None:
    with pytest.raises(CompileError) as excinfo:
        pipeline.compile([("define_property", {"materials": [STEEL],
                                               "sections": [{**SHELL, "thickness": -2}]})])
    assert messages(excinfo) == ["sections[0].thickness: -2 must be greater than 0"]


def test_section_material_must_exist(pipeline, frame, model) -> None:
    model.Material(name="Alu").Elastic(table=((70000.0, 0.33),))
    with pytest.raises(CompileError) as excinfo:
        pipeline.compile([("define_property", {"materials": [STEEL],
                                               "sections": [{**SHELL, "material": "Titan"}]})])
    assert messages(excinfo) == [
        "sections[0].material: unknown material 'Titan' for section 'Plate'; legal materials: "
        "Alu, Steel"
    ]


def test_section_may_use_a_material_of_the_model(pipeline, frame, model, verified) -> None:
    model.Material(name="Steel").Elastic(table=((210000.0, 0.3),))
    outcome = pipeline.run([("define_property", {"sections": [SHELL]})])
    verified(outcome)
    assert outcome.after.sections == ["Plate"]


def test_conflicting_existing_name_is_an_error(pipeline, frame, model) -> None:
    model.Material(name="Steel").Elastic(table=((200000.0, 0.3),))
    with pytest.raises(CompileError) as excinfo:
        pipeline.compile([("define_property", {"materials": [STEEL]})])
    assert messages(excinfo) == [
        "materials[0].name: material 'Steel' already exists with a different definition "
        "(E=200000.0, nu=0.3, density=None); choose a new name or repeat the existing "
        "definition"
    ]


def test_a_conflicting_density_is_said_so_a_grammar_can_copy_it(pipeline, frame,
                                                                 model) -> None:
    """"Repeat the existing definition" with ``density=7.85e-09`` in it: a model held to
    llama.cpp's JSON grammar can only write ``7.85e-0`` (a density of 7.85)."""
    steel = model.Material(name="Steel")
    steel.Elastic(table=((200000.0, 0.3),))
    steel.Density(table=((7.85e-9,),))
    with pytest.raises(CompileError) as excinfo:
        pipeline.compile([("define_property", {"materials": [STEEL]})])
    assert "(E=200000.0, nu=0.3, density=7.85e-9);" in messages(excinfo)[0]


def test_conflicting_section_is_an_error(pipeline, frame, model) -> None:
    model.Material(name="Steel").Elastic(table=((210000.0, 0.3),))
    model.HomogeneousShellSection(name="Plate", material="Steel", thickness=3.0)
    with pytest.raises(CompileError) as excinfo:
        pipeline.compile([("define_property", {"sections": [SHELL]})])
    assert messages(excinfo) == [
        "sections[0].name: section 'Plate' already exists with a different definition "
        "(shell, material 'Steel', thickness 3.0); choose a new name or repeat the existing "
        "definition"
    ]


def test_identical_definition_is_a_reported_noop(pipeline, frame, model, verified) -> None:
    first = pipeline.run([("define_property", {"materials": [STEEL], "sections": [BEAM]})])
    verified(first)
    second = pipeline.run([("define_property", {"materials": [STEEL], "sections": [BEAM]})])
    verified(second)
    assert second.fragments[0].notes == [
        "material 'Steel' already exists with the identical definition: left as it is (no-op)",
        "section 'Bar' already exists with the identical definition: left as it is (no-op)",
    ]
    assert len(model.profiles) == 1


def test_duplicate_names_in_one_call(pipeline, frame) -> None:
    with pytest.raises(CompileError) as excinfo:
        pipeline.compile([("define_property", {"materials": [STEEL, STEEL]})])
    assert messages(excinfo) == [
        "materials: name(s) Steel appear more than once; each name is defined once per call"
    ]


def test_empty_define_is_refused(pipeline, frame) -> None:
    with pytest.raises(CompileError) as excinfo:
        pipeline.compile([("define_property", {})])
    assert messages(excinfo) == ["define_property needs at least one material or section"]


def test_same_call_same_script_bytes(pipeline, frame) -> None:
    call = ("define_property", {"materials": [STEEL], "sections": [SHELL, BEAM]})
    from sam_plugin.compilers.composer import compose

    first = compose(pipeline.compile([call])).sha256
    second = compose(pipeline.compile([call])).sha256
    assert first == second
