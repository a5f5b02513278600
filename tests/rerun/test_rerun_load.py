"""A Load run again on another part of the same model (docs/architecture.md §6 "rerun"):
the steps its source defined are found in the model and used as they are; a load or
condition name the source made is the model's, so on another part it is named after that part
and the plan says so; on the same part it is refused naming the field and the existing
names."""

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


LOADED = ("apply_load", {"loads": [{"name": "P1", "kind": "pressure", "step": "Push",
                                    "magnitude": 0.5, "selection": {"by": "all"}}]})
LOADED_SPEC = specs.answer(specs.step("define_step", mode="load", name="Push"),
                           specs.step("pressure", specs.ALL, mode="load", name="P1",
                                      step="Push", magnitude=0.5),
                           specs.step("fix", specs.ALL, mode="load", name="Clamp"),
                           summary="Define the step Push; a pressure P1; fix as Clamp.")


def test_a_rerun_on_another_part_names_its_loads_and_conditions_after_the_part(fresh_sam,
                                                                               tmp_path):
    plates(fresh_sam, {"Plate": 2, "Plate-2": 2, "Plate-3": 2})
    runs = tmp_path / "runs"
    source = source_run(fresh_sam, runs, "Plate", [STEP, LOADED, CLAMP], spec=LOADED_SPEC,
                        request="press and clamp the plate", mode="load")
    summary = rerun(fresh_sam, runs, source, ["Plate-2", "Plate-3"], approve_all()).summary
    assert [t.outcome for t in summary.targets] == ["verified", "verified"], summary.targets
    model = fresh_sam.mdb.models["Model-1"]
    assert list(model.loads.keys()) == ["P1", "P1-Plate-2", "P1-Plate-3"]
    assert list(model.boundaryConditions.keys()) == ["Clamp", "Clamp-Plate-2",
                                                     "Clamp-Plate-3"]
    run_id = summary.targets[0].run_id
    plan = json.loads((runs / run_id / "plan.json").read_text())
    assert plan["calls"][1]["notes"][0] == (
        "the model has a load named P1 already: the one on Plate-2 is named P1-Plate-2")
    assert plan["calls"][2]["notes"][0] == (
        "the model has a boundary condition named Clamp already: the one on Plate-2 is "
        "named Clamp-Plate-2")
    assert plan["calls"][1]["operations"][0]["text"].startswith("pressure P1-Plate-2 of 0.5")
    checks = {c.name: c.ok for c in result_of(runs, run_id).checks}
    assert checks["load P1-Plate-2 magnitude"] and checks["boundary condition Clamp-Plate-2 "
                                                          "kind"]
    assert undo_run(HostGateway(fresh_sam), runs, summary.targets[1].run_id).status == "undone"
    assert undo_run(HostGateway(fresh_sam), runs, run_id).status == "undone"
    assert list(model.loads.keys()) == ["P1"]  # the source's stays
    assert list(model.boundaryConditions.keys()) == ["Clamp"]


def test_the_name_after_the_part_says_so_in_chinese():
    from sam_plugin.compilers.load.part_names import named_for_part_note
    from sam_plugin.words.phrase import render

    class Model:
        loads = {"P1": object()}

    said = named_for_part_note("loads", "P1-Plate-2", Model(), "Plate-2")
    assert said is not None
    assert render(said, "zh_CN") == (
        "说明：模型中已有名为 P1 的载荷：Plate-2 上的载荷命名为 P1-Plate-2")
    assert named_for_part_note("loads", "P1-Plate-2x", Model(), "Plate-2") is None


def test_the_next_free_name_after_the_part_when_that_is_taken_too():
    from sam_plugin.compilers.load.part_names import named_for_part

    assert named_for_part("P1", "Plate-2", {"P1", "P1-Plate-2", "P1-Plate-2-2"}) == (
        "P1-Plate-2-3")


def test_a_rerun_on_the_same_part_still_refuses_a_name_it_made(fresh_sam, tmp_path):
    plates(fresh_sam, {"Plate": 2})
    runs = tmp_path / "runs"
    source = source_run(fresh_sam, runs, "Plate", [STEP, CLAMP], spec=CLAMP_SPEC,
                        request="clamp the plate", mode="load")
    summary = rerun(fresh_sam, runs, source, ["Plate"], approve_all()).summary
    refused = summary.targets[0]
    assert refused.outcome == "refused"
    assert refused.message.splitlines()[1] == (
        "  - conditions[0].name: the boundary condition "
        "'Clamp' already exists; existing boundary conditions: Clamp; choose a new name (a "
        "boundary condition's name is the model's: every part of Model-1 shares it)")
    model = fresh_sam.mdb.models["Model-1"]
    assert list(model.boundaryConditions.keys()) == ["Clamp"]
