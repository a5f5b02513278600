"""The Load mode's rules (docs/architecture.md §4 "Load mode rules"), each refused at compile
naming the legal set, tried against a live stub model: a load in Initial, an unknown step or
set, a pressure on nodes, a force or condition on elements, a pressure on BEAM elements, a
name taken; and the words that send a Part request for a load to the Load mode."""

from __future__ import annotations

import dataclasses

import pytest

from sam_plugin.compilers import registry
from sam_plugin.compilers.evidence import Prediction
from sam_plugin.compilers.protocol import CompileContext, Target
from sam_plugin.compilers.spec.refusal_words import refusal_sentence
from sam_plugin.errors import CompileError
from sam_plugin.runtime.host_gateway import HostGateway
from tests.support.pipeline import fresh_database
from tests.support.plates import quad_plate

LOAD = registry.get_module("load")
TARGET = Target(model_name="Model-1", part_name="Plate")


@pytest.fixture
def ctx():
    for sam in fresh_database():
        model = sam.mdb.models["Model-1"]
        part = quad_plate(model, "Plate", 2)  # nodes 1-9, QUADs 1-4
        part.Set(name="ELEMS", elements=part.elements.sequenceFromLabels([1, 2]))
        part.Set(name="NODES", nodes=part.nodes.sequenceFromLabels([1, 2]))
        from samConstants import BEAM

        part.Element(nodes=(part.nodes.getFromLabel(1), part.nodes.getFromLabel(2)),
                     elemShape=BEAM)  # element 5
        model.StaticStep(name="Push", previous="Initial")
        model.Pressure(name="P0", createStepName="Push", region=part.sets["ELEMS"],
                       magnitude=1.0)
        readback = HostGateway(sam).readback(TARGET)
        yield CompileContext(request_text="", target=TARGET,
                             state=Prediction.from_readback(readback), model=model, part=part)


def _refused(tool, arguments, ctx) -> str:
    with pytest.raises(CompileError) as refused:
        LOAD.compile(tool, arguments, ctx)
    return str(refused.value)


def _pressure(selection, step="Push", name="P1"):
    return {"loads": [{"name": name, "kind": "pressure", "step": step, "magnitude": 2.0,
                       "selection": selection}]}


def _force(selection, step="Push"):
    return {"loads": [{"name": "F1", "kind": "force", "step": step, "vector": [1, 0, 0],
                       "selection": selection}]}


def _fix(selection, step="Initial"):
    return {"conditions": [{"name": "B1", "kind": "fix", "step": step, "selection": selection}]}


@pytest.mark.parametrize(("tool", "arguments", "words"), [
    ("apply_load", _pressure({"by": "all"}, step="Initial"),
     "loads[0].step: loads cannot be created in the Initial step; legal steps: Push"),
    ("apply_load", _pressure({"by": "all"}, step="Later"),
     "loads[0].step: unknown step 'Later'; legal steps: Push"),
    ("apply_boundary", _fix({"by": "all"}, step="Later"),
     "conditions[0].step: unknown step 'Later'; legal steps: Initial, Push"),
    ("apply_load", _pressure({"by": "set", "name": "NOPE"}),
     "loads[0].selection.name: unknown set 'NOPE'; existing sets: ELEMS, NODES"),
    ("apply_load", _pressure({"by": "set", "name": "NODES"}),
     "a pressure acts on elements; set 'NODES' holds no elements; sets that hold elements: "
     "ELEMS"),
    ("apply_load", _force({"by": "set", "name": "ELEMS"}),
     "a force acts on nodes; set 'ELEMS' holds no nodes; sets that hold nodes: NODES"),
    ("apply_load", _force({"by": "shape", "shape": "QUAD"}),
     "a force acts on nodes, and a shape picks elements; legal selections: node labels, a set "
     "that holds nodes, a box, all"),
    ("apply_boundary", _fix({"by": "shape", "shape": "QUAD"}),
     "a boundary condition acts on nodes, and a shape picks elements"),
    ("apply_load", _pressure({"by": "labels", "labels": [9]}),
     "loads[0].selection.labels: unknown element label(s) 9"),
    ("apply_load", _pressure({"by": "labels", "labels": [4, 5]}),
     "a pressure acts on QUAD and TRI faces only; the selection holds BEAM element(s) 5; "
     "legal shapes: QUAD, TRI"),
    ("apply_load", _pressure({"by": "all"}, name="P0"),
     "loads[0].name: the load 'P0' already exists; existing loads: P0; choose a new name"),
    ("define_step", {"steps": [{"name": "Hold"}, {"name": "Push", "previous": "Hold"}]},
     "steps[1].previous: the step 'Push' already exists after 'Initial', not after 'Hold'; "
     "leave previous out or name 'Initial' to use it as it is, or choose a new name"),
    ("define_step", {"steps": [{"name": "Push"}, {"name": "Push"}]},
     "steps[1].name: the step 'Push' already exists; existing steps: Initial, Push"),
    ("define_step", {"steps": [{"name": "Initial"}]},
     "steps[0].name: the step 'Initial' already exists; existing steps: Initial, Push"),
    ("define_step", {"steps": [{"name": "Two", "previous": "One"}]},
     "steps[0].previous: unknown step 'One'; legal steps: Initial, Push"),
])
def test_each_rule_is_refused_naming_the_legal_set(ctx, tool, arguments, words):
    assert words in _refused(tool, arguments, ctx)


@pytest.mark.parametrize("step", [{"name": "Push"}, {"name": "Push", "previous": "Initial"}])
def test_a_step_the_model_has_after_the_same_step_is_used_as_it_is(ctx, step):
    """Not defined again (a run repeated on another part of the model finds its source's
    steps): the script makes no step, the plan says so, later calls act in it."""
    from sam_plugin.words.phrase import render

    fragment = LOAD.compile("define_step", {"steps": [step, {"name": "Hold"}]}, ctx)
    assert "_load_ops.define_steps(_model, [{'name': 'Hold', 'previous': 'Push'}])" in (
        fragment.mutation)
    assert fragment.notes == ["the model has the step Push after Initial already: the run "
                              "uses it and does not define it again"]
    detail = LOAD.describe([fragment], ctx)
    assert [render(op.words()) for op in detail.calls[0].operations] == [
        "use the static step Push after Initial as it is (it exists already)",
        "define the static step Hold after Push"]
    assert [render(p, "zh_CN") for p in detail.calls[0].note_phrases] == [
        "说明：模型中已有分析步 Push（接在 Initial 之后）：本次运行沿用它，不再重新定义"]
    later = CompileContext(request_text="", target=TARGET, state=fragment.evidence,
                           model=ctx.model, part=ctx.part, prior_fragments=(fragment,))
    LOAD.compile("apply_load", _pressure({"by": "shape", "shape": "QUAD"}, step="Hold"), later)


def test_a_load_in_initial_before_any_step_says_to_define_one(ctx):
    del ctx.model.loads["P0"]
    del ctx.model.steps["Push"]
    assert "legal steps: none yet (define a step first: define_step)" in _refused(
        "apply_load", _pressure({"by": "all"}, step="Initial"), ctx)


def test_a_step_an_earlier_call_defines_is_known(ctx):
    step = LOAD.compile("define_step", {"steps": [{"name": "Later"}]}, ctx)
    later = CompileContext(request_text="", target=TARGET, state=step.evidence,
                           model=ctx.model, part=ctx.part, prior_fragments=(step,))
    fragment = LOAD.compile("apply_load", _pressure({"by": "shape", "shape": "QUAD"},
                                                    step="Later"), later)
    assert "LOAD-P1" in fragment.evidence.sets_present and fragment.evidence.geometry_unchanged


def test_a_part_request_for_a_load_points_to_the_load_mode():
    assert "load" in registry.MODES
    assert refusal_sentence("boundary_condition", "part") == (
        "this asks for a boundary condition, which the Part mode does not do; the Load mode "
        "does that: pick it and submit again. Nothing was run.")
    assert "请在 Load 模式中完成" in refusal_sentence("load", "mesh", "zh")


def _zero_force(step="Push"):
    return {"loads": [{"name": "ROOT", "kind": "force", "step": step, "vector": [0, 0, 0],
                       "selection": {"by": "labels", "labels": [1, 2]}}]}


@pytest.mark.parametrize("request_text", [
    "Hold the nodes along y = 0 so they can't move, name it BASE.",
    "把下边的节点全部固定住",
])
def test_a_zero_force_where_the_words_ask_for_a_support_is_told_the_boundary_actions(
        ctx, request_text):
    """"Clamp the bottom edge y = 0 completely" and "把左边的节点约束住" came as forces of
    (0, 0, 0): the second compiled, ran and held nothing."""
    ctx = _with_request(ctx, request_text)
    with pytest.raises(CompileError) as refused:
        LOAD.compile("apply_load", _zero_force(step="Later"), ctx)
    first = refused.value.diagnostics[0]  # before the step: the action itself is wrong
    assert str(first).startswith("loads[0]: the force (0, 0, 0) is zero: it loads "
                                 "nothing, and the request says “")
    assert str(first).endswith("a support is a boundary condition, not a load: write fix (the "
                               "dofs held at 0; all six when none is named) or displace (each "
                               "dof's value)")
    assert first.needs == ("action=fix", "action=displace")


def test_a_zero_force_the_words_give_no_support_for_is_asked_for_the_force(ctx):
    ctx = _with_request(ctx, "Push the corner node with 50 N downwards.")
    with pytest.raises(CompileError) as refused:
        LOAD.compile("apply_load", _zero_force(), ctx)
    assert [str(d) for d in refused.value.diagnostics] == [
        "loads[0]: the force (0, 0, 0) is zero: it loads nothing; write the force the "
        "request states on each node, [cf1, cf2, cf3]"]
    assert refused.value.diagnostics[0].needs == ()


def _with_request(ctx, request_text):
    return dataclasses.replace(ctx, request_text=request_text)
