"""Binding Property calls to the spec (docs/architecture.md §4 "The spec", I15): action ×
scope width × value on the Frame part (QUAD 1, 2; TRI 3; BEAM 4, 5)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.support.specs import ALL, contradictions, labels, spec, step

STEEL = {"name": "Steel", "youngs_modulus": 210000.0, "poisson_ratio": 0.3}
SHELL = {"name": "Skin", "kind": "shell", "material": "Steel", "thickness": 2.0}


def steps(*items: Any) -> Any:
    return spec(*items, mode="property")


def material_step(**values: Any) -> dict[str, Any]:
    return step("define_material", mode="property", **{"name": "Steel", "E": 210000.0,
                                                       "nu": 0.3, **values})


@pytest.mark.parametrize(("values", "binds", "words"), [
    ({}, True, ""),
    ({"E": 210000.0 * (1 + 1e-11)}, True, ""),
    ({"E": 21000.0}, False, "E 210000, not 21000"),
    ({"nu": 0.33}, False, "nu 0.3, not 0.33"),
    ({"density": 7.85e-9}, False, "the call gives no density, the step 7.85e-09"),
    ({"name": "steel"}, False, "name Steel, not steel"),
])
def test_material_values(frame, pipeline, values, binds, words):
    found = contradictions(pipeline, steps(material_step(**values)),
                           [("define_property", {"materials": [STEEL]})])
    assert (found == []) is binds, found
    assert words in " ".join(found)


def test_section_profile_values(frame, pipeline):
    beam = {"name": "Bar", "kind": "beam", "material": "Steel",
            "profile": {"shape": "rectangle", "a": 10, "b": 20}}
    the_spec = steps(material_step(),
                     step("define_section", mode="property", name="Bar", kind="beam",
                          material="Steel", profile={"shape": "rectangle", "a": 10, "b": 20}))
    call = [("define_property", {"materials": [STEEL], "sections": [beam]})]
    assert contradictions(pipeline, the_spec, call) == []
    wide = {**beam, "profile": {"shape": "rectangle", "a": 10, "b": 200}}
    found = contradictions(pipeline, the_spec,
                           [("define_property", {"materials": [STEEL], "sections": [wide]})])
    assert "profile rectangle, a 10, b 200, not rectangle, a 10, b 20" in found[0]


def test_a_material_no_step_states(frame, pipeline):
    extra = {"name": "Alu", "youngs_modulus": 70000.0, "poisson_ratio": 0.33}
    found = contradictions(pipeline, steps(material_step()),
                           [("define_property", {"materials": [STEEL, extra]})])
    assert found == ["the call defines the material Alu with E = 70000, nu = 0.33, which no "
                     "step of the spec states; remove it (the spec says what may change)"]


@pytest.mark.parametrize(("scope", "selection", "binds"), [
    (labels(1, 2), labels(1, 2), True),
    (labels(1, 2), labels(2), True),
    (labels(1, 2), {"by": "shape", "shape": "QUAD"}, True),  # the same two elements
    (labels(1, 2), ALL, False),
    (labels(1, 2), labels(1, 2, 3), False),
])
def test_assignment_scope(frame, pipeline, scope, selection, binds):
    the_spec = steps(material_step(),
                     step("define_section", mode="property", name="Skin", kind="shell",
                          material="Steel", thickness=2.0),
                     step("assign_section", scope, mode="property", section="Skin"))
    calls = [("define_property", {"materials": [STEEL], "sections": [SHELL]}),
             ("assign_property", {"assignments": [{"section": "Skin",
                                                   "selection": selection}]})]
    found = contradictions(pipeline, the_spec, calls)
    assert (found == []) is binds, found


def test_beam_orientation_value(frame, pipeline):
    the_spec = steps(step("orient_beams", labels(4), mode="property", n1=[0, 1, 0]))
    call = {"beam_orientations": [{"selection": labels(4), "n1": [0, 0, 1]}]}
    found = contradictions(pipeline, the_spec, [("assign_property", call)])
    assert found == ["step 1 says orient the beams of element 4 with n1 = (0, 1, 0); the call "
                     "orients the beams of element 4 with n1 = (0, 0, 1) (n1 (0, 0, 1), not "
                     "(0, 1, 0))"]


def test_a_profile_binds_whole_not_only_the_fields_the_step_gives(frame, pipeline):
    """A step's profile ``a: 10`` was carried out by ``a: 10, b: 2000``: a field the step
    leaves out is not the call's to choose."""
    the_spec = steps(material_step(),
                     step("define_section", mode="property", name="Bar", kind="beam",
                          material="Steel", profile={"shape": "rectangle", "a": 10}))
    beam = {"name": "Bar", "kind": "beam", "material": "Steel",
            "profile": {"shape": "rectangle", "a": 10, "b": 2000}}
    found = contradictions(pipeline, the_spec,
                           [("define_property", {"materials": [STEEL], "sections": [beam]})])
    assert "profile rectangle, a 10, b 2000, not rectangle, a 10" in found[0]
