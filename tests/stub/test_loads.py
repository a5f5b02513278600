"""The offline SAM's steps, loads and boundary conditions: the host API and its failure modes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .conftest import grid


@pytest.fixture
def plate(model: Any, part: Any) -> Any:
    """A 2 x 2 QUAD plate with a set of every element (TOP) and one of the left nodes (LEFT)."""
    nodes, elements = grid(part, 3, 3)
    part.Set("TOP", elements=elements)
    part.Set("LEFT", nodes=[node for node in nodes if node.coordinates[0] == 0.0])
    return part


def test_a_new_model_has_only_the_initial_step(model: Any) -> None:
    assert model.steps.keys() == ["Initial"]
    assert len(model.loads) == 0 and len(model.boundaryConditions) == 0


def test_the_initial_step_cannot_be_deleted_or_renamed(model: Any) -> None:
    with pytest.raises(ValueError, match="Initial step cannot be deleted"):
        del model.steps["Initial"]
    with pytest.raises(ValueError, match="cannot be renamed"):
        model.steps.changeKey("Initial", "Start")


def test_a_static_step_follows_its_previous_step(model: Any) -> None:
    model.StaticStep("Load", previous="Initial")
    model.StaticStep("Unload", previous="Load", description="take it off")
    model.StaticStep("Preload", previous="Initial")
    assert model.steps.keys() == ["Initial", "Preload", "Load", "Unload"]
    assert model.steps["Load"].previous == "Preload"
    assert model.steps["Unload"].description == "take it off"


def test_a_step_after_a_missing_step_raises_key_error(model: Any) -> None:
    with pytest.raises(KeyError, match="no step named 'Nope'.*existing steps: 'Initial'"):
        model.StaticStep("Load", previous="Nope")
    assert model.steps.keys() == ["Initial"]


def test_a_name_already_used_raises_value_error(model: Any, plate: Any) -> None:
    model.StaticStep("Load")
    with pytest.raises(ValueError, match="a step named 'Load' already exists"):
        model.StaticStep("Load")
    model.Pressure("P", "Load", plate.sets["TOP"], 1.0)
    with pytest.raises(ValueError, match="a load named 'P' already exists"):
        model.ConcentratedForce("P", "Load", plate.sets["LEFT"], cf1=1.0)
    model.EncastreBC("Fix", "Initial", plate.sets["LEFT"])
    with pytest.raises(ValueError, match="a boundary condition named 'Fix' already exists"):
        model.DisplacementBC("Fix", "Initial", plate.sets["LEFT"], u1=0.0)


def test_a_pressure_keeps_its_step_region_and_magnitude(model: Any, plate: Any) -> None:
    model.StaticStep("Load")
    pressure = model.Pressure(name="P", createStepName="Load", region=plate.sets["TOP"],
                              magnitude=0.5)
    assert model.loads["P"] is pressure
    assert (pressure.name, pressure.createStepName, pressure.region, pressure.magnitude) == (
        "P", "Load", ("Plate", "TOP"), 0.5)


def test_a_load_in_the_initial_step_is_refused(model: Any, plate: Any) -> None:
    with pytest.raises(ValueError, match="^loads cannot be created in the Initial step$"):
        model.Pressure("P", "Initial", plate.sets["TOP"], 1.0)
    with pytest.raises(ValueError, match="^loads cannot be created in the Initial step$"):
        model.ConcentratedForce("F", "Initial", plate.sets["LEFT"], cf2=-5.0)
    assert len(model.loads) == 0


def test_a_load_in_a_missing_step_raises_key_error(model: Any, plate: Any) -> None:
    with pytest.raises(KeyError, match="no step named 'Load'"):
        model.Pressure("P", "Load", plate.sets["TOP"], 1.0)
    with pytest.raises(KeyError, match="no step named 'Step-9'"):
        model.EncastreBC("Fix", "Step-9", plate.sets["LEFT"])


def test_a_pressure_needs_quad_or_tri_elements(model: Any, plate: Any) -> None:
    from samConstants import BEAM

    model.StaticStep("Load")
    with pytest.raises(ValueError, match="a pressure needs elements; set 'LEFT' holds none"):
        model.Pressure("P", "Load", plate.sets["LEFT"], 1.0)
    beam = plate.Element((plate.nodes[0], plate.nodes[1]), BEAM)
    plate.Set("BEAMS", elements=[beam])
    with pytest.raises(ValueError, match="QUAD and TRI faces only.*BEAM element"):
        model.Pressure("P", "Load", plate.sets["BEAMS"], 1.0)


def test_forces_and_conditions_need_nodes(model: Any, plate: Any) -> None:
    plate.Set("EMPTY")
    model.StaticStep("Load")
    with pytest.raises(ValueError, match="concentrated force needs nodes; set 'EMPTY'"):
        model.ConcentratedForce("F", "Load", plate.sets["EMPTY"], cf1=1.0)
    with pytest.raises(ValueError, match="boundary condition needs nodes; set 'EMPTY'"):
        model.EncastreBC("Fix", "Initial", plate.sets["EMPTY"])


def test_a_region_must_be_a_set_of_a_part_of_the_model(model: Any, plate: Any) -> None:
    model.StaticStep("Load")
    with pytest.raises(TypeError, match=r"region must be a set of a part \(part.sets\[name\]\)"):
        model.Pressure("P", "Load", plate.elements, 1.0)
    with pytest.raises(TypeError, match="got str"):
        model.EncastreBC("Fix", "Initial", "LEFT")


def test_a_displacement_leaves_unset_dofs_free(model: Any, plate: Any) -> None:
    from samConstants import UNSET

    condition = model.DisplacementBC("Pull", "Initial", plate.sets["LEFT"], u1=0.25, ur3=0)
    assert (condition.u1, condition.ur3) == (0.25, 0.0)
    assert condition.u2 is UNSET and condition.u3 is UNSET and condition.ur1 is UNSET
    with pytest.raises(TypeError, match="keyword error on u4"):
        model.DisplacementBC("Bad", "Initial", plate.sets["LEFT"], u4=1.0)
    with pytest.raises(ValueError, match="u2 must be finite"):
        model.DisplacementBC("Bad", "Initial", plate.sets["LEFT"], u2=float("nan"))


def test_loads_and_conditions_can_be_deleted(model: Any, plate: Any) -> None:
    model.StaticStep("Load")
    model.ConcentratedForce("F", "Load", plate.sets["LEFT"], cf3=-10.0)
    model.EncastreBC("Fix", "Initial", plate.sets["LEFT"])
    del model.loads["F"]
    del model.boundaryConditions["Fix"]
    assert len(model.loads) == 0 and len(model.boundaryConditions) == 0


def test_deleting_a_step_deletes_what_was_created_in_it(model: Any, plate: Any) -> None:
    model.StaticStep("Load")
    model.StaticStep("More", previous="Load")
    model.Pressure("P", "More", plate.sets["TOP"], 1.0)
    with pytest.raises(ValueError, match="while step 'More' follows it"):
        del model.steps["Load"]
    del model.steps["More"]
    assert "P" not in model.loads
    assert model.steps.keys() == ["Initial", "Load"]


def test_unset_is_a_symbolic_constant() -> None:
    import samConstants

    assert isinstance(samConstants.UNSET, samConstants.SymbolicConstant)
    assert repr(samConstants.UNSET) == "UNSET"


def _loaded(fresh_sam: Any, tmp_path: Path) -> Any:
    fresh_sam.mdb.saveAs(str(tmp_path / "w.sam.json"))
    return fresh_sam.openMdb(str(tmp_path / "w.sam.json"))


def test_steps_loads_and_conditions_round_trip_exactly(fresh_sam: Any, model: Any, plate: Any,
                                                        tmp_path: Path) -> None:
    from sam.storage import mdb_doc

    model.StaticStep("Load", description="the service load")
    model.StaticStep("Preload", previous="Initial")
    model.Pressure("P", "Load", plate.sets["TOP"], 0.1 + 0.2)
    model.ConcentratedForce("F", "Preload", plate.sets["LEFT"], cf1=1e-17, cf3=-3.0)
    model.EncastreBC("Fix", "Initial", plate.sets["LEFT"])
    model.DisplacementBC("Pull", "Load", plate.sets["LEFT"], u2=0.5)
    before = mdb_doc(fresh_sam.mdb)
    reopened = _loaded(fresh_sam, tmp_path)
    assert mdb_doc(reopened) == before
    again = reopened.models["Model-1"]
    assert again.steps.keys() == ["Initial", "Preload", "Load"]
    assert again.loads["P"].magnitude == 0.1 + 0.2
    assert again.loads["F"].cf1 == 1e-17
    from samConstants import UNSET

    assert again.boundaryConditions["Pull"].u1 is UNSET


def test_a_model_without_loads_is_written_as_before(fresh_sam: Any, plate: Any) -> None:
    from sam.storage import mdb_doc

    written = mdb_doc(fresh_sam.mdb)["models"][0]
    assert set(written) == {"name", "materials", "profiles", "sections", "parts"}


def test_a_load_whose_set_was_deleted_still_opens(fresh_sam: Any, model: Any, plate: Any,
                                                  tmp_path: Path) -> None:
    model.StaticStep("Load")
    model.Pressure("P", "Load", plate.sets["TOP"], 1.0)
    del plate.sets["TOP"]
    assert _loaded(fresh_sam, tmp_path).models["Model-1"].loads["P"].region == ("Plate", "TOP")


@pytest.mark.parametrize(("change", "words"), [
    (lambda doc: doc["loads"][0].update(step="Initial"), "loads cannot be created in the Initial"),
    (lambda doc: doc["loads"][0].update(step="Nope"), "no step named 'Nope'"),
    (lambda doc: doc["steps"][0].update(previous="Nope"), "no step named 'Nope'"),
    (lambda doc: doc["loads"][0].update(vector=[1, 2, 3]), "needs a magnitude and no vector"),
    (lambda doc: doc["steps"].append(dict(doc["steps"][0])), "step 'Load' appears twice"),
])
def test_a_file_cannot_hold_what_the_host_refuses(fresh_sam: Any, model: Any, plate: Any,
                                                  tmp_path: Path, change: Any,
                                                  words: str) -> None:
    import json

    from sam.storage import MdbFileError

    model.StaticStep("Load")
    model.Pressure("P", "Load", plate.sets["TOP"], 1.0)
    path = tmp_path / "w.sam.json"
    fresh_sam.mdb.saveAs(str(path))
    document = json.loads(path.read_text())
    change(document["models"][0])
    path.write_text(json.dumps(document))
    with pytest.raises(MdbFileError, match=words):
        fresh_sam.openMdb(str(path))


def test_a_copied_model_keeps_its_steps_and_loads(fresh_sam: Any, model: Any,
                                                  plate: Any) -> None:
    model.StaticStep("Load")
    model.EncastreBC("Fix", "Initial", plate.sets["LEFT"])
    copy = fresh_sam.mdb.Model("Copy", objectToCopy=model)
    assert copy.steps.keys() == ["Initial", "Load"]
    assert copy.boundaryConditions["Fix"].region == ("Plate", "LEFT")
    assert copy.boundaryConditions["Fix"] is not model.boundaryConditions["Fix"]
