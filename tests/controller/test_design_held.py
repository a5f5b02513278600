"""The design request held to the spec's grammar (docs/architecture.md §6 "Requests"), and
what Review says about the numbers of the answer: each case is one the 0.5B recorded."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from controller_fakes import TARGET, ScriptedProvider, design, policy, settings

from sam_plugin.runtime.host_gateway import HostGateway
from sam_plugin.runtime.provider.types import ChatResponse
from sam_plugin.runtime.run.controller import RunController
from tests.support.pipeline import fresh_database
from tests.support.plates import quad_plate
from tests.support.specs import answer, box, step

fresh_sam = pytest.fixture(fresh_database)


@pytest.fixture
def plate(fresh_sam: Any) -> Any:
    part = quad_plate(fresh_sam.mdb.models["Model-1"], "Plate", 2)
    part.Set(name="S1", elements=part.elements.sequenceFromLabels([1, 2]))
    return part


def looping(text: str = '{"summary": "Refine", "steps": [{"capability": "refine", ') -> Any:
    return ChatResponse(content=text + "1, " * 300, reasoning="", tool_calls=[],
                        finish_reason="length", usage=None, raw_sse=b"")


def make(sam: Any, tmp_path: Any, *answers: Any, profile: str = "llamacpp") -> Any:
    provider = ScriptedProvider(*answers)
    controller = RunController(runs_dir=tmp_path / "runs", settings=settings(profile=profile),
                               # the whole spec's request, whose shape this checks
                               policy=policy(calls="spec", design="whole"),
                               host=HostGateway(sam),
                               provider_factory=provider.factory)
    return controller, provider


def test_a_cut_under_the_grammar_is_a_loop_not_a_short_budget(fresh_sam, plate, tmp_path):
    controller, provider = make(fresh_sam, tmp_path, looping(), looping())
    asyncio.run(controller.submit("Refine the elements of set S1 once.", "mesh", TARGET))
    first, repair = provider.requests
    held = first.options.response_format["json_schema"]["schema"]
    assert held["anyOf"][1]["required"] == ["refuse"]
    assert repair.options.max_tokens == first.options.max_tokens  # not doubled
    assert "repeated itself until it was cut off" in repair.messages[-1]["content"]
    assert repair.messages[-1]["content"] != first.messages[-1]["content"]
    result = controller.result
    assert result is not None and result.error is not None and result.submissions == 0
    assert result.error.message.startswith(
        f"the model's answer repeated itself: it ran to {first.options.max_tokens} tokens "
        "twice under the spec's grammar")


def test_without_a_grammar_a_cut_answer_gets_twice_the_bound(fresh_sam, plate, tmp_path):
    controller, provider = make(fresh_sam, tmp_path, looping(), looping(), profile="openai")
    asyncio.run(controller.submit("Refine the elements of set S1 once.", "mesh", TARGET))
    first, repair = provider.requests
    assert first.options.response_format is None
    assert repair.options.max_tokens == 2 * first.options.max_tokens


def test_the_grammar_names_the_sets_the_part_has(fresh_sam, plate, tmp_path):
    spec = answer(step("refine", {"by": "set", "name": "S1"}, mode="mesh", levels=1))
    controller, provider = make(fresh_sam, tmp_path, design(spec))
    asyncio.run(controller.submit("Refine the elements of set S1 once.", "mesh", TARGET))
    held = json.dumps(provider.requests[0].options.response_format)
    assert '"enum": ["S1"]' in held and '"maximum": 9' in held


def test_a_box_copied_from_an_example_is_said_at_review(fresh_sam, plate, tmp_path):
    """Four 0.5B answers scoped a refine to the old prompt example's box (7.5, 3.5)."""
    spec = answer(step("refine", box([0, 0, 0], [7.5, 3.5, 0]), mode="mesh", levels=3))
    controller, _ = make(fresh_sam, tmp_path, design(spec))
    asyncio.run(controller.submit("Refine the elements of set S1 once.", "mesh", TARGET))
    warnings = controller.review_warnings
    assert any("picks nothing" not in w and "7.5, 3.5" in w and
               "in neither the request nor the observation" in w for w in warnings), warnings
    assert any(w.startswith("step 1 (refine the elements inside the box (0, 0, 0)-(7.5, 3.5, 0)"
                            ", 3 level(s)): 3, 3.5, 7.5 are in neither") for w in warnings)


def test_a_tolerance_the_request_does_not_state_is_said_at_review(fresh_sam, plate, tmp_path):
    spec = answer(step("merge_nodes", tolerance=0.001))
    controller, _ = make(fresh_sam, tmp_path, design(spec))
    asyncio.run(controller.submit("Merge coincident nodes within 0.01.", "part", TARGET))
    assert controller.review_warnings == [
        "step 1 (merge coincident nodes within 0.001): 0.001 is in neither the request nor "
        "the observation; check where it comes from (edit the step if it is wrong)"]


def test_numbers_of_the_request_and_the_observation_are_sourced(fresh_sam, plate, tmp_path):
    spec = answer(step("translate", {"by": "labels", "labels": [4]}, vector=[12.5, 0, 0]))
    controller, _ = make(fresh_sam, tmp_path, design(spec))
    asyncio.run(controller.submit("Move element 4 by 12.5 along X.", "part", TARGET))
    assert controller.review_warnings == []


def test_a_step_copied_from_the_prompts_example_gets_the_repair_round(fresh_sam, plate, tmp_path):
    """The 0.5B answered a load request with the example's TRI element, value for value."""
    copied = answer(step("add_elements", count=1, shape="TRI", elements=[
        {"shape": "TRI", "nodes": [[0, 8.5, 0], [2.5, 8.5, 0], [1.25, 11.5, 0]]}]))
    refusal = json.dumps({"refuse": "Loads are not Part operations."})
    controller, provider = make(fresh_sam, tmp_path, design(copied), design(refusal))
    asyncio.run(controller.submit("Apply a pressure of 5 MPa on the top edge.", "part", TARGET))
    repair = provider.requests[1].messages[-1]["content"]
    assert ("steps[0]: this step is the prompt's example (for “Add one TRI element with "
            "corners (0, 8.5, 0), (2.5, 8.5, 0) and (1.25, 11.5, 0).”), not a step of this "
            "request") in repair
    result = controller.result
    assert result is not None and result.status == "failed" and result.submissions == 0
    # the request's words name the category; the model's reason is quoted after
    assert result.error.category == "load"
    assert result.error.message.endswith("The model answered: “Loads are not Part "
                                         "operations.”.")


def test_numbers_from_nowhere_are_plan_warnings_too_so_yes_stops(fresh_sam, plate, tmp_path):
    spec = answer(step("merge_nodes", tolerance=0.001))
    controller, _ = make(fresh_sam, tmp_path, design(spec))
    controller.policy = controller.policy.model_copy(update={"plan_wait": "never"})
    asyncio.run(controller.submit("Merge coincident nodes within 0.01.", "part", TARGET))
    assert asyncio.run(controller.confirm("part", TARGET)) is None  # it waits for a person
    assert controller.plan is not None and controller.plan.warnings[0].startswith(
        "step 1 (merge coincident nodes within 0.001): 0.001 is in neither the request")


def test_a_step_any_request_may_state_is_no_copy(fresh_sam, plate, tmp_path):
    """The example's "audit the free nodes" is a step of many requests, not a copy."""
    spec = answer(step("translate", {"by": "all"}, vector=[5, 0, 0]),
                  step("audit", checks=["free_nodes"]))
    controller, provider = make(fresh_sam, tmp_path, design(spec))
    asyncio.run(controller.submit("Move the part by 5 along X and check free nodes.", "part",
                                  TARGET))
    assert len(provider.requests) == 1 and controller.review_warnings == []


def test_a_label_range_of_the_request_sources_every_label_in_it(fresh_sam, plate, tmp_path):
    spec = answer(step("translate", {"by": "labels", "labels": [2, 3, 4]}, vector=[5, 0, 0]))
    controller, _ = make(fresh_sam, tmp_path, design(spec))
    asyncio.run(controller.submit("Move elements 2 to 4 by 5 along X.", "part", TARGET))
    assert controller.review_warnings == []


def test_labels_outside_the_requests_range_are_still_said(fresh_sam, plate, tmp_path):
    spec = answer(step("translate", {"by": "labels", "labels": [2, 3]}, vector=[5, 0, 0]))
    controller, _ = make(fresh_sam, tmp_path, design(spec))
    asyncio.run(controller.submit("Move elements 1-2 by 5 along X.", "part", TARGET))
    assert [w.split(": ", 1)[1] for w in controller.review_warnings] == [
        "3 is in neither the request nor the observation; check where it comes from (edit the "
        "step if it is wrong)"]


def test_an_edit_keeps_the_warnings_on_the_numbers_it_did_not_change(fresh_sam, plate,
                                                                     tmp_path):
    """Re-saving the model's spec unchanged dropped the warning about its invented 0.001."""
    spec = answer(step("merge_nodes", tolerance=0.001))
    controller, _ = make(fresh_sam, tmp_path, design(spec))
    asyncio.run(controller.submit("Merge coincident nodes within 0.01.", "part", TARGET))
    warned = controller.review_warnings
    assert len(warned) == 1
    controller.edit_spec(json.loads(spec))  # the same JSON, saved again
    assert controller.review_warnings == warned
    controller.edit_spec(json.loads(answer(step("merge_nodes", tolerance=0.01))))
    assert controller.review_warnings == []


def test_a_quarter_turn_states_90_degrees(fresh_sam, plate, tmp_path):
    spec = answer(step("rotate", {"by": "all"}, angle_deg=90, axis=[0, 0, 1],
                       origin=[0, 0, 0]))
    controller, _ = make(fresh_sam, tmp_path, design(spec))
    asyncio.run(controller.submit("Rotate the part a quarter turn about Z.", "part", TARGET))
    assert controller.review_warnings == []


def test_a_request_in_cm_of_a_model_in_mm_is_warned_and_stops_yes(fresh_sam, plate, tmp_path):
    """"Move set S1 by 5 cm" ran its bare 5 in mm under --yes."""
    from sam_plugin.compilers.units import unit_system

    bare = step("translate", {"by": "set", "name": "S1"}, vector=[5, 0, 0])
    # asked again in the model's units (step_check), it answers the same step: it stands
    controller, _ = make(fresh_sam, tmp_path, design(answer(bare)), design(json.dumps(bare)))
    controller.units = unit_system("mm")
    controller.policy = controller.policy.model_copy(update={"plan_wait": "never"})
    asyncio.run(controller.submit("Move set S1 by 5 cm along X.", "part", TARGET))
    said = ("the request says 5 cm, and this model's lengths are in mm: 5 cm = 50 mm in this "
            "model; a step's number is taken in the model's units, so check that the steps use "
            "50 (edit the step if they do not)")
    assert controller.review_warnings == [said]
    assert asyncio.run(controller.confirm("part", TARGET)) is None  # it waits for a person
    assert controller.plan is not None and said in controller.plan.warnings


def _actions_offered(request: Any) -> set[str]:
    """The action names the request's grammar lets a step write."""
    found: set[str] = set()

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            action = node.get("properties", {}).get("action")
            if isinstance(action, dict) and "enum" in action:
                found.update(action["enum"])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(request.options.response_format["json_schema"]["schema"])
    return found


def test_the_grammar_offers_only_what_the_target_as_it_is_allows(fresh_sam, plate, tmp_path):
    """An existing part is never built and a missing one only built (or audited): both were
    design problems a model could write under the grammar."""
    audit = answer(step("audit", mode="part"))
    controller, provider = make(fresh_sam, tmp_path / "plate", design(audit))
    asyncio.run(controller.submit("Check the plate.", "part", TARGET))
    on_plate = _actions_offered(provider.requests[0])
    assert "build" not in on_plate and {"add_elements", "translate", "audit"} <= on_plate
    controller, provider = make(fresh_sam, tmp_path / "rail", design(audit))
    asyncio.run(controller.submit("Check the rail.", "part",
                                  TARGET.model_copy(update={"part_name": "Rail"})))
    assert _actions_offered(provider.requests[0]) == {"build", "audit"}
