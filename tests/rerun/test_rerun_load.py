"""A Load run again on another part of the same model (docs/architecture.md §6 "rerun"):
the steps its source defined are found in the model and used as they are; a load or
condition name the source made is the model's, so the rerun is refused naming the field and
the existing names."""

from __future__ import annotations

import json

from rerun_support import approve_all, plates, rerun, result_of, source_run

from sam_plugin.runtime.host_gateway import HostGateway
from sam_plugin.runtime.store.undo import undo_run
from tests.support import specs

STEP = ("define_step", {"steps": [{"name": "Push"}]})
STEP_SPEC = specs.answer(specs.step("define_step", mode="load", name="Push"),
                         specs.step("audit", mode="load"),
                         summary="Define the static step Push; audit the loads.")
CLAMP = ("apply_boundary", {"conditions": [{"name": "Clamp", "kind": "fix",
                                            "selection": {"by": "all"}}]})
CLAMP_SPEC = specs.answer(specs.step("define_step", mode="load", name="Push"),
                          specs.step("fix", specs.ALL, mode="load", name="Clamp"),
                          summary="Define the step Push; fix every node as Clamp.")


def test_a_step_the_source_defined_is_used_as_it_is_on_the_next_part(fresh_sam, tmp_path):
    plates(fresh_sam, {"Plate": 2, "Plate-2": 2})
    runs = tmp_path / "runs"
    source = source_run(fresh_sam, runs, "Plate", [STEP, ("audit_loads", {})],
                        spec=STEP_SPEC, request="define the step Push", mode="load")
    summary = rerun(fresh_sam, runs, source, ["Plate-2"], approve_all()).summary
    assert [t.outcome for t in summary.targets] == ["verified"], summary.targets[0].message
    run_id = summary.targets[0].run_id
    plan = json.loads((runs / run_id / "plan.json").read_text())
    assert plan["calls"][0]["operations"][0]["text"] == (
        "use the static step Push after Initial as it is (it exists already)")
    assert plan["calls"][0]["notes"] == ["the model has the step Push after Initial already: "
                                         "the run uses it and does not define it again"]
    model = fresh_sam.mdb.models["Model-1"]
    assert list(model.steps.keys()) == ["Initial", "Push"]
    assert result_of(runs, run_id).status == "verified"
    assert undo_run(HostGateway(fresh_sam), runs, run_id).status == "undone"
    assert list(model.steps.keys()) == ["Initial", "Push"]  # the source's step stays


def test_a_condition_name_the_source_made_refuses_the_next_part_naming_it(fresh_sam,
                                                                          tmp_path):
    plates(fresh_sam, {"Plate": 2, "Plate-2": 2})
    runs = tmp_path / "runs"
    source = source_run(fresh_sam, runs, "Plate", [STEP, CLAMP], spec=CLAMP_SPEC,
                        request="clamp the plate", mode="load")
    summary = rerun(fresh_sam, runs, source, ["Plate-2"], approve_all()).summary
    refused = summary.targets[0]
    assert refused.outcome == "refused"
    assert refused.message == (
        "refused at compile: apply_boundary: 1 problem(s)\n"
        "  - conditions[0].name: the boundary condition "
        "'Clamp' already exists; existing boundary conditions: Clamp; choose a new name (a "
        "boundary condition's name is the model's: every part of Model-1 shares it)")
    model = fresh_sam.mdb.models["Model-1"]
    assert list(model.boundaryConditions.keys()) == ["Clamp"]
    assert "BC-Clamp" not in model.parts["Plate-2"].sets.keys()
