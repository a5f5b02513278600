"""``calls: spec`` (docs/architecture.md §4 "Calls from the steps"): after Confirm the calls
are computed from the confirmed steps, and the design request is the run's only model
request. Computed calls take the path every call takes (schema, binding, compile, plan, one
execution, verification); a step that does not compute or compile is asked again once
before Review, naming the diagnostic; what still does not compile goes back to Review in the
step's words, with no repair round of calls."""

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
from tests.support.specs import answer, labels, named_set, step

fresh_sam = pytest.fixture(fresh_database)

REQUEST = "Translate set S1 by (5, 0, 0)."


def make(sam: Any, tmp_path: Path, *answers: Any, **policy_values: Any
         ) -> tuple[RunController, ScriptedProvider]:
    provider = ScriptedProvider(*answers)
    controller = RunController(runs_dir=tmp_path / "runs", settings=settings(),
                               policy=policy(calls="spec", **policy_values),
                               host=HostGateway(sam), provider_factory=provider.factory)
    return controller, provider


@pytest.fixture
def plate(fresh_sam: Any) -> Any:
    part = quad_plate(fresh_sam.mdb.models["Model-1"], "Plate", 2)
    part.Set(name="S1", elements=part.elements.sequenceFromLabels([1, 2]))
    return part


def run_dir(controller: RunController) -> Path:
    assert controller.run_id is not None
    return controller.runs_dir / controller.run_id


def test_the_confirmed_steps_are_the_program_and_the_model_is_asked_once(
        fresh_sam, plate, tmp_path):
    spec = answer(step("translate", named_set("S1"), vector=[5, 0, 0]),
                  summary="Translate set S1 by (5, 0, 0).")
    controller, provider = make(fresh_sam, tmp_path, design(spec), plan_wait="always")
    assert asyncio.run(controller.submit(REQUEST, "part", TARGET)) == Phase.REVIEW
    assert asyncio.run(controller.confirm("part", TARGET)) is None  # the plan waits
    assert len(provider.requests) == 1 and provider.requests[0].tools is None  # design only
    assert controller.plan is not None
    text = controller.plan.text()
    assert "1. transform_part (computed from step 1)" in text
    assert "step 1 ✓ translate set S1 by (5, 0, 0)" in text
    stored = json.loads((run_dir(controller) / "tool_calls.json").read_text())
    assert [(c["tool"], c["source"]) for c in stored] == [("transform_part", "spec")]
    plan = json.loads((run_dir(controller) / "plan.json").read_text())
    assert plan["calls"][0]["source"] == "spec"
    result = asyncio.run(controller.execute())
    assert result.status == "verified"
    moved = {n.label: tuple(n.coordinates) for n in plate.nodes}
    assert moved[1] == (5.0, 0.0, 0.0) and moved[9] == (2.0, 2.0, 0.0)  # S1 only


def test_a_step_that_states_too_little_returns_to_review_in_its_words(
        fresh_sam, plate, tmp_path):
    """The 0.5B's add_elements without coordinates: nothing to compute from, no round."""
    spec = answer(step("add_elements", count=1, shape="QUAD"))
    controller, provider = make(fresh_sam, tmp_path, design(spec), design(spec))
    asyncio.run(controller.submit("Add one QUAD element next to the plate.", "part", TARGET))
    result = asyncio.run(controller.confirm("part", TARGET))
    assert result is not None and result.status == "rejected"
    assert controller.phase == Phase.REVIEW  # the analyst may edit the spec, or cancel
    said = ("step 1 (add 1 QUAD elements) states no coordinates: give the elements by the "
            "coordinates of their nodes, or patches, or lines")
    assert result.error is not None and result.error.message == (
        "the calls cannot be computed from the spec: " + said)
    # the design was asked again once before Review, naming the diagnostic; the step
    # that still does not compute is not asked a second time
    assert len(provider.requests) == 2
    assert said in provider.requests[1].messages[-1]["content"]


def test_a_computed_call_that_does_not_compile_names_the_step_and_the_value(
        fresh_sam, plate, tmp_path):
    spec = answer(step("delete_elements", labels(99)))
    controller, provider = make(fresh_sam, tmp_path, design(spec), design(spec))
    asyncio.run(controller.submit("Delete element 99.", "part", TARGET))
    result = asyncio.run(controller.confirm("part", TARGET))
    assert result is not None and result.status == "rejected"
    assert result.error is not None
    said = ("step 1 (delete element 99): delete_elements.labels: unknown element label(s) 99; "
            "existing element labels: 1..4 (4 elements)")
    assert result.error.message == said
    assert len(provider.requests) == 2 and controller.phase == Phase.REVIEW
    assert provider.requests[1].messages[-1]["content"] == (
        "SAM Agent cannot use step 1 of this spec as it is:\n- " + said + "\n\nAnswer with "
        'step 1 written again as ONE step, ONE JSON object {"capability", "action", "scope" '
        '(only for actions that act on existing entities), "values"} and nothing else: change '
        "what this problem names. The other steps stay as they are.")


def test_a_step_that_does_not_compile_is_asked_again_and_review_says_why(
        fresh_sam, plate, tmp_path):
    """One repair before Review: the diagnostic goes back to the model, the repaired spec is
    the one the analyst reviews, and Review keeps which step was asked again and why."""
    wrong = answer(step("delete_elements", labels(99)))
    right = answer(step("delete_elements", labels(4)))
    controller, provider = make(fresh_sam, tmp_path, design(wrong), design(right))
    asyncio.run(controller.submit("Delete element 4.", "part", TARGET))
    assert controller.phase == Phase.REVIEW and "delete element 4" in controller.spec_text
    repairs = controller.design_repairs
    assert [(r.step, r.action) for r in repairs] == [(1, "delete_elements")]
    assert repairs[0].words().startswith(
        "step 1 (delete_elements) was asked again once, because: step 1 (delete element 99): ")
    result = asyncio.run(controller.confirm("part", TARGET))
    assert result is not None and result.status == "verified"
    assert len(provider.requests) == 2
    assert [e.label for e in plate.elements] == [1, 2, 3]


def test_a_spec_that_compiles_is_asked_once(fresh_sam, plate, tmp_path):
    controller, provider = make(fresh_sam, tmp_path,
                                design(answer(step("delete_elements", labels(4)))))
    asyncio.run(controller.submit("Delete element 4.", "part", TARGET))
    assert len(provider.requests) == 1 and not controller.design_repairs


def test_an_edited_spec_is_a_new_revision_and_plans_without_a_model(
        fresh_sam, plate, tmp_path):
    first = answer(step("translate", named_set("S1"), vector=[5, 0, 0]))
    controller, provider = make(fresh_sam, tmp_path, design(first), plan_wait="always")
    asyncio.run(controller.submit(REQUEST, "part", TARGET))
    edited = json.loads(first)
    edited["steps"][0]["values"]["vector"] = [0, 7, 0]
    assert controller.edit_spec(edited) == Phase.REVIEW
    assert "translate set S1 by (0, 7, 0)" in controller.spec_text
    assert [c.as_json()["path"] for c in controller.spec_changes] == [
        "steps[0].values.vector"]
    revisions = json.loads((run_dir(controller) / "revisions.json").read_text())
    assert revisions[-1]["author"] == "analyst" and revisions[-1]["version"] == 2
    asyncio.run(controller.confirm("part", TARGET))
    assert controller.plan is not None
    assert "step 1 ✓ translate set S1 by (0, 7, 0)" in controller.plan.text()
    assert len(provider.requests) == 1
    assert asyncio.run(controller.execute()).status == "verified"


def test_an_edit_that_is_not_a_spec_leaves_the_standing_one(fresh_sam, plate, tmp_path):
    from sam_plugin.errors import SpecRejected

    first = answer(step("translate", named_set("S1"), vector=[5, 0, 0]))
    controller, _ = make(fresh_sam, tmp_path, design(first))
    asyncio.run(controller.submit(REQUEST, "part", TARGET))
    before = controller.spec_text
    broken = json.loads(first)
    broken["steps"][0]["values"]["vector"] = [0, 7]
    with pytest.raises(SpecRejected) as refused:
        controller.edit_spec(broken)
    assert "steps[0].values.vector" in refused.value.problems[0]
    assert controller.spec_text == before and controller.phase == Phase.REVIEW


def test_a_given_spec_runs_with_no_provider_at_all(fresh_sam, plate, tmp_path):
    # by 0.5: a factor of 2 put node 4 on node 7, and the plan now warns of the collapsed
    # elements 3 and 4 (a warned plan waits for a person)
    spec = answer(step("scale", named_set("S1"), factor=0.5))
    controller, provider = make(fresh_sam, tmp_path, plan_wait="never")
    controller.settings = controller.settings.model_copy(update={"base_url": "", "model": ""})
    assert asyncio.run(controller.submit_spec(spec, "part", TARGET)) == Phase.REVIEW
    assert "scale set S1 by 0.5 about (0, 0, 0)" in controller.spec_text  # the default, stated
    result = asyncio.run(controller.confirm("part", TARGET))
    assert result is not None and result.status == "verified"
    assert provider.requests == []
    assert (run_dir(controller) / "request.txt").read_text() == "The change the analyst asked for."


def test_the_refusal_answer_ends_the_run_at_design_with_its_reason(fresh_sam, plate, tmp_path):
    refusal = json.dumps({"refuse": "Loads are not part of the Part mode."})
    controller, _ = make(fresh_sam, tmp_path, design(refusal))
    asyncio.run(controller.submit("Apply 5 kN on the top edge.", "part", TARGET))
    result = controller.result
    assert result is not None and result.status == "failed" and result.submissions == 0
    assert result.error is not None and result.error.layer == "design"
    assert "“Loads are not part of the Part mode.”" in result.error.message


def test_yes_stops_where_the_plan_contradicts_the_request_or_empties_the_part(
        fresh_sam, plate, tmp_path):
    """Under --yes, "Do not change anything" with a spec that deletes every element ran: a
    destructive line alone is not a warning. Now the plan warns, so it waits for a person."""
    everything = step("delete_elements", {"by": "all"})
    # asked again before Review (it empties the part unasked), the model answers the same
    controller, _ = make(fresh_sam, tmp_path, design(answer(everything)),
                         design(json.dumps(everything)), plan_wait="never")
    asyncio.run(controller.submit("Do not change anything.", "part", TARGET))
    assert asyncio.run(controller.confirm("part", TARGET)) is None  # waits whatever the policy
    assert controller.plan is not None
    assert controller.plan.warnings[:2] == [
        "the plan leaves the part with no elements (4 → 0)",
        "the request says “Do not change”, and the plan changes the part"]
    assert len(plate.elements) == 4


def test_a_set_the_request_asks_to_keep_is_warned_about(fresh_sam, plate, tmp_path):
    spec = answer(step("clear_all"), step("add_elements", count=1, shape="QUAD", elements=[
        {"shape": "QUAD", "nodes": [[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0]]}]))
    controller, _ = make(fresh_sam, tmp_path, design(spec), plan_wait="never")
    asyncio.run(controller.submit("Delete everything and replace it with one QUAD, but keep "
                                  "set S1.", "part", TARGET))
    asyncio.run(controller.confirm("part", TARGET))
    assert controller.plan is not None
    assert "the request asks to keep set S1, and the plan leaves no set S1" in \
        controller.plan.warnings


def test_two_steps_whose_remedy_is_one_step_are_asked_again_as_one(fresh_sam, plate,
                                                                   tmp_path):
    """"Refine the corner twice" came as two refine steps of the same elements: the
    compiler's remedy makes them one step, so both are asked again as one, held to one step's
    grammar, and the answer takes their place."""
    twice = answer(step("refine", labels(1), mode="mesh", levels=1),
                   step("refine", labels(1), mode="mesh", levels=1))
    once = step("refine", labels(1), mode="mesh", levels=2)
    controller, provider = make(fresh_sam, tmp_path, design(twice), design(json.dumps(once)))
    controller.settings = settings(profile="llamacpp")
    assert asyncio.run(controller.submit("Refine element 1 twice.", "mesh", TARGET)) \
        == Phase.REVIEW
    asked = provider.requests[1]
    assert asked.messages[-1]["content"].startswith(
        "SAM Agent cannot use steps 1 and 2 of this spec as it is:\n- step 2 (refine element "
        "1, 1 level(s)) refines the same elements again after step 1; refining them twice is "
        "one step with the levels added: make them one step of levels 2\n\nAnswer with steps "
        "1 and 2 written again as ONE step")
    grammar = asked.options.response_format["json_schema"]["schema"]
    assert "steps" not in json.dumps(grammar)  # one step, not a spec
    assert [v["properties"]["action"]["enum"] for v in grammar["anyOf"]] == [["refine"],
                                                                             ["audit"]]
    assert controller.spec is not None
    assert [(s.action, s.values["levels"]) for s in controller.spec.steps] == [("refine", 2)]


def test_a_set_that_names_no_elements_is_asked_again_held_to_state_its_scope(
        fresh_sam, plate, tmp_path):
    """"set TRIS = every tri elem" came as a create_set with no scope, and its repair,
    held to any step, came back the same: the diagnostic's remedy is a scope, so the step
    asked again is held to state one."""
    unscoped = answer(step("create_set", name="TRIS"))
    scoped = step("create_set", {"by": "shape", "shape": "QUAD"}, name="TRIS")
    controller, provider = make(fresh_sam, tmp_path, design(unscoped),
                                design(json.dumps(scoped)))
    controller.settings = settings(profile="llamacpp")
    assert asyncio.run(controller.submit("Put every quad in a set TRIS.", "part",
                                         TARGET)) == Phase.REVIEW
    asked = provider.requests[1]
    assert "names no elements: give its scope" in asked.messages[-1]["content"]
    grammar = asked.options.response_format["json_schema"]["schema"]
    assert grammar["anyOf"]  # only the actions that take a scope, each stating it
    assert all("scope" in v["required"] for v in grammar["anyOf"])
    assert "create_set" in {v["properties"]["action"]["enum"][0] for v in grammar["anyOf"]}
    assert "add_elements" not in json.dumps(grammar)
    assert controller.spec is not None
    assert controller.spec.steps[0].scope is not None


def test_a_scope_that_picks_nothing_is_asked_again_naming_only_the_shapes_the_part_has(
        fresh_sam, plate, tmp_path):
    """"Refine the beams" on a plate of QUADs came as a QUAD scope on a part of BEAMs (and
    the reverse): the step asked again may name only the shapes the part has."""
    tris = {"by": "shape", "shape": "TRI"}
    quads = {"by": "shape", "shape": "QUAD"}
    controller, provider = make(fresh_sam, tmp_path,
                                design(answer(step("refine", tris, mode="mesh", levels=1))),
                                design(json.dumps(step("refine", quads, mode="mesh",
                                                       levels=1))))
    controller.settings = settings(profile="llamacpp")
    assert asyncio.run(controller.submit("Refine the elements once.", "mesh", TARGET)) \
        == Phase.REVIEW
    asked = provider.requests[1]
    assert "the selection picks no elements" in asked.messages[-1]["content"]
    grammar = asked.options.response_format["json_schema"]["schema"]
    by_shape = [v for v in grammar["$defs"]["selector"]["anyOf"]
                if v["properties"]["by"]["const"] == "shape"]
    assert by_shape[0]["properties"]["shape"] == {"type": "string", "enum": ["QUAD"]}
    assert all("scope" in v["required"] for v in grammar["anyOf"])
    first = provider.requests[0].options.response_format["json_schema"]["schema"]
    assert '"TRI"' in json.dumps(first)  # the first question is held as it was
    assert controller.spec is not None
    assert controller.spec.steps[0].scope is not None
    assert controller.spec.steps[0].scope.model_dump(mode="json") == quads


def test_a_section_whose_kind_fits_nothing_it_is_assigned_to_is_defined_again(fresh_sam,
                                                                              tmp_path):
    """"Pipe section P60, outer diameter 60, wall 4" came as a shell section assigned to a
    part of BEAMs: the compiler blamed the assignment, which was asked again, though the
    remedy is the section's kind. The step that defines it is asked again."""
    from samConstants import BEAM

    model = fresh_sam.mdb.models["Model-1"]
    model.Material(name="Steel").Elastic(table=((210000.0, 0.3),))
    post = model.Part(name="Plate")
    nodes = [post.Node(coordinates=(0.0, 0.0, float(z))) for z in range(3)]
    for a, b in zip(nodes, nodes[1:], strict=False):
        post.Element(nodes=(a, b), elemShape=BEAM)
    shell = step("define_section", mode="property", name="P60", kind="shell",
                 material="Steel", thickness=4)
    pipe = step("define_section", mode="property", name="P60", kind="beam",
                material="Steel", profile={"shape": "pipe", "r": 30, "t": 4})
    assign = step("assign_section", {"by": "all"}, mode="property", section="P60")
    controller, provider = make(fresh_sam, tmp_path, design(answer(shell, assign)),
                                design(json.dumps(pipe)))
    controller.settings = settings(profile="llamacpp")
    assert asyncio.run(controller.submit("Pipe section P60 of Steel, outer diameter 60, wall "
                                         "4, on every element.", "property", TARGET)) \
        == Phase.REVIEW
    said = provider.requests[1].messages[-1]["content"]
    assert said.startswith("SAM Agent cannot use step 1 of this spec as it is:\n- step 1 "
                           "(define the shell section P60")
    assert "section 'P60' is a shell section and cannot go on BEAM elements" in said
    assert "(step 2 assigns it)" in said
    grammar = provider.requests[1].options.response_format["json_schema"]["schema"]
    assert [v["properties"]["values"]["properties"]["kind"] for v in grammar["anyOf"]] == [
        {"type": "string", "enum": ["beam"]}]  # a BEAM takes a beam section, held so
    assert controller.spec is not None
    assert controller.spec.steps[0].values["kind"] == "beam"


def _beam_part(sam: Any) -> None:
    from samConstants import BEAM

    model = sam.mdb.models["Model-1"]
    model.Material(name="Steel").Elastic(table=((210000.0, 0.3),))
    bar = model.Part(name="Plate")
    nodes = [bar.Node(coordinates=(float(x), 0.0, 0.0)) for x in range(0, 400, 100)]
    for a, b in zip(nodes, nodes[1:], strict=False):
        bar.Element(nodes=(a, b), elemShape=BEAM)


def test_a_definition_the_model_has_otherwise_may_be_answered_by_leaving_the_step_out(
        fresh_sam, tmp_path):
    """"Define an I-section ... in Steel" came with Steel defined again (nu 0.303) beside the
    model's Steel, and asked again, the same: a step asked again cannot be removed, and the
    model's own Steel was the one meant."""
    _beam_part(fresh_sam)
    steel = step("define_material", mode="property", name="Steel", E=210000, nu=0.303,
                 density=7.85e-9)
    rod = step("define_section", mode="property", name="ROD", kind="beam", material="Steel",
               profile={"shape": "circle", "r": 6})
    controller, provider = make(fresh_sam, tmp_path, design(answer(steel, rod)),
                                design(json.dumps({"remove": True})))
    controller.settings = settings(profile="llamacpp")
    assert asyncio.run(controller.submit("Define a round bar section ROD of Steel, 12 mm in "
                                         "diameter.", "property", TARGET)) == Phase.REVIEW
    asked = provider.requests[1]
    said = asked.messages[-1]["content"]
    assert "material 'Steel' already exists with a different definition" in said
    assert ("\n- or, where the model's own definition is the one meant, answer "
            '{"remove": true} to leave the step out\n') in said
    grammar = asked.options.response_format["json_schema"]["schema"]
    assert {"remove"} in [set(v["properties"]) for v in grammar["anyOf"]]
    assert controller.spec is not None
    assert [s.action for s in controller.spec.steps] == ["define_section"]


def test_a_shell_section_where_the_request_names_a_beam_profile_is_defined_again(
        fresh_sam, tmp_path):
    """"A solid round bar section called ROD, 12 mm in diameter" came back from both small
    models as a shell section ROD of thickness 12: nothing failed to compute or compile, so
    no diagnostic reached the model and the run verified the wrong section. The request's
    words name a beam profile: the step is asked again once, held to the beam kind."""
    _beam_part(fresh_sam)
    shell = step("define_section", mode="property", name="ROD", kind="shell",
                 material="Steel", thickness=12)
    rod = step("define_section", mode="property", name="ROD", kind="beam",
               material="Steel", profile={"shape": "circle", "r": 6})
    controller, provider = make(fresh_sam, tmp_path, design(answer(shell)),
                                design(json.dumps(rod)))
    controller.settings = settings(profile="llamacpp")
    assert asyncio.run(controller.submit(
        "Define a steel rod section ROD, 12 mm across the diameter.", "property", TARGET)) \
        == Phase.REVIEW
    said = provider.requests[1].messages[-1]["content"]
    assert said.startswith(
        "SAM Agent cannot use step 1 of this spec as it is:\n- the request says “rod”, a beam "
        "profile (circle), and step 1 (define the shell section ROD of material Steel, "
        "thickness 12) defines a shell section: define ROD as a beam section (kind beam) with "
        "a circle profile (r: the radius, half the diameter), not a shell thickness\n")
    grammar = provider.requests[1].options.response_format["json_schema"]["schema"]
    assert [v["properties"]["values"]["properties"]["kind"] for v in grammar["anyOf"]] == [
        {"type": "string", "enum": ["beam"]}]  # held to the beam kind
    assert len(provider.requests) == 2
    assert controller.spec is not None
    assert controller.spec.steps[0].values["kind"] == "beam"
    assert [(r.step, r.action) for r in controller.design_repairs] == [(1, "define_section")]
    assert not any("beam profile" in w for w in controller.review_warnings)


def test_a_shell_section_still_there_after_its_repair_is_a_review_warning(fresh_sam,
                                                                          tmp_path):
    _beam_part(fresh_sam)
    shell = step("define_section", mode="property", name="RECT_B", kind="shell",
                 material="Steel", thickness=20)
    thinner = step("define_section", mode="property", name="RECT_B", kind="shell",
                   material="Steel", thickness=40)
    controller, provider = make(fresh_sam, tmp_path, design(answer(shell)),
                                design(json.dumps(thinner)))
    assert asyncio.run(controller.submit("给梁定义一个矩形截面 RECT_B，材料用 Steel，宽 20、"
                                         "高 40。", "property", TARGET)) == Phase.REVIEW
    assert len(provider.requests) == 2  # asked again once, never twice
    assert controller.review_warnings == [
        "the request says “矩形截面”, a beam profile (rectangle), and step 1 (define the "
        "shell section RECT_B of material Steel, thickness 40) defines a shell section: "
        "define RECT_B as a beam section (kind beam) with a rectangle profile (a: the width; "
        "b: the height), not a shell thickness"]


def test_a_request_for_a_shell_and_a_beam_section_defining_both_is_asked_once(fresh_sam,
                                                                              tmp_path):
    _beam_part(fresh_sam)
    shell = step("define_section", mode="property", name="SH6", kind="shell",
                 material="Steel", thickness=6)
    bar = step("define_section", mode="property", name="BAR30", kind="beam",
               material="Steel", profile={"shape": "circle", "r": 15})
    controller, provider = make(fresh_sam, tmp_path, design(answer(shell, bar)))
    assert asyncio.run(controller.submit(
        "A 6 mm section SH6 and a round bar BAR30 of radius 15, both of Steel.", "property",
        TARGET)) == Phase.REVIEW
    assert len(provider.requests) == 1 and controller.review_warnings == []


def test_a_spec_that_empties_the_part_unasked_is_asked_again_before_review(
        fresh_sam, plate, tmp_path):
    """"Tidy it up" came as a delete of every element, and ran: the plan warned, but no
    model ever heard that the request does not ask to delete everything."""
    everything = answer(step("delete_elements", {"by": "all"}))
    one = step("delete_elements", labels(2))
    controller, provider = make(fresh_sam, tmp_path, design(everything),
                                design(json.dumps(one)))
    assert asyncio.run(controller.submit("Tidy it up: element 2 is a leftover.", "part",
                                         TARGET)) == Phase.REVIEW
    assert provider.requests[1].messages[-1]["content"].startswith(
        "SAM Agent cannot use step 1 of this spec as it is:\n- step 1 (delete all elements) "
        "leaves the part with no elements (4 → 0), and the request does not ask to delete "
        "everything: write the step the request asks for, on the elements or nodes it names")
    assert controller.spec is not None
    assert controller.spec.steps[0].scope is not None
    assert controller.spec.steps[0].scope.model_dump(mode="json") == labels(2)


def test_a_transform_whose_scope_picks_nothing_is_asked_again_held_to_the_parts_shapes(
        fresh_sam, plate, tmp_path):
    """"Turn the part 90 degrees about Y" came as a rotation of the TRI elements of a part
    of QUADs: it compiled, ran and moved nothing. Now it is asked again before Review."""
    turn = {"angle_deg": 90, "axis": [0, 1, 0], "origin": [0, 0, 0]}
    controller, provider = make(
        fresh_sam, tmp_path,
        design(answer(step("rotate", {"by": "shape", "shape": "TRI"}, **turn))),
        design(json.dumps(step("rotate", {"by": "shape", "shape": "QUAD"}, **turn))))
    controller.settings = settings(profile="llamacpp")
    assert asyncio.run(controller.submit("Turn the part 90 degrees about Y.", "part",
                                         TARGET)) == Phase.REVIEW
    asked = provider.requests[1]
    assert ("the selection picks no elements nor nodes, so nothing would move; the part has "
            "4 elements (QUAD)") in asked.messages[-1]["content"]
    grammar = asked.options.response_format["json_schema"]["schema"]
    by_shape = [v for v in grammar["$defs"]["selector"]["anyOf"]
                if v["properties"]["by"]["const"] == "shape"]
    assert by_shape[0]["properties"]["shape"] == {"type": "string", "enum": ["QUAD"]}
    assert asyncio.run(controller.confirm("part", TARGET)).status == "verified"


def test_a_change_where_the_request_asks_for_a_report_alone_is_asked_again_as_a_report(
        fresh_sam, plate, tmp_path):
    """"Which elements have no section? Only report, don't assign anything." came as an
    assignment of the section None to every element: only a Review warning said so."""
    controller, provider = make(
        fresh_sam, tmp_path,
        design(answer(step("delete_elements", labels(2)), step("audit", checks=["free_nodes"]))),
        design(json.dumps(step("audit", checks=["free_nodes", "duplicate_elements"]))))
    controller.settings = settings(profile="llamacpp")
    phase = asyncio.run(controller.submit("Are there free nodes? Only report, don't delete "
                                          "anything.", "part", TARGET))
    assert phase == Phase.REVIEW, controller.result
    asked = provider.requests[1]
    assert asked.messages[-1]["content"].startswith(
        "SAM Agent cannot use steps 1 and 2 of this spec as it is:\n- the request says "
        "“Only report”, and step 1 (delete element 2) changes the part: write a step that "
        "changes nothing (a report of what the request asks about)")
    grammar = asked.options.response_format["json_schema"]["schema"]
    assert [v["properties"]["action"]["enum"] for v in grammar["anyOf"]] == [["audit"]]
    assert controller.spec is not None
    assert [s.action for s in controller.spec.steps] == ["audit"]
    assert controller.review_warnings == []


@pytest.mark.parametrize("request_text", [
    "Delete element 2, but don't move anything else.", "Remove element 2; leave the rest."])
def test_a_request_that_still_asks_for_a_change_is_not_asked_for_a_report(
        fresh_sam, plate, tmp_path, request_text):
    controller, provider = make(fresh_sam, tmp_path,
                                design(answer(step("delete_elements", labels(2)))))
    assert asyncio.run(controller.submit(request_text, "part", TARGET)) == Phase.REVIEW
    assert len(provider.requests) == 1


def test_a_step_that_emptied_the_part_cannot_be_answered_with_the_same_scope(
        fresh_sam, plate, tmp_path):
    """"Remove the doubled elements" on a part of QUADs came as "delete the QUAD elements",
    and asked again, the same: the step asked again is held to a scope that leaves some.
    (Those words name a repair now, asked for first: these name none.)"""
    quads = step("delete_elements", {"by": "shape", "shape": "QUAD"})
    controller, provider = make(fresh_sam, tmp_path, design(answer(quads)),
                                design(json.dumps(step("delete_elements", labels(4)))))
    controller.settings = settings(profile="llamacpp")
    assert asyncio.run(controller.submit("Remove the leftover elements.", "part", TARGET)) \
        == Phase.REVIEW
    grammar = provider.requests[1].options.response_format["json_schema"]["schema"]
    selectors = grammar["$defs"]["selector"]["anyOf"]
    assert [v["properties"]["by"]["const"] for v in selectors] == ["labels", "set", "box"]
    assert controller.spec is not None and controller.spec.steps[0].scope is not None
    assert controller.spec.steps[0].scope.model_dump(mode="json") == labels(4)


def test_of_two_steps_that_empty_the_part_the_whole_parts_is_asked_again(fresh_sam, plate,
                                                                         tmp_path):
    """"rm free nodes + duplicate elems" came as "delete all nodes" and "delete all
    elements"; asked again, the second became "delete elements 1, 5" and the first, which
    takes every element with it, stayed."""
    every_node = step("delete_nodes", {"by": "all"})
    two = answer(every_node, step("delete_elements", labels(2)))
    controller, provider = make(fresh_sam, tmp_path, design(two),
                                design(json.dumps(step("delete_nodes", labels(9)))))
    assert asyncio.run(controller.submit("Remove the leftover nodes.", "part", TARGET)) \
        == Phase.REVIEW
    assert provider.requests[1].messages[-1]["content"].startswith(
        "SAM Agent cannot use step 1 of this spec as it is:\n- step 1 (delete all nodes) "
        "leaves the part with no elements (4 → 0)")


@pytest.mark.parametrize("request_text", ["Wipe the part.", "Delete all the elements.",
                                          "清空这个零件。"])
def test_a_request_that_asks_to_empty_the_part_is_not_asked_again(fresh_sam, plate, tmp_path,
                                                                  request_text):
    everything = answer(step("delete_elements", {"by": "all"}))
    controller, provider = make(fresh_sam, tmp_path, design(everything))
    assert asyncio.run(controller.submit(request_text, "part", TARGET)) == Phase.REVIEW
    assert len(provider.requests) == 1


def test_a_place_the_request_names_is_stated_as_the_parts_box(fresh_sam, plate, tmp_path):
    """"The right half" is the part's own box, said on the design request's last line; a
    step that takes it is not warned about as numbers the request never stated."""
    right_half = {"by": "box", "min": [1, 0, 0], "max": [2, 2, 0]}
    spec = answer(step("delete_elements", right_half))
    controller, provider = make(fresh_sam, tmp_path, design(spec))
    assert asyncio.run(controller.submit("Delete the right half of the plate.", "part",
                                         TARGET)) == Phase.REVIEW
    assert provider.requests[0].messages[-1]["content"].endswith(
        "Request:\nDelete the right half of the plate.\nThe request's places on this part, "
        "computed from its nodes (a box picks the elements and nodes inside it; use these "
        'numbers): “right half” = {"by":"box","min":[1,0,0],"max":[2,2,0]}.')
    assert not any("not stated by the request" in w or "neither the request" in w
                   for w in controller.review_warnings)
    result = asyncio.run(controller.confirm("part", TARGET))
    assert result is not None and result.status == "verified"
    assert len(fresh_sam.mdb.models["Model-1"].parts["Plate"].elements) == 2


def test_a_box_no_place_words_gave_is_still_said_at_review(fresh_sam, plate, tmp_path):
    spec = answer(step("delete_elements", {"by": "box", "min": [1, 0, 0], "max": [2, 2, 0]}))
    controller, provider = make(fresh_sam, tmp_path, design(spec))
    assert asyncio.run(controller.submit("Delete some elements.", "part", TARGET)) \
        == Phase.REVIEW
    assert "places" not in provider.requests[0].messages[-1]["content"]
    assert any("not stated by the request" in w for w in controller.review_warnings)


def test_the_parts_nodes_are_read_once_for_the_places_of_a_run(fresh_sam, plate, tmp_path,
                                                                 monkeypatch):
    """The places are said in the request and their numbers checked at each answer read:
    the part's nodes are read for them once."""
    from sam_plugin.runtime.run import named_places

    reads: list[int] = []
    real = named_places.flat_part

    def counted(nodes: Any) -> Any:
        reads.append(1)
        return real(nodes)

    monkeypatch.setattr(named_places, "flat_part", counted)
    right_half = {"by": "box", "min": [1, 0, 0], "max": [2, 2, 0]}
    controller, _ = make(fresh_sam, tmp_path, design(answer(step("delete_elements",
                                                                  right_half))))
    asyncio.run(controller.submit("Delete the right half of the plate.", "part", TARGET))
    assert controller.spec is not None and len(reads) == 1


def _actions_held(request: Any) -> list[list[str]]:
    grammar = request.options.response_format["json_schema"]["schema"]
    return [v["properties"]["action"]["enum"] for v in grammar["anyOf"]]


def test_a_step_standing_in_for_the_repairs_the_request_names_is_asked_again_held_to_them(
        fresh_sam, plate, tmp_path):
    """"rm free nodes + duplicate elems" came as "delete nodes 1, 11" and "delete elements 1,
    5": both computed, compiled and ran, and deleted what the part needed. Each step is asked
    again, held to the repair the request's words name."""
    controller, provider = make(
        fresh_sam, tmp_path,
        design(answer(step("delete_nodes", labels(1)), step("delete_elements", labels(2)))),
        design(json.dumps(step("delete_free_nodes"))),
        design(json.dumps(step("delete_duplicate_elements"))))
    controller.settings = settings(profile="llamacpp")
    assert asyncio.run(controller.submit("rm free nodes + duplicate elems", "part", TARGET)) \
        == Phase.REVIEW
    first, second = provider.requests[1], provider.requests[2]
    assert first.messages[-1]["content"].startswith(
        "SAM Agent cannot use step 1 of this spec as it is:\n- the request says “free nodes”, "
        "and no step does it: step 1 (delete node 1) stands in its place. Write that step as "
        "repair delete_free_nodes (remove free, stray or unused nodes; it finds them in the "
        "part itself, no labels)")
    assert _actions_held(first) == [["delete_free_nodes"]]
    assert "the request says “duplicate elems”" in second.messages[-1]["content"]
    assert _actions_held(second) == [["delete_duplicate_elements"]]
    assert controller.spec is not None
    assert [s.action for s in controller.spec.steps] == ["delete_free_nodes",
                                                         "delete_duplicate_elements"]
    assert asyncio.run(controller.confirm("part", TARGET)).status == "verified"


def test_a_chinese_request_naming_a_repair_is_asked_again_held_to_it(fresh_sam, plate,
                                                                      tmp_path):
    controller, provider = make(
        fresh_sam, tmp_path, design(answer(step("delete_elements", labels(2)))),
        design(json.dumps(step("delete_duplicate_elements"))))
    controller.settings = settings(profile="llamacpp")
    assert asyncio.run(controller.submit("网格里有单元重叠了，清理掉。", "part", TARGET)) \
        == Phase.REVIEW
    assert "the request says “单元重叠”" in provider.requests[1].messages[-1]["content"]
    assert _actions_held(provider.requests[1]) == [["delete_duplicate_elements"]]


@pytest.mark.parametrize(("request_text", "steps"), [
    # labels named: a step by labels may be what the request asks
    ("Delete node 3, then remove the free nodes.", [step("delete_nodes", labels(3))]),
    # negated
    ("Don't merge the coincident nodes; delete element 2.",
     [step("delete_elements", labels(2))]),
    # a report of free nodes: no step stands in for their deletion
    ("How many stray nodes are there?", [step("audit", checks=["free_nodes"])]),
    # the repair is planned
    ("Delete element 2 and the free nodes.",
     [step("delete_elements", labels(2)), step("delete_free_nodes")]),
])
def test_words_that_name_a_repair_ask_nothing_again_where_no_step_stands_in_for_it(
        fresh_sam, plate, tmp_path, request_text, steps):
    controller, provider = make(fresh_sam, tmp_path, design(answer(*steps)))
    assert asyncio.run(controller.submit(request_text, "part", TARGET)) == Phase.REVIEW
    assert len(provider.requests) == 1


def test_a_set_the_request_does_not_ask_for_is_left_out_before_review(fresh_sam, plate,
                                                                     tmp_path):
    """"Clear the part and lay a new 20 × 20 plate" came with "create the set PLATE" too: the
    compile left the set out after Confirm, and the binding then failed ("step 3 says create
    the set PLATE; no call carries it out"). The spec confirmed is the one that runs."""
    new_plate = step("add_elements", count=1, shape="QUAD", elements=[
        {"shape": "QUAD", "nodes": [[0, 0, 0], [20, 0, 0], [20, 20, 0], [0, 20, 0]]}])
    controller, provider = make(fresh_sam, tmp_path, design(answer(
        step("clear_all"), new_plate, step("create_set", name="PLATE"))))
    assert asyncio.run(controller.submit("Clear the part and lay one new 20 × 20 quad.",
                                         "part", TARGET)) == Phase.REVIEW
    assert controller.spec is not None
    assert [s.action for s in controller.spec.steps] == ["clear_all", "add_elements"]
    assert controller.review_warnings[0] == (
        "step 3 (create the set PLATE) is left out: the request does not ask for sets or "
        "groups")
    assert "PLATE" not in (run_dir(controller) / "design.txt").read_text(encoding="utf-8")
    assert asyncio.run(controller.confirm("part", TARGET)).status == "verified"
    assert len(provider.requests) == 1


def test_a_set_the_request_asks_for_stays(fresh_sam, plate, tmp_path):
    controller, _ = make(fresh_sam, tmp_path, design(answer(
        step("create_set", labels(1, 2), name="LEFT"))))
    assert asyncio.run(controller.submit("Group elements 1 and 2 as LEFT.", "part",
                                         TARGET)) == Phase.REVIEW
    assert controller.spec is not None
    assert [s.action for s in controller.spec.steps] == ["create_set"]
    assert not any("left out" in w for w in controller.review_warnings)


def test_a_step_stating_another_count_than_the_requests_words_is_asked_again(
        fresh_sam, plate, tmp_path):
    """"array in Y, 3 total, pitch 12" came as an array of 4 instances, though the design
    request stated 2 new copies for "3 total"."""
    four = step("linear_array", {"by": "all"}, count=4, vector=[0, 12, 0])
    five = step("linear_array", {"by": "all"}, count=5, vector=[0, 12, 0])
    controller, provider = make(fresh_sam, tmp_path, design(answer(four)),
                                design(json.dumps(five)))
    assert asyncio.run(controller.submit("Copy the plate along Y, five in all, 12 apart.",
                                         "part", TARGET)) == Phase.REVIEW
    assert provider.requests[1].messages[-1]["content"].startswith(
        "SAM Agent cannot use step 1 of this spec as it is:\n- the request says “five in all”: "
        "copies 4 (5 in all, the original counted), and step 1 (array all nodes into 4 "
        "instances (0, 12, 0) apart) states count 4: write that step with count 5")
    assert controller.spec is not None and controller.spec.steps[0].values["count"] == 5


def test_a_step_stating_the_count_the_words_make_is_asked_once(fresh_sam, plate, tmp_path):
    controller, provider = make(fresh_sam, tmp_path, design(answer(
        step("linear_array", {"by": "all"}, count=5, vector=[0, 12, 0]))))
    assert asyncio.run(controller.submit("Copy the plate along Y, four more times, 12 apart.",
                                         "part", TARGET)) == Phase.REVIEW
    assert len(provider.requests) == 1


def test_a_repair_answer_that_does_not_read_is_asked_again_naming_what_does_not(
        fresh_sam, plate, tmp_path):
    """"Join them up" was asked again as merge_nodes, and came back with tolerance 0.0: it
    did not read, and the TRI across the seam it should replace stood at Review."""
    tri = step("add_elements", count=1, shape="TRI", elements=[
        {"shape": "TRI", "nodes": [[10, 8.5, 0], [12.5, 8.5, 0], [11.25, 11.5, 0]]}])
    controller, provider = make(
        fresh_sam, tmp_path, design(answer(tri)),
        design(json.dumps(step("merge_nodes", tolerance=0.0))),
        design(json.dumps(step("merge_nodes", tolerance=0.001))))
    assert asyncio.run(controller.submit("The halves are not joined; stitch the seam.",
                                         "part", TARGET)) == Phase.REVIEW
    assert len(provider.requests) == 3
    again = provider.requests[2].messages[-1]["content"]
    assert again.startswith("SAM Agent cannot use step 1 of this spec as it is:\n- step 1 as "
                            "answered (")
    assert again.split("\n")[1].endswith(
        "does not read: steps[0].values.tolerance: 0.0 is less than the minimum of 1e-09")
    assert controller.spec is not None
    assert [s.action for s in controller.spec.steps] == ["merge_nodes"]


def test_a_place_no_step_takes_is_asked_for_on_the_step_that_takes_the_whole_part(
        fresh_sam, plate, tmp_path):
    """"Group the top row of elements into a set" came as the set of the QUAD elements,
    every element of the part, though the design request stated the top row's box."""
    top = {"by": "box", "min": [0, 1, 0], "max": [2, 2, 0]}
    controller, provider = make(
        fresh_sam, tmp_path,
        design(answer(step("create_set", {"by": "shape", "shape": "QUAD"}, name="TOP"))),
        design(json.dumps(step("create_set", top, name="TOP"))))
    assert asyncio.run(controller.submit("Group the top row of elements as a set TOP.",
                                         "part", TARGET)) == Phase.REVIEW
    assert provider.requests[1].messages[-1]["content"].startswith(
        "SAM Agent cannot use step 1 of this spec as it is:\n- the request says “top row”, "
        'which the box {"by":"box","min":[0,1,0],"max":[2,2,0]} picks on this part, and step '
        "1 (create the set TOP of the QUAD elements) takes more than it: write its scope as "
        "that box")
    assert controller.spec is not None and controller.spec.steps[0].scope is not None
    assert controller.spec.steps[0].scope.model_dump(mode="json")["by"] == "box"


def test_a_place_no_step_takes_is_asked_for_where_a_step_lists_every_label(
        fresh_sam, plate, tmp_path):
    """"Fully fix the nodes along x = 0" came as a support of nodes 1-9, every node of the
    part: a scope of all its labels is the whole part, as "all" is."""
    every = labels(*range(1, 10))
    left = {"by": "box", "min": [0, 0, 0], "max": [0, 2, 0]}
    controller, provider = make(
        fresh_sam, tmp_path, design(answer(step("delete_nodes", every))),
        design(json.dumps(step("delete_nodes", left))))
    assert asyncio.run(controller.submit("Delete the nodes on the left edge.", "part", TARGET)) \
        == Phase.REVIEW
    assert "and step 1 (delete nodes 1-9) takes more than it: write its scope as that box" \
        in provider.requests[1].messages[-1]["content"]
    # some labels are a place of the step's own: nothing is asked again
    controller, provider = make(fresh_sam, tmp_path,
                                design(answer(step("delete_nodes", labels(1, 4, 7)))))
    assert asyncio.run(controller.submit("Delete the nodes on the left edge.", "part", TARGET)) \
        == Phase.REVIEW
    assert len(provider.requests) == 1


@pytest.mark.parametrize(("request_text", "steps"), [
    # a transform: the place is its plane or origin
    ("Mirror the plate about its right edge, keeping the original.",
     [step("mirror", {"by": "all"}, copy=True, origin=[2, 0, 0], normal=[1, 0, 0])]),
    # another step takes the place by its labels
    ("Delete the top row, then group the rest as REST.",
     [step("delete_elements", labels(3, 4)),
      step("create_set", {"by": "shape", "shape": "QUAD"}, name="REST")]),
])
def test_a_place_a_step_may_take_otherwise_asks_nothing_again(fresh_sam, plate, tmp_path,
                                                              request_text, steps):
    controller, provider = make(fresh_sam, tmp_path, design(answer(*steps)))
    assert asyncio.run(controller.submit(request_text, "part", TARGET)) == Phase.REVIEW
    assert len(provider.requests) == 1


def test_a_step_asked_again_for_its_scope_is_told_the_places_the_request_names(
        fresh_sam, plate, tmp_path):
    """"Group the top row of elements into a set" came as a set that names no elements;
    asked again for its scope, the 1.5B answered "the QUAD elements": the top row's box was
    on the first request only."""
    top = {"by": "box", "min": [0, 1, 0], "max": [2, 2, 0]}
    controller, provider = make(
        fresh_sam, tmp_path, design(answer(step("create_set", name="TOP"))),
        design(json.dumps(step("create_set", top, name="TOP"))))
    assert asyncio.run(controller.submit("Group the top row of elements as a set TOP.",
                                         "part", TARGET)) == Phase.REVIEW
    reason = provider.requests[1].messages[-1]["content"].split("\n")[1]
    assert reason.startswith("- step 1 (create the set TOP) names no elements")
    assert reason.endswith('(the request\'s places on this part: “top row” = '
                           '{"by":"box","min":[0,1,0],"max":[2,2,0]})')


def test_a_report_alone_where_the_request_asks_for_a_change_is_asked_again_as_a_change(
        fresh_sam, plate, tmp_path):
    """"Split every beam element in half" and "把网格加密三次" came as "audit the mesh" alone:
    it ran, changed nothing, and was verified as what it said."""
    controller, provider = make(
        fresh_sam, tmp_path, design(answer(step("audit", checks=["free_nodes"]))),
        design(json.dumps(step("scale", {"by": "all"}, factor=2, origin=[0, 0, 0]))))
    controller.settings = settings(profile="llamacpp")
    assert asyncio.run(controller.submit("Make the plate twice as big.", "part", TARGET)) \
        == Phase.REVIEW
    asked = provider.requests[1]
    assert asked.messages[-1]["content"].startswith(
        "SAM Agent cannot use step 1 of this spec as it is:\n- step 1 (audit the part: free "
        "nodes) changes nothing, and the request asks for a change, not a report: write the "
        "step that makes the change it asks for")
    held = {a for held in _actions_held(asked) for a in held}
    assert "audit" not in held and "scale" in held
    assert controller.spec is not None
    assert [s.action for s in controller.spec.steps] == ["scale"]


@pytest.mark.parametrize("request_text", [
    "Are there free nodes?", "Check the mesh for duplicate elements.", "有没有自由节点",
    "Count the QUAD elements and report."])
def test_a_report_where_the_request_asks_for_one_is_asked_once(fresh_sam, plate, tmp_path,
                                                               request_text):
    controller, provider = make(fresh_sam, tmp_path,
                                design(answer(step("audit", checks=["free_nodes"]))))
    assert asyncio.run(controller.submit(request_text, "part", TARGET)) == Phase.REVIEW
    assert len(provider.requests) == 1


def test_a_quantity_written_unconverted_is_asked_again_in_the_models_units(fresh_sam, plate,
                                                                          tmp_path):
    """"density 7850 kg/m3" came as 7850 in a model of t/mm³, though the design request
    stated 7.85e-9."""
    controller, provider = make(
        fresh_sam, tmp_path,
        design(answer(step("translate", {"by": "all"}, vector=[0, 0, 5]))),
        design(json.dumps(step("translate", {"by": "all"}, vector=[0, 0, 50]))))
    assert asyncio.run(controller.submit("Raise the plate by 5 cm.", "part", TARGET)) \
        == Phase.REVIEW
    assert provider.requests[1].messages[-1]["content"].split("\n")[1] == (
        "- the request says “5 cm”, and step 1 (translate all nodes by (0, 0, 5)) writes 5, "
        "the number in cm: write 50, its value in this model's units")


def test_a_step_on_every_node_where_the_request_names_one_is_asked_for_its_scope(
        fresh_sam, plate, tmp_path):
    """"Pull node 25 sideways with a force of (10, 0, 0)" came as that force on all nodes."""
    controller, provider = make(
        fresh_sam, tmp_path, design(answer(step("delete_nodes", {"by": "all"}))),
        design(json.dumps(step("delete_nodes", labels(5)))))
    assert asyncio.run(controller.submit("Delete node 5 and the elements that use it.",
                                         "part", TARGET)) == Phase.REVIEW
    assert provider.requests[1].messages[-1]["content"].split("\n")[1] == (
        "- the request names “node 5”, and step 1 (delete all nodes) acts on every node: write "
        "its scope as the node the request names (its label, or a box around its point)")
    assert controller.spec is not None and controller.spec.steps[0].scope is not None
    assert controller.spec.steps[0].scope.model_dump(mode="json") == labels(5)


def test_an_answer_that_does_not_read_is_told_the_action_the_words_name_too(
        fresh_sam, plate, tmp_path):
    """"rm any stray nodes, then make the panel twice as big" came from the real 1.5B as
    move_nodes with one point for 25 labels: the spec did not read, so the check of what
    the words name never saw it, and its repair answered the same."""
    moved = step("move_nodes", labels=[1, 2, 3], to=[0, 0, 0])
    grown = step("scale", {"by": "all"}, factor=2, origin=[1, 1, 0])
    controller, provider = make(fresh_sam, tmp_path, design(answer(moved)),
                                design(answer(grown)))
    assert asyncio.run(controller.submit("Make the plate twice as big about its centre.",
                                         "part", TARGET)) == Phase.REVIEW
    problems = provider.requests[1].messages[-1]["content"].split("\n")
    assert any(line.startswith("- steps[0].values.to: 1 point(s) for 3 label(s)")
               for line in problems)
    assert ("- the request says “twice as big”, and no step does it: step 1 (move_nodes) "
            "stands in its place. Write that step as transform scale (scale, enlarge or "
            "shrink elements)") in problems
    assert controller.spec is not None
    assert [s.action for s in controller.spec.steps] == ["scale"]


def test_a_translate_of_a_box_around_one_node_is_asked_again_as_move_nodes(
        fresh_sam, plate, tmp_path):
    """"Lift the centre node of the plate by 2.5 mm" came as a translate of a box around the
    node, which picks no whole element; told only that, the 0.5B answered another box."""
    around = {"by": "box", "min": [1, 1, 0], "max": [1, 1, 0]}
    controller, provider = make(
        fresh_sam, tmp_path, design(answer(step("translate", around, vector=[0, 0, 0.5]))),
        design(json.dumps(step("move_nodes", labels=[5], to=[[1, 1, 0.5]]))))
    controller.settings = settings(profile="llamacpp")
    assert asyncio.run(controller.submit("Lift the centre node by 0.5.", "part", TARGET)) \
        == Phase.REVIEW
    asked = provider.requests[1].messages[-1]["content"]
    assert "a translate moves whole elements, and the box holds only node(s) 5 of the part's " \
           "elements; to move those nodes alone, write move_nodes with labels [5] and to " \
           "[[1, 1, 0.5]]" in asked
    assert _actions_held(provider.requests[1]) == [["move_nodes"]]
    assert asyncio.run(controller.confirm("part", TARGET)).status == "verified"
    centre = fresh_sam.mdb.models["Model-1"].parts["Plate"].nodes.getFromLabel(5)
    assert tuple(centre.coordinates) == (1.0, 1.0, 0.5)


def test_a_zero_force_where_the_words_ask_for_a_support_is_asked_again_as_one(
        fresh_sam, plate, tmp_path):
    """"Clamp the bottom edge y = 0 completely and call it ROOT" came as a force of (0, 0, 0)
    in a step ROOT; "把左边的节点约束住" as one that compiled, ran and held nothing."""
    bottom = {"by": "box", "min": [0, 0, 0], "max": [2, 0, 0]}
    fresh_sam.mdb.models["Model-1"].StaticStep(name="Push", previous="Initial")
    controller, provider = make(
        fresh_sam, tmp_path,
        design(answer(step("force", bottom, mode="load", name="ROOT", step="Push",
                           vector=[0, 0, 0]))),
        design(json.dumps(step("fix", bottom, mode="load", name="ROOT"))))
    controller.settings = settings(profile="llamacpp")
    assert asyncio.run(controller.submit("Clamp the bottom edge y = 0 and call it ROOT.",
                                         "load", TARGET)) == Phase.REVIEW
    asked = provider.requests[1].messages[-1]["content"]
    assert "the force (0, 0, 0) is zero: it loads nothing, and the request says “Clamp”" in asked
    assert _actions_held(provider.requests[1]) == [["fix"], ["displace"]]
    assert controller.spec is not None
    assert [s.action for s in controller.spec.steps] == ["fix"]
    assert asyncio.run(controller.confirm("load", TARGET)).status == "verified"
