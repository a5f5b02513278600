"""The plan gate (I11, I13, docs/architecture.md §5 "Plan"): the real Part module over the
offline SAM.

What runs is exactly what the analyst was shown; a plan that removes things says so; a spec
whose own expectations disagree with the calls is warned about; a host whose result differs
from the plan is never called verified.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from controller_fakes import ScriptedProvider, build_controller, calls, design, policy

from sam_plugin.compilers.protocol import Target
from sam_plugin.runtime.events import read_events
from sam_plugin.runtime.host_gateway import HostGateway
from sam_plugin.runtime.run.controller import (
    ControllerBusy,
    ControllerStateError,
    Phase,
    RunController,
)
from sam_plugin.runtime.verify import part_comparison
from tests.support.pipeline import RecordingGateway, fresh_database
from tests.support.pipeline import s1_grid as grid
from tests.support.specs import ALL, answer, labels, named_set, step

TARGET = Target(model_name="Model-1", part_name="Plate")
fresh_sam = pytest.fixture(fresh_database)

TRANSLATE_SPEC = answer(
    step("translate", named_set("S1"), vector=[5, 0, 0]),
    summary="Translate the elements of set S1 by 5 in x.",
    expected={"nodes": 9, "elements": 4, "shapes": {"QUAD": 4}, "selected": 1})
COPY_UP = answer(step("translate_copy", ALL, vector=[0, 0, 10]),
                 summary="Copy the plate 10 up in z.", expected={"nodes": 18, "elements": 8})
DELETE_2 = answer(step("delete_elements", labels(2)), summary="Delete element 2.")


def make(tmp_path: Path, sam: Any, provider: ScriptedProvider, plan_wait: str = "always",
         host: HostGateway | None = None) -> tuple[RunController, HostGateway]:
    built = build_controller(tmp_path, provider, host=host or RecordingGateway(sam),
                             real_modules=True, policy=policy(plan_wait=plan_wait))
    return built.controller, built.host


def to_plan(controller: RunController, request: str = "move S1 by 5 in x") -> Any:
    assert asyncio.run(controller.submit(request, "part", TARGET)) == Phase.REVIEW
    return asyncio.run(controller.confirm("part", TARGET))


def run_dir(controller: RunController) -> Path:
    return controller.runs_dir / controller.run_id


def events(controller: RunController) -> list[str]:
    return [e["event"] for e in read_events(run_dir(controller) / "events.jsonl")]


def translate_s1(vector: list[float]) -> Any:
    return calls(("transform_part", {"operations": [
        {"op": "translate", "vector": vector, "selection": {"by": "set", "name": "S1"}}]}))


# -- the gate -------------------------------------------------------------------------------


def test_confirm_stops_at_the_plan_and_nothing_runs_until_execute(fresh_sam, tmp_path):
    grid(fresh_sam)
    controller, host = make(tmp_path, fresh_sam,
                            ScriptedProvider(design(TRANSLATE_SPEC), translate_s1([5, 0, 0])))
    assert to_plan(controller) is None
    assert controller.phase == Phase.PLAN
    assert controller.phase_label.startswith("Plan: 1 call(s)")
    assert controller.phase_label.endswith("waiting for you to execute")
    assert host.scripts == [] and not (run_dir(controller) / "result.json").exists()
    stored = json.loads((run_dir(controller) / "plan.json").read_text())
    script = (run_dir(controller) / "generated_script.py").read_text()
    assert stored["script_sha256"] == hashlib.sha256(script.encode()).hexdigest()
    assert events(controller)[-1] == "plan_shown"
    with pytest.raises(ControllerBusy, match="plan is waiting"):
        asyncio.run(controller.submit("again", "part", TARGET))

    result = asyncio.run(controller.execute("part", TARGET))
    assert result.status == "verified", result.error
    assert len(host.scripts) == 1
    # I11: the bytes submitted hash to what plan.json holds
    assert hashlib.sha256(host.scripts[0].encode()).hexdigest() == stored["script_sha256"]
    gate = ["plan_shown", "plan_approved", "execution_submitted", "execution_completed",
            "readback_verified"]
    assert [e for e in events(controller) if e in gate] == gate
    exact = {c.name: c for c in result.checks if "(exact)" in c.name}
    assert set(exact) == {"nodes match the plan (exact)", "elements match the plan (exact)",
                          "set members match the plan (exact)"}
    assert all(c.ok for c in exact.values())


def test_the_plan_says_what_moves_with_numbers_and_labels(fresh_sam, tmp_path):
    grid(fresh_sam)
    controller, _ = make(tmp_path, fresh_sam,
                         ScriptedProvider(design(TRANSLATE_SPEC), translate_s1([5, 0, 0])))
    to_plan(controller)
    plan = controller.plan
    text = plan.text()
    assert "1. transform_part" in text
    assert "translate by (5, 0, 0), in set S1: 1 element [1], 4 nodes [1-2, 4-5]" in text
    assert plan.before.nodes == "9" and plan.after.nodes == "9"
    assert plan.after.bounding_box == ((0.0, 0.0, 0.0), (6.0, 2.0, 0.0))
    assert plan.destructive == [] and plan.warnings == []
    assert plan.prediction.startswith("exact")
    # node 5 is shared: every element using a moved node is drawn as moved
    assert plan.preview is not None and plan.preview.moved == [1, 2, 3, 4]


def test_a_spec_about_s1_with_calls_moving_everything_never_runs(fresh_sam, tmp_path):
    """The issue: "translate set S1 by (5, 0, 0)" ran as all nodes by (0, 500, 0), with no
    warning. Now the call contradicts the confirmed spec: a compile error, nothing runs."""
    grid(fresh_sam)
    everything = calls(("transform_part", {"operations": [{"op": "translate",
                                                           "vector": [0, 500, 0]}]}))
    controller, host = make(tmp_path, fresh_sam,
                            ScriptedProvider(design(TRANSLATE_SPEC), everything))
    result = to_plan(controller)
    assert controller.phase == Phase.REVIEW and controller.plan is None
    error = result.error
    assert (controller.result.status, error.layer) == ("rejected", "compile")
    assert ("step 1 says translate set S1 by (5, 0, 0); the call translates all nodes by "
            "(0, 500, 0)") in error.message
    assert host.scripts == [] and "plan_shown" not in events(controller)


def test_delete_all_when_the_spec_named_one_element_never_runs(fresh_sam, tmp_path):
    grid(fresh_sam)
    spec = answer(step("delete_elements", labels(2)), summary="Delete element 2.",
                  expected={"nodes": 9, "elements": 3})
    delete_all = calls(("edit_part", {"delete_elements": {"by": "all"}}))
    controller, host = make(tmp_path, fresh_sam, ScriptedProvider(design(spec), delete_all))
    result = to_plan(controller, "delete element 2")
    assert (result.status, controller.phase, controller.plan) == ("rejected", Phase.REVIEW,
                                                                  None)
    assert "step 1 says delete element 2; the call deletes all elements" in \
        controller.result.error.message
    assert host.scripts == []


def test_a_plan_warns_where_the_spec_expects_other_counts(fresh_sam, tmp_path):
    grid(fresh_sam)
    spec = answer(step("delete_elements", labels(2)), summary="Delete element 2.",
                  expected={"nodes": 9, "elements": 2, "selected": 2})
    delete = calls(("edit_part", {"delete_elements": {"by": "labels", "labels": [2]}}))
    controller, host = make(tmp_path, fresh_sam, ScriptedProvider(design(spec), delete))
    to_plan(controller, "delete element 2")
    plan = controller.plan
    assert plan.destructive[0] == "call 1 edit_part: delete elements labels [2]: 1 element [2]"
    assert plan.warnings == [
        "the spec expects 2 elements; the calls leave 3 elements",
        "the spec expects its steps to act on 2; the calls act on 1 elements (call 1 "
        "edit_part: delete elements labels [2])"]
    lines = plan.lines()
    assert lines[0][0] == "destructive" and lines[len(plan.destructive)][0] == "warning"
    assert ("step", "   step 1 ✓ delete element 2 — 1 element [2]") in lines
    assert host.scripts == []


def test_the_destructive_policy_runs_a_harmless_plan_and_waits_for_a_destructive_one(
        fresh_sam, tmp_path):
    grid(fresh_sam)
    controller, host = make(tmp_path, fresh_sam, ScriptedProvider(
        design(TRANSLATE_SPEC), translate_s1([5, 0, 0])), plan_wait="destructive")
    result = to_plan(controller)
    assert result is not None and result.status == "verified"
    assert "plan_approved" in events(controller)

    spec = DELETE_2
    delete = calls(("edit_part", {"delete_elements": {"by": "labels", "labels": [2]}}))
    controller, host = make(tmp_path, fresh_sam, ScriptedProvider(design(spec), delete),
                            plan_wait="destructive")
    assert to_plan(controller, "delete element 2") is None
    assert controller.phase == Phase.PLAN and host.scripts == []


@pytest.mark.parametrize("plan_wait", ["never", "destructive"])
def test_a_warned_plan_waits_whatever_the_policy(fresh_sam, tmp_path, plan_wait):
    """No setting and no run option approves a plan with warnings: only a person does."""
    grid(fresh_sam)
    spec = answer(step("delete_elements", ALL), summary="Delete the elements.",
                  expected={"nodes": 9, "elements": 3})
    delete_all = calls(("edit_part", {"delete_elements": {"by": "all"}}))
    controller, host = make(tmp_path, fresh_sam, ScriptedProvider(design(spec), delete_all),
                            plan_wait=plan_wait)
    assert to_plan(controller, "delete element 2") is None
    assert controller.phase == Phase.PLAN and controller.plan.warnings
    assert host.scripts == [] and "plan_approved" not in events(controller)


def test_a_run_option_overrides_the_setting(fresh_sam, tmp_path):
    grid(fresh_sam)
    controller, host = make(tmp_path, fresh_sam, ScriptedProvider(
        design(TRANSLATE_SPEC), translate_s1([5, 0, 0])))
    asyncio.run(controller.submit("move S1 by 5 in x", "part", TARGET))
    with pytest.raises(ValueError, match="plan_wait: 'sometimes' is not one of always, "
                                         "destructive, never"):
        asyncio.run(controller.confirm("part", TARGET, plan_wait="sometimes"))
    assert controller.phase == Phase.REVIEW  # a bad option changes nothing
    result = asyncio.run(controller.confirm("part", TARGET, plan_wait="never"))
    assert result.status == "verified" and len(host.scripts) == 1


def test_execute_and_decline_refuse_without_a_plan(fresh_sam, tmp_path):
    grid(fresh_sam)
    controller, _ = make(tmp_path, fresh_sam, ScriptedProvider(design(TRANSLATE_SPEC)))
    asyncio.run(controller.submit("move S1", "part", TARGET))
    with pytest.raises(ControllerStateError, match="execute: no plan is waiting"):
        asyncio.run(controller.execute())
    with pytest.raises(ControllerStateError, match="decline_plan: no plan is waiting"):
        controller.decline_plan()


def test_cancel_at_the_plan_declines_it(fresh_sam, tmp_path):
    grid(fresh_sam)
    controller, host = make(tmp_path, fresh_sam,
                            ScriptedProvider(design(TRANSLATE_SPEC), translate_s1([5, 0, 0])))
    to_plan(controller)
    asyncio.run(controller.cancel())
    assert controller.result.status == "cancelled" and host.scripts == []
    assert "plan_declined" in events(controller)


# -- I11: what executes is exactly what was shown ------------------------------------------


def test_a_script_changed_after_the_plan_was_shown_is_never_submitted(fresh_sam, tmp_path):
    grid(fresh_sam)
    controller, host = make(tmp_path, fresh_sam,
                            ScriptedProvider(design(TRANSLATE_SPEC), translate_s1([5, 0, 0])))
    to_plan(controller)
    run = controller._run  # noqa: SLF001 - trying to break I11 from inside
    run.shown = replace(run.shown, script=run.shown.script.replace("5.0", "500.0"))
    result = asyncio.run(controller.execute())
    assert (result.status, result.error.layer, result.submissions) == ("failed", "execution", 0)
    assert "is not the one the plan showed" in result.error.message
    assert host.scripts == []


def test_a_plan_json_edited_while_waiting_is_never_executed(fresh_sam, tmp_path):
    grid(fresh_sam)
    controller, host = make(tmp_path, fresh_sam,
                            ScriptedProvider(design(TRANSLATE_SPEC), translate_s1([5, 0, 0])))
    to_plan(controller)
    path = run_dir(controller) / "plan.json"
    stored = json.loads(path.read_text())
    stored["script_sha256"] = "0" * 64
    path.write_text(json.dumps(stored))
    result = asyncio.run(controller.execute())
    assert result.status == "failed" and host.scripts == []


def test_a_part_changed_while_the_plan_waits_fails_before_execution(fresh_sam, tmp_path):
    grid(fresh_sam)
    controller, host = make(tmp_path, fresh_sam,
                            ScriptedProvider(design(TRANSLATE_SPEC), translate_s1([5, 0, 0])))
    to_plan(controller)
    part = fresh_sam.mdb.models["Model-1"].parts["Plate"]
    part.editNode(nodes=part.nodes.sequenceFromLabels([9]), coordinates=((3.0, 3.0, 0.0),))
    result = asyncio.run(controller.execute())
    assert (result.status, result.error.layer) == ("failed", "observation")
    assert "modified before execution" in result.error.message and host.scripts == []


# -- I13: a host whose result differs from the plan is never verified -----------------------


class ShiftingGateway(RecordingGateway):
    """Runs the script, then silently shifts every node it edited by 0.5 in x."""

    def execute(self, script: str, target: Target, output_dir: Path) -> Any:
        part = self.part(target)
        before = {n.label: tuple(n.coordinates) for n in part.nodes}
        receipt = super().execute(script, target, output_dir)
        for node in list(part.nodes):
            if before.get(node.label) != tuple(node.coordinates):
                x, y, z = node.coordinates
                part.editNode(nodes=part.nodes.sequenceFromLabels([node.label]),
                              coordinates=((x + 0.5, y, z),))
        return receipt


class DroppingGateway(RecordingGateway):
    """Runs the script, then silently deletes the newest element."""

    def execute(self, script: str, target: Target, output_dir: Path) -> Any:
        receipt = super().execute(script, target, output_dir)
        part = self.part(target)
        newest = max(e.label for e in part.elements)
        part.deleteElement(elements=part.elements.sequenceFromLabels([newest]))
        return receipt


def test_a_host_that_shifts_the_edited_nodes_fails_verification_naming_the_node(fresh_sam,
                                                                                tmp_path):
    grid(fresh_sam)
    host = ShiftingGateway(fresh_sam)
    controller, _ = make(tmp_path, fresh_sam, ScriptedProvider(
        design(TRANSLATE_SPEC), translate_s1([5, 0, 0])), plan_wait="never", host=host)
    result = to_plan(controller)
    assert (result.status, result.error.layer) == ("failed", "verification")
    failed = {c.name: c.actual for c in result.checks if not c.ok}
    # counts alone would pass: only the exact comparison sees it
    assert list(failed) == ["nodes match the plan (exact)"]
    assert "node 1 at (5.5, 0, 0), the plan puts it at (5, 0, 0)" in failed[
        "nodes match the plan (exact)"]
    assert "node 1 at (5.5, 0, 0)" in result.error.message


def test_a_host_that_drops_an_element_fails_verification_naming_it(fresh_sam, tmp_path):
    grid(fresh_sam)
    spec = COPY_UP
    copy = calls(("transform_part", {"operations": [{"op": "translate_copy",
                                                     "vector": [0, 0, 10]}]}))
    host = DroppingGateway(fresh_sam)
    controller, _ = make(tmp_path, fresh_sam, ScriptedProvider(design(spec), copy),
                         plan_wait="never", host=host)
    result = to_plan(controller, "copy it 10 up")
    assert (result.status, result.error.layer) == ("failed", "verification")
    failed = {c.name: c.actual for c in result.checks if not c.ok}
    assert "elements match the plan (exact)" in failed
    assert failed["elements match the plan (exact)"] == (
        "new element QUAD on nodes 14, 15, 18, 17 missing (the plan creates it)")


def test_a_run_that_builds_verifies_every_new_node_by_geometry(fresh_sam, tmp_path):
    spec = answer(step("build", shape="QUAD", size=[2, 1], divisions=[2, 1]),
                  summary="Build a 2 x 1 plate.", expected={"nodes": 6})
    patch = {"id": "P", "shape": "QUAD", "divisions": [2, 1],
             "corners": [[0, 0, 0], [2, 0, 0], [2, 1, 0], [0, 1, 0]]}
    controller, _ = make(tmp_path, fresh_sam, ScriptedProvider(
        design(spec), calls(("build_part", {"patches": [patch]}))), plan_wait="never")
    result = to_plan(controller, "a 2 x 1 plate")
    assert result.status == "verified", result.checks
    assert any(c.name == "nodes match the plan (exact)" and c.ok for c in result.checks)


def test_a_merge_that_removes_nodes_is_marked_destructive(fresh_sam, tmp_path):
    grid(fresh_sam)
    spec = answer(step("translate_copy", ALL, vector=[2, 0, 0]),
                  step("merge_nodes", tolerance=0.01),
                  summary="Copy the plate 2 in x and merge.",
                  expected={"nodes": 15, "elements": 8})
    work = calls(("transform_part", {"operations": [{"op": "translate_copy",
                                                     "vector": [2, 0, 0]}]}),
                 ("repair_part", {"merge_coincident_nodes": {"tolerance": 0.01}}))
    controller, _ = make(tmp_path, fresh_sam, ScriptedProvider(design(spec), work))
    to_plan(controller, "copy 2 in x and merge within 0.01")
    plan = controller.plan
    assert plan.destructive == [
        "call 2 repair_part: removes, beyond what the call names: 3 nodes [10, 13, 16]"]
    assert plan.warnings == []
    assert plan.after.nodes == "15" and plan.after.elements == "8"


def test_a_host_that_shifts_the_moved_nodes_fails_naming_the_node_and_nothing_is_sampled(
        fresh_sam, tmp_path):
    grid(fresh_sam)
    host = ShiftingGateway(fresh_sam)
    controller, _ = make(tmp_path, fresh_sam, ScriptedProvider(
        design(TRANSLATE_SPEC), translate_s1([5, 0, 0])), plan_wait="never", host=host)
    result = to_plan(controller)
    assert (result.status, result.error.layer) == ("failed", "verification")
    assert not any("sampled" in c.name for c in result.checks)
    [nodes] = [c for c in result.checks if c.name == "nodes match the plan (exact)"]
    assert not nodes.ok
    assert nodes.actual.startswith("node 1 at (5.5, 0, 0), the plan puts it at (5, 0, 0)")
    [rest] = [c for c in result.checks if c.name == part_comparison.REST]
    assert rest.ok  # what the calls do not touch is as it was


def test_a_faithful_host_passes_with_the_after_fingerprint_as_predicted(fresh_sam, tmp_path):
    grid(fresh_sam)
    controller, _ = make(tmp_path, fresh_sam, ScriptedProvider(
        design(TRANSLATE_SPEC), translate_s1([5, 0, 0])), plan_wait="never")
    result = to_plan(controller)
    assert result.status == "verified", result.checks
    [rest] = [c for c in result.checks if c.name == part_comparison.REST]
    assert "the whole part has the predicted after-fingerprint" in rest.actual


def test_changing_the_target_while_the_plan_waits_fails_the_run(fresh_sam, tmp_path):
    grid(fresh_sam)
    controller, host = make(tmp_path, fresh_sam,
                            ScriptedProvider(design(TRANSLATE_SPEC), translate_s1([5, 0, 0])))
    to_plan(controller)
    controller.invalidate("the dock now shows mesh Model-1/Plate")
    assert (controller.result.status, controller.result.error.layer) == ("failed",
                                                                         "observation")
    with pytest.raises(ControllerStateError):
        asyncio.run(controller.execute())
    assert host.scripts == []


def test_execute_with_another_target_than_the_spec_fails_before_execution(fresh_sam, tmp_path):
    grid(fresh_sam)
    controller, host = make(tmp_path, fresh_sam,
                            ScriptedProvider(design(TRANSLATE_SPEC), translate_s1([5, 0, 0])))
    to_plan(controller)
    other = Target(model_name="Model-1", part_name="Other")
    result = asyncio.run(controller.execute("part", other))
    assert (result.status, result.error.layer, result.submissions) == ("failed", "observation",
                                                                       0)
    assert host.scripts == []


def test_new_labels_the_host_numbers_differently_are_matched_by_geometry(fresh_sam, tmp_path):
    grid(fresh_sam)
    part = fresh_sam.mdb.models["Model-1"].parts["Plate"]
    # the host never reuses labels: after these deletions it numbers new entities past them,
    # while a copy of the part can only guess from the labels it sees
    part.deleteElement(elements=part.elements.sequenceFromLabels([4]))
    part.deleteNode(nodes=part.nodes.sequenceFromLabels([9]))
    spec = answer(step("translate_copy", ALL, vector=[0, 0, 10]),
                  summary="Copy the plate 10 up in z.")
    copy = calls(("transform_part", {"operations": [{"op": "translate_copy",
                                                     "vector": [0, 0, 10]}]}))
    controller, _ = make(tmp_path, fresh_sam, ScriptedProvider(design(spec), copy),
                         plan_wait="never")
    result = to_plan(controller, "copy it 10 up")
    assert result.status == "verified", [c for c in result.checks if not c.ok]
    new_nodes = sorted(n.label for n in part.nodes if n.coordinates[2] == 10.0)
    assert new_nodes[0] > 9  # the host did number past the deleted labels


def test_what_a_call_adds_is_a_count_and_a_box_never_a_guessed_label(fresh_sam, tmp_path):
    grid(fresh_sam)
    spec = COPY_UP
    copy = calls(("transform_part", {"operations": [{"op": "translate_copy",
                                                     "vector": [0, 0, 10]}]}))
    controller, _ = make(tmp_path, fresh_sam, ScriptedProvider(design(spec), copy))
    to_plan(controller, "copy it 10 up")
    text = controller.plan.text()
    assert ("   - adds: 4 elements in box (0, 0, 10)..(2, 2, 10), 9 nodes in box "
            "(0, 0, 10)..(2, 2, 10)") in text
    assert controller.plan.destructive == [] and controller.plan.warnings == []
    assert len(controller.plan.preview.added) == 4
