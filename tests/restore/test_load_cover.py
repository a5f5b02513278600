"""The snapshot's cover of steps, loads and boundary conditions (``samops/load_cover.py``) and
the load audit (``samops/load_audit.py``), on the stub: what is captured is put back exactly,
whatever a run did in between; the audit finds loads on empty regions and nodes both fixed
and displaced."""

from __future__ import annotations

import json

import pytest

from sam_plugin.samops import load_audit, load_cover
from tests.support.pipeline import fresh_database
from tests.support.plates import quad_plate


@pytest.fixture
def model():
    for sam in fresh_database():
        found = sam.mdb.models["Model-1"]
        part = quad_plate(found, "Plate", 2)
        part.Set(name="E", elements=part.elements.sequenceFromLabels([1, 2]))
        part.Set(name="N", nodes=part.nodes.sequenceFromLabels([1, 2, 3]))
        part.Set(name="M", nodes=part.nodes.sequenceFromLabels([3, 6]))
        found.StaticStep(name="A", previous="Initial")
        found.StaticStep(name="B", previous="A")
        found.Pressure(name="P", createStepName="A", region=part.sets["E"], magnitude=2.0)
        found.ConcentratedForce(name="F", createStepName="B", region=part.sets["N"], cf2=-5.0)
        found.EncastreBC(name="FIX", createStepName="Initial", region=part.sets["N"])
        found.DisplacementBC(name="MOVE", createStepName="A", region=part.sets["M"], u1=0.5)
        yield found


def test_restore_puts_back_exactly_what_was_captured(model):
    saved = json.loads(json.dumps(load_cover.capture(model)))  # as a snapshot file keeps it
    part = model.parts["Plate"]
    del model.loads["P"]
    del model.boundaryConditions["MOVE"]
    model.StaticStep(name="C", previous="A")  # between A and B
    model.Pressure(name="Q", createStepName="C", region=part.sets["E"], magnitude=9.0)
    assert set(load_cover.differences(saved, model)) == {
        "step 'C' was added", "load 'P' is gone", "load 'Q' was added",
        "boundary condition 'MOVE' is gone", "step 'B' differs"}
    load_cover.restore(model, saved)
    assert load_cover.capture(model) == saved
    assert load_cover.differences(saved, model) == []
    assert list(model.steps.keys()) == ["Initial", "A", "B"]
    assert str(model.boundaryConditions["MOVE"].u2) == "UNSET"


def test_the_audit_finds_empty_regions_and_fixed_and_displaced_nodes(model, tmp_path):
    part = model.parts["Plate"]
    part.deleteElement(elements=part.elements.sequenceFromLabels([1, 2]))
    report = load_audit.write_audit(model, str(tmp_path))
    assert report["loads_on_empty_regions"] == ["P"]
    assert report["fixed_and_displaced"] == [{"conditions": ["FIX", "MOVE"], "dofs": ["u1"],
                                              "nodes": [3], "node_count": 1}]
    written = json.loads((tmp_path / load_audit.AUDIT_FILE).read_text())
    assert written["loads"]["F"]["values"] == {"cf1": 0.0, "cf2": -5.0, "cf3": 0.0}
    assert written["boundary_conditions"]["MOVE"]["members"] == {"nodes": 2, "elements": 0}
