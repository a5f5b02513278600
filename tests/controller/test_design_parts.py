"""The design asked in parts (docs/architecture.md §4 "The design, asked in parts"): first the
actions, each with the request words it answers, or one refusal category; then each action's
values under its own grammar; a step that does not read, compute or compile asked again once
(at most 2 in a run); a whole spec answered to any request taken as the spec; the request's own
words naming what the mode does not do, a Review warning."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from controller_fakes import TARGET, ScriptedProvider, design, policy, settings

from sam_plugin.runtime.host_gateway import HostGateway
from sam_plugin.runtime.run.controller import RunController
from sam_plugin.runtime.run.phases import Phase
from tests.support.pipeline import fresh_database
from tests.support.plates import quad_plate
from tests.support.specs import answer, named_set, step

fresh_sam = pytest.fixture(fresh_database)


def actions(*pairs: tuple[str, str]) -> Any:
    return design(json.dumps({"actions": [{"action": a, "words": w} for a, w in pairs]},
                             separators=(",", ":")))


def values(scope: dict[str, Any] | None = None, **given: Any) -> Any:
    answered: dict[str, Any] = {"values": given}
    if scope is not None:
        answered = {"scope": scope, **answered}
    return design(json.dumps(answered, separators=(",", ":")))


def make(sam: Any, tmp_path: Path, *answers: Any, profile: str = "openai",
         language: str = "en") -> tuple[RunController, ScriptedProvider]:
    provider = ScriptedProvider(*answers)
    controller = RunController(runs_dir=tmp_path / "runs", settings=settings(profile=profile),
                               policy=policy(calls="spec", design="parts"),
                               host=HostGateway(sam), provider_factory=provider.factory,
                               language=language)
    return controller, provider


@pytest.fixture
def plate(fresh_sam: Any) -> Any:
    part = quad_plate(fresh_sam.mdb.models["Model-1"], "Plate", 2)
    part.Set(name="S1", elements=part.elements.sequenceFromLabels([1, 2]))
    return part


def events(controller: RunController) -> list[dict[str, Any]]:
    assert controller.run_id is not None
    path = controller.runs_dir / controller.run_id / "events.jsonl"
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def result_json(controller: RunController) -> dict[str, Any]:
    assert controller.run_id is not None
    path = controller.runs_dir / controller.run_id / "result.json"
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def test_the_actions_then_each_actions_values_make_the_one_spec(fresh_sam, plate, tmp_path):
    controller, provider = make(
        fresh_sam, tmp_path,
        actions(("translate", "shift set S1 by 5 in x"), ("delete_free_nodes", "tidy up")),
        values(named_set("S1"), vector=[5, 0, 0]))
    request = "Shift set S1 by 5 in x, then tidy up the stray nodes."
    assert asyncio.run(controller.submit(request, "part", TARGET)) == Phase.REVIEW
    spec = controller.spec
    assert spec is not None
    assert [(s.action, s.values, s.text) for s in spec.steps] == [
        ("translate", {"vector": [5.0, 0.0, 0.0]}, "shift set S1 by 5 in x"),
        ("delete_free_nodes", {}, "tidy up")]
    # the actions, then translate's values; deleting free nodes has nothing to ask
    assert len(provider.requests) == 2
    assert all(r.tools is None for r in provider.requests)  # no tools in design (I1)
    first, second = provider.requests
    assert request in first.messages[-1]["content"]
    assert "delete_free_nodes: remove free, stray or unused nodes" in first.messages[0]["content"]
    assert "Now step 1 of 2: translate" in second.messages[-1]["content"]
    received = [e for e in events(controller) if e["event"] == "design_received"]
    assert received[-1]["requests"] == 2 and "repaired" not in received[-1]
    assert asyncio.run(controller.confirm("part", TARGET)).status == "verified"


def test_a_category_ends_the_run_at_design_naming_it_and_the_mode_that_does_it(
        fresh_sam, plate, tmp_path):
    controller, provider = make(fresh_sam, tmp_path, design(
        '{"cannot":"boundary_condition","words":"fix the left edge"}'))
    assert asyncio.run(controller.submit("Fix the left edge.", "part", TARGET)) == Phase.FAILED
    error = result_json(controller)["error"]
    assert error["layer"] == "design" and error["category"] == "boundary_condition"
    assert error["message"] == (
        "this asks for a boundary condition, which the Part mode does not do; the Load mode "
        "does that: pick it and submit again. Nothing was run. The model quoted: “fix the "
        "left edge”.")
    assert error["part"] == "unchanged" and len(provider.requests) == 1
    assert plate.nodes.__len__() == 9  # nothing ran


def test_the_refusal_answer_stays_valid_as_the_category_other(fresh_sam, plate, tmp_path):
    controller, _ = make(fresh_sam, tmp_path, design('{"refuse": "not a mesh edit"}'))
    assert asyncio.run(controller.submit("Make it nicer.", "part", TARGET)) == Phase.FAILED
    error = result_json(controller)["error"]
    assert error["category"] == "other" and "“not a mesh edit”" in error["message"]


def test_the_requests_own_words_refuse_before_any_request_by_their_category(
        fresh_sam, plate, tmp_path):
    controller, provider = make(fresh_sam, tmp_path, actions(("translate", "put pressure")))
    assert asyncio.run(controller.submit("Put 2 MPa of pressure on the top face.", "part",
                                         TARGET)) == Phase.FAILED
    error = result_json(controller)["error"]
    assert (error["layer"], error["category"], error["part"]) == ("design", "load", "unchanged")
    assert error["message"] == (
        "the request says “Put 2 MPa of pressure”: this asks for a load, which the Part mode "
        "does not do; the Load mode does that: pick it and submit again. Nothing was run.")
    assert provider.requests == []  # no model was asked


def test_a_category_beside_planned_actions_is_no_refusal(fresh_sam, plate, tmp_path):
    controller, _ = make(fresh_sam, tmp_path, design(json.dumps(
        {"cannot": "job", "actions": [{"action": "rotate", "words": "rot 90 deg about Z"}]})),
        values({"by": "all"}, angle_deg=90, axis=[0, 0, 1]))
    assert asyncio.run(controller.submit("rot 90 deg about Z", "part", TARGET)) == Phase.REVIEW
    assert controller.spec is not None and controller.spec.steps[0].action == "rotate"


def test_a_value_of_the_wrong_kind_is_asked_again_naming_it(fresh_sam, plate, tmp_path):
    controller, provider = make(
        fresh_sam, tmp_path, actions(("rotate", "rot 90 deg about Z")),
        values({"by": "all"}, angle_deg=90, axis="Z"),
        values({"by": "all"}, angle_deg=90, axis=[0, 0, 1]))
    assert asyncio.run(controller.submit("rot 90 deg about Z", "part", TARGET)) == Phase.REVIEW
    assert controller.spec is not None and controller.spec.steps[0].values["axis"] == [0, 0, 1]
    assert "axis" in provider.requests[2].messages[-1]["content"]


def test_a_category_with_no_action_planned_ends_the_run_by_the_models_category(
        fresh_sam, plate, tmp_path):
    controller, _ = make(fresh_sam, tmp_path, design('{"cannot":"other","actions":[]}'))
    assert asyncio.run(controller.submit("Make it nicer.", "part", TARGET)) == Phase.FAILED
    assert result_json(controller)["error"]["category"] == "other"


def test_a_whole_spec_answered_to_the_first_request_is_the_spec(fresh_sam, plate, tmp_path):
    whole = answer(step("translate", named_set("S1"), vector=[5, 0, 0]),
                   summary="Translate set S1 by (5, 0, 0).")
    controller, provider = make(fresh_sam, tmp_path, design(whole))
    assert asyncio.run(controller.submit("Translate set S1 by (5, 0, 0).", "part",
                                         TARGET)) == Phase.REVIEW
    assert len(provider.requests) == 1
    assert controller.spec is not None and controller.spec.summary == (
        "Translate set S1 by (5, 0, 0).")


def test_a_step_that_names_what_the_part_lacks_is_asked_again_once_with_the_diagnostic(
        fresh_sam, plate, tmp_path):
    controller, provider = make(
        fresh_sam, tmp_path, actions(("translate", "move set S1 by 5")),
        values(named_set("S9"), vector=[5, 0, 0]), values(named_set("S1"), vector=[5, 0, 0]))
    assert asyncio.run(controller.submit("Move set S1 by 5 in x.", "part",
                                         TARGET)) == Phase.REVIEW
    assert controller.spec is not None
    assert controller.spec.steps[0].scope is not None
    assert controller.spec.steps[0].scope.model_dump()["name"] == "S1"
    repair = provider.requests[2].messages[-1]["content"]
    assert "scope.name: the part has no set 'S9'; sets: S1" in repair
    repaired = controller.design_repairs
    assert [(r.step, r.action) for r in repaired] == [(1, "translate")]
    assert repaired[0].words() == ("step 1 (translate) was asked again once, because: "
                                   "scope.name: the part has no set 'S9'; sets: S1")
    asked = [e for e in events(controller) if e["event"] == "repair_requested"]
    assert [(e["stage"], e["step"], e["layer"]) for e in asked] == [("design", 1, "design")]


def test_a_step_that_does_not_compile_is_asked_again_in_the_compilers_words(
        fresh_sam, plate, tmp_path):
    controller, provider = make(
        fresh_sam, tmp_path, actions(("move_nodes", "move node 5 up")),
        values(labels=[99], to=[[1, 1, 2]]), values(labels=[5], to=[[1, 1, 2]]))
    assert asyncio.run(controller.submit("Move node 5 to (1, 1, 2).", "part",
                                         TARGET)) == Phase.REVIEW
    assert controller.spec is not None and controller.spec.steps[0].values["labels"] == [5]
    reason = controller.design_repairs[0].reason
    assert reason.startswith("step 1 (move nodes 99 to (1, 1, 2)): ") and "99" in reason
    assert reason in provider.requests[2].messages[-1]["content"]


def test_no_more_than_two_repairs_in_a_run(fresh_sam, plate, tmp_path):
    bad = values(named_set("S9"), vector=[1, 0, 0])
    controller, provider = make(
        fresh_sam, tmp_path,
        actions(("translate", "a"), ("translate", "b"), ("translate", "c")),
        bad, bad, bad, bad, bad)
    phase = asyncio.run(controller.submit("Move S1 three times.", "part", TARGET))
    assert len(controller.design_repairs) == 2
    assert len(provider.requests) == 1 + 3 + 2  # the third step was not asked again
    # the third step stands as the model wrote it: Review says where it disagrees with the part
    assert phase == Phase.REVIEW
    assert any("S9" in w for w in controller.review_warnings)


def test_a_copied_example_is_refused_and_asked_again(fresh_sam, plate, tmp_path):
    from sam_plugin.compilers import registry
    from sam_plugin.compilers.spec import parts

    vocabulary = registry.get_module("part").vocabulary
    action = vocabulary.action("translate")
    assert action is not None
    facts = parts.StepFacts(extent=(2.0, 2.0, 0.0))
    example = parts.example_answer(action, facts)
    assert example["values"]["vector"] == [0.74, 0.0, 0.0]  # of this part's size
    controller, provider = make(fresh_sam, tmp_path, actions(("translate", "move it")),
                                design(json.dumps({"scope": {"by": "set", "name": "S1"},
                                                   "values": {"vector": [0.74, 0.0, 0.0]}})),
                                values(named_set("S1"), vector=[3, 0, 0]))
    assert asyncio.run(controller.submit("Move set S1 by 3 in x.", "part",
                                         TARGET)) == Phase.REVIEW
    assert "the example's answer" in controller.design_repairs[0].reason
    assert '"vector":[0.74,0.0,0.0]' in provider.requests[1].messages[-1]["content"]


@pytest.mark.parametrize(("request_text", "said"), [
    ("Shift set S1 by 5 in x and apply a pressure of 3 on it.", "“pressure”"),
    ("将集合 S1 沿 X 平移 5，并在底边施加固定约束。", "“固定约束”"),
])
def test_the_requests_own_words_beside_the_model_are_a_review_warning(
        fresh_sam, plate, tmp_path, request_text, said):
    controller, _ = make(fresh_sam, tmp_path, actions(("translate", "S1 by 5")),
                         values(named_set("S1"), vector=[5, 0, 0]))
    assert asyncio.run(controller.submit(request_text, "part", TARGET)) == Phase.REVIEW
    warned = [w for w in controller.review_warnings if said in w]
    assert len(warned) == 1 and "the Load mode does that" in warned[0]


def test_the_words_alone_never_refuse(fresh_sam, plate, tmp_path):
    controller, _ = make(fresh_sam, tmp_path, actions(("merge_nodes", "fix the duplicate nodes")),
                         values(tolerance=0.001))
    assert asyncio.run(controller.submit("Fix the duplicate nodes within 0.001.", "part",
                                         TARGET)) == Phase.REVIEW
    assert controller.review_warnings == []


def test_each_request_is_held_to_its_own_grammar_where_the_profile_takes_one(
        fresh_sam, plate, tmp_path):
    controller, provider = make(fresh_sam, tmp_path, actions(("translate", "move S1")),
                                values(named_set("S1"), vector=[5, 0, 0]), profile="llamacpp")
    assert asyncio.run(controller.submit("Move set S1 by 5 in x.", "part",
                                         TARGET)) == Phase.REVIEW
    first = provider.requests[0].options.response_format["json_schema"]["schema"]
    assert first["required"] == ["cannot", "actions"]  # "cannot" first: "none" plans
    assert first["properties"]["cannot"]["enum"][0] == "none"
    assert "geometry" not in first["properties"]["cannot"]["enum"]  # Part mode's own
    second = provider.requests[1].options.response_format["json_schema"]["schema"]
    assert second["required"] == ["scope", "values"]
    sets = [v for v in second["properties"]["scope"]["anyOf"]
            if v["properties"]["by"].get("const") == "set"]
    assert sets[0]["properties"]["name"]["enum"] == ["S1"]


def test_the_first_question_offers_only_the_actions_the_target_allows(
        fresh_sam, plate, tmp_path):
    # recorded: the 0.5B planned "build" on parts that have nodes, and "add_elements" on
    # parts that have none; each run then ended at design
    controller, provider = make(fresh_sam, tmp_path, actions(("translate", "move S1")),
                                values(named_set("S1"), vector=[5, 0, 0]), profile="llamacpp")
    assert asyncio.run(controller.submit("Move set S1 by 5 in x.", "part",
                                         TARGET)) == Phase.REVIEW
    first = provider.requests[0].options.response_format["json_schema"]["schema"]
    offered = first["properties"]["actions"]["items"]["properties"]["action"]["enum"]
    assert "build" not in offered and {"translate", "move_nodes", "audit"} <= set(offered)


def test_an_empty_target_is_offered_a_build_and_an_audit_only(fresh_sam, tmp_path):
    from sam_plugin.compilers.protocol import Target

    controller, provider = make(fresh_sam, tmp_path, actions(("build", "a 10 x 10 plate")),
                                values(shape="QUAD", size=[10, 10], divisions=[1, 1]),
                                profile="llamacpp")
    asyncio.run(controller.submit("A 10 x 10 plate, one QUAD.", "part",
                                  Target(model_name="Model-1", part_name="Fresh")))
    first = provider.requests[0].options.response_format["json_schema"]["schema"]
    offered = first["properties"]["actions"]["items"]["properties"]["action"]["enum"]
    assert offered == ["build", "audit"]


def test_a_panel_in_the_xz_plane_is_built_in_the_xz_plane(fresh_sam, tmp_path):
    from sam_plugin.compilers.protocol import Target

    panel = Target(model_name="Model-1", part_name="Panel")
    controller, _ = make(fresh_sam, tmp_path, actions(("build", "a square panel in XZ")),
                         values(shape="QUAD", size=[2, 2], divisions=[2, 2], plane="XZ"))
    assert asyncio.run(controller.submit("A 2 x 2 panel in the XZ plane, 2 x 2 QUADs.",
                                         "part", panel)) == Phase.REVIEW
    assert "in the XZ plane" in controller.spec_text
    assert asyncio.run(controller.confirm("part", panel)).status == "verified"
    part = fresh_sam.mdb.models["Model-1"].parts["Panel"]
    points = [node.coordinates for node in part.nodes]
    assert {p[1] for p in points} == {0.0} and max(p[2] for p in points) == 2.0


def test_a_count_of_copies_is_asked_as_the_new_copies(fresh_sam, plate, tmp_path):
    controller, provider = make(fresh_sam, tmp_path,
                                actions(("linear_array", "copy it 3 more times, 10 apart")),
                                values({"by": "all"}, copies=3, vector=[10, 0, 0]),
                                profile="llamacpp")
    assert asyncio.run(controller.submit("Copy it 3 more times, 10 apart in x.", "part",
                                         TARGET)) == Phase.REVIEW
    assert controller.spec is not None and controller.spec.steps[0].values["count"] == 4
    question = provider.requests[1]
    assert "- copies*: the new copies, the original not counted" in (
        question.messages[-1]["content"])
    held = question.options.response_format["json_schema"]["schema"]["properties"]["values"]
    assert held["properties"]["copies"]["minimum"] == 1 and "count" not in held["properties"]
    assert asyncio.run(controller.confirm("part", TARGET)).status == "verified"
    assert len(plate.elements) == 16


def test_steps_that_make_no_spec_of_the_mode_end_the_run_at_design_saying_why(
        fresh_sam, plate, tmp_path):
    controller, _ = make(fresh_sam, tmp_path, actions(("build", "a plate")),
                         values(shape="QUAD", size=[2, 2], divisions=[2, 2], plane="XY"))
    assert asyncio.run(controller.submit("Build a 2 x 2 plate of 2 x 2 QUADs.", "part",
                                         TARGET)) == Phase.FAILED
    error = result_json(controller)["error"]
    assert error["layer"] == "design" and "category" not in error
    assert error["message"].startswith(
        "the steps the model wrote make no spec of this mode (steps: Plate already has 9 "
        "nodes: ask to edit it, or pick a new part name")


def test_a_unit_in_the_request_is_converted_by_the_product_in_the_values_question(
        fresh_sam, plate, tmp_path):
    controller, provider = make(
        fresh_sam, tmp_path,
        actions(("define_material", "Aluminium at 70 GPa, nu 0.33")),
        values(name="Alu", E=70000, nu=0.33))
    request = "Aluminium at 70 GPa with a Poisson's ratio of 0.33."
    assert asyncio.run(controller.submit(request, "property", TARGET)) == Phase.REVIEW
    asked = provider.requests[1].messages[-1]["content"]
    assert ("The request's quantities in this model's units (write these numbers): "
            "70 GPa = 70000 MPa in this model.") in asked
    # the first question is the request alone: the values questions carry the conversion
    assert "70000" not in provider.requests[0].messages[-1]["content"]
    assert controller.spec is not None and controller.spec.steps[0].values["E"] == 70000


def test_a_count_said_another_way_is_stated_in_the_modes_values_by_the_product(
        fresh_sam, plate, tmp_path):
    controller, provider = make(fresh_sam, tmp_path, actions(("refine", "2x finer")),
                                values({"by": "all"}, levels=1))
    assert asyncio.run(controller.submit("Make everything 2x finer.", "mesh",
                                         TARGET)) == Phase.REVIEW
    said = ("The request's counts in this mode's values (write these numbers): "
            "“2x finer” = levels 1 (each level halves the element size).")
    assert said in provider.requests[1].messages[-1]["content"]
    assert said not in provider.requests[0].messages[-1]["content"]
    assert controller.spec is not None and controller.spec.steps[0].values["levels"] == 1
    assert asyncio.run(controller.confirm("mesh", TARGET)).status == "verified"
    assert len(plate.elements) == 16


def test_the_design_asked_whole_is_told_the_counts_too(fresh_sam, plate, tmp_path):
    provider = ScriptedProvider(design(json.dumps({"summary": "refine", "steps": [step(
        "refine", {"by": "all"}, mode="mesh", levels=3)]})))
    controller = RunController(runs_dir=tmp_path / "runs", settings=settings(),
                               policy=policy(calls="spec", design="whole"),
                               host=HostGateway(fresh_sam), provider_factory=provider.factory)
    assert asyncio.run(controller.submit("Split each quad into sixty-four.", "mesh",
                                         TARGET)) == Phase.REVIEW
    assert ("“into sixty-four” = levels 3 for QUAD or TRI elements."
            in provider.requests[0].messages[-1]["content"])
    # the product stated the 3: Review does not ask where it came from
    assert controller.review_warnings == []


def test_a_shell_section_where_the_request_names_a_beam_profile_is_asked_again_as_a_beam(
        fresh_sam, tmp_path):
    """The design asked in parts checks the assembled steps as the whole design does: a
    shell section for "a pipe section" is asked again, held to the beam kind."""
    from samConstants import BEAM

    model = fresh_sam.mdb.models["Model-1"]
    model.Material(name="Steel").Elastic(table=((210000.0, 0.3),))
    tube = model.Part(name="Plate")
    nodes = [tube.Node(coordinates=(0.0, 0.0, float(z))) for z in (0, 100, 200)]
    for a, b in zip(nodes, nodes[1:], strict=False):
        tube.Element(nodes=(a, b), elemShape=BEAM)
    controller, provider = make(
        fresh_sam, tmp_path, actions(("define_section", "a tube P60 of Steel")),
        values(name="P60", kind="shell", material="Steel", thickness=4),
        values(name="P60", kind="beam", material="Steel",
               profile={"shape": "pipe", "r": 30, "t": 4}), profile="llamacpp")
    assert asyncio.run(controller.submit("A tube P60 of Steel: radius 30, wall 4.", "property",
                                         TARGET)) == Phase.REVIEW
    repair = provider.requests[2]
    assert ("the request says “tube”, a beam profile (pipe), and step 1 (define the shell "
            "section P60 of material Steel, thickness 4) defines a shell section: define P60 "
            "as a beam section (kind beam) with a pipe profile (r: the outer radius, half the "
            "outer diameter; t: the wall thickness), not a shell thickness"
            ) in repair.messages[-1]["content"]
    grammar = repair.options.response_format["json_schema"]["schema"]
    assert '"shell"' not in json.dumps(grammar) and '"beam"' in json.dumps(grammar)
    assert controller.spec is not None
    assert controller.spec.steps[0].values["profile"] == {"shape": "pipe", "r": 30.0, "t": 4.0}
    assert [(r.step, r.action) for r in controller.design_repairs] == [(1, "define_section")]
