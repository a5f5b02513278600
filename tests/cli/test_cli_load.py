"""``sam-agent run --mode load --spec FILE`` (docs/architecture.md §6): a step, a pressure, a
force, a fixed edge and a displacement verified, read back through the host API with the
geometry and properties unchanged; a rule of the mode refused naming the legal set."""

from __future__ import annotations

import json

import pytest
from cli_support import base_args, new_workspace, run_cli

from tests.support.specs import ALL, answer, labels, step

EDGE = {"by": "box", "min": [0, 0, 0], "max": [0, 1, 0]}
TIP = {"by": "box", "min": [2, 0, 0], "max": [2, 1, 0]}
LOAD_SPEC = answer(
    step("define_step", mode="load", name="Push"),
    step("pressure", ALL, mode="load", name="P1", step="Push", magnitude=-2.5),
    step("force", labels(3), mode="load", name="F1", step="Push", vector=[0, -100, 0]),
    step("fix", EDGE, mode="load", name="Clamp"),
    step("displace", TIP, mode="load", name="Pull", step="Push", values={"u1": 0.5}),
    step("audit", mode="load"),
    summary="Step Push: pressure P1 of -2.5 on all, force F1 of (0, -100, 0) on node 3, "
            "edge x = 0 fixed as Clamp, edge x = 2 pulled by u1 = 0.5.")


def _run(tmp_path, capsys, monkeypatch, spec_text, *flags):
    monkeypatch.setenv("SAM_AGENT_CALLS", "spec")
    workspace = new_workspace(tmp_path / "w.sam.json", quads=2)
    spec_file = tmp_path / "spec.json"
    spec_file.write_text(spec_text)
    out = tmp_path / "out.sam.json"
    args = base_args(workspace, tmp_path / "runs", mode="load") + [
        "--spec", str(spec_file), "--json", "--yes", "--save", str(out), *flags]
    return run_cli(args, capsys), out


def test_steps_loads_and_conditions_verify(tmp_path, capsys, monkeypatch):
    run, out = _run(tmp_path, capsys, monkeypatch, LOAD_SPEC)
    assert run.code == 0, run.out + run.err
    result = run.result
    assert result["status"] == "verified" and result["module"] == "load"
    assert result["tools"] == ["define_step", "apply_load", "apply_boundary", "audit_loads"]
    checks = {c["name"]: c for c in result["checks"]}
    assert checks["geometry unchanged"]["ok"] and checks["properties unchanged"]["ok"]
    assert checks["load P1 magnitude"]["actual"] == "-2.5"
    assert checks["load P1 region elements"]["actual"] == "2"
    assert checks["load F1 cf2"]["actual"] == "-100"
    assert checks["boundary condition Clamp kind"]["actual"] == "encastre"
    assert checks["boundary condition Pull u1"]["actual"] == "0.5"
    assert checks["boundary condition Pull u2"]["actual"] == "free"
    assert checks["step Push"]["actual"] == "present"
    assert result["after"]["sets"] == ["BC-Clamp", "BC-Pull", "LOAD-F1", "LOAD-P1"]
    assert result["before"]["steps"] == ["Initial"] and result["before"]["loads"] == []
    assert result["after"]["steps"] == ["Initial", "Push"]
    assert result["after"]["loads"] == ["P1", "F1"]
    assert result["after"]["boundary_conditions"] == ["Clamp", "Pull"]
    saved = json.loads(out.read_text())
    model = saved["models"][0]
    assert [s["name"] for s in model["steps"]][-1] == "Push"
    run_dir = tmp_path / "runs" / result["run_id"]
    audit = json.loads((run_dir / "load_audit.json").read_text())
    assert set(audit["loads"]) == {"P1", "F1"} and audit["fixed_and_displaced"] == []


@pytest.mark.parametrize(("bad", "words"), [
    (step("pressure", ALL, mode="load", name="P1", step="Initial", magnitude=1),
     "loads cannot be created in the Initial step; legal steps: none yet"),
    (step("pressure", labels(3), mode="load", name="P1", step="Initial", magnitude=1),
     "loads cannot be created in the Initial step"),
    (step("fix", {"by": "shape", "shape": "QUAD"}, mode="load", name="B"),
     "a boundary condition acts on nodes, and a shape picks elements; legal selections"),
    (step("fix", {"by": "set", "name": "NOPE"}, mode="load", name="B"),
     "unknown set 'NOPE'; existing sets: none"),
    (step("fix", ALL, mode="load", name="B", step="Later"),
     "unknown step 'Later'; legal steps: Initial"),
])
def test_a_rule_of_the_mode_is_refused_naming_the_legal_set(tmp_path, capsys, monkeypatch,
                                                            bad, words):
    run, out = _run(tmp_path, capsys, monkeypatch, answer(bad, summary="A load."))
    assert run.code != 0 and not out.exists()
    assert words in run.out + run.err


def _with_loads(path):
    """A workspace that holds a step, a set, a pressure and a condition before the run."""
    import sam

    new_workspace(path, quads=2)
    sam.openMdb(str(path))
    model = sam.mdb.models["Model-1"]
    part = model.parts["Plate"]
    part.Set(name="S0", elements=part.elements.sequenceFromLabels([1]))
    part.Set(name="N0", nodes=part.nodes.sequenceFromLabels([1, 4]))
    model.StaticStep(name="Pre", previous="Initial")
    model.Pressure(name="P0", createStepName="Pre", region=part.sets["S0"], magnitude=3.0)
    model.EncastreBC(name="B0", createStepName="Initial", region=part.sets["N0"])
    sam.mdb.saveAs(str(path))
    return path


def _loads_of(model):
    from sam_plugin.samops.load_cover import capture

    return capture(model), sorted(model.parts["Plate"].sets.keys())


def test_a_failed_run_puts_steps_loads_conditions_and_sets_back(tmp_path, capsys,
                                                                monkeypatch):
    import sam

    from sam_plugin.samops import load_ops

    workspace = _with_loads(tmp_path / "w.sam.json")
    sam.openMdb(str(workspace))
    before = _loads_of(sam.mdb.models["Model-1"])
    made = load_ops.apply_conditions

    def half_then_fail(model, part, conditions):
        made(model, part, conditions[:1])
        raise RuntimeError("the host failed half-way")

    monkeypatch.setattr(load_ops, "apply_conditions", half_then_fail)
    monkeypatch.setenv("SAM_AGENT_CALLS", "spec")
    spec_file = tmp_path / "spec.json"
    spec_file.write_text(LOAD_SPEC)
    args = base_args(workspace, tmp_path / "runs", mode="load") + [
        "--spec", str(spec_file), "--json", "--yes"]
    run = run_cli(args, capsys)
    assert run.code == 1
    assert run.result["status"] == "failed" and run.result["restored"] is True
    assert _loads_of(sam.mdb.models["Model-1"]) == before
    assert "Push" not in sam.mdb.models["Model-1"].steps.keys()


def test_undo_puts_steps_loads_conditions_and_sets_back(tmp_path, capsys, monkeypatch):
    import sam

    workspace = _with_loads(tmp_path / "w.sam.json")
    sam.openMdb(str(workspace))
    before = _loads_of(sam.mdb.models["Model-1"])
    monkeypatch.setenv("SAM_AGENT_CALLS", "spec")
    spec_file = tmp_path / "spec.json"
    spec_file.write_text(LOAD_SPEC)
    out = tmp_path / "out.sam.json"
    args = base_args(workspace, tmp_path / "runs", mode="load") + [
        "--spec", str(spec_file), "--json", "--yes", "--save", str(out)]
    run = run_cli(args, capsys)
    assert run.code == 0, run.out + run.err
    assert run.result["undoable"] is True
    undone = tmp_path / "undone.sam.json"
    back = run_cli(["undo", run.result["run_id"], "--workspace", str(out), "--save",
                    str(undone), "--runs-dir", str(tmp_path / "runs")], capsys)
    assert back.code == 0, back.out + back.err
    sam.openMdb(str(undone))
    assert _loads_of(sam.mdb.models["Model-1"]) == before


def _adds_a_material(model, part):
    model.Material(name="Extra")


def _moves_a_node(model, part):
    part.editNode(nodes=[part.nodes.getFromLabel(1)], coordinates=[(0.0, 0.0, 1.0)])


@pytest.mark.parametrize(("change", "check"), [(_adds_a_material, "properties unchanged"),
                                               (_moves_a_node, "geometry unchanged")])
def test_a_load_run_that_changes_geometry_or_properties_fails_and_is_restored(
        tmp_path, capsys, monkeypatch, change, check):
    import sam

    from sam_plugin.samops import load_ops

    applied = load_ops.apply_loads

    def and_more(model, part, loads):
        change(model, part)
        return applied(model, part, loads)

    monkeypatch.setattr(load_ops, "apply_loads", and_more)
    run, out = _run(tmp_path, capsys, monkeypatch, LOAD_SPEC)
    assert run.code == 1 and not out.exists()
    result = run.result
    assert result["status"] == "failed" and result["restored"] is True
    failed = [c["name"] for c in result["checks"] if not c["ok"]]
    assert check in failed
    model = sam.mdb.models["Model-1"]
    assert "Extra" not in model.materials.keys() and list(model.loads.keys()) == []
