"""Every contradiction the spec-as-data issue found on main, through the controller with the
real Part module on the offline SAM: the call says other than the confirmed spec, so nothing
executes (docs/architecture.md §4 "The spec", I15). On main each of these ended verified."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from controller_fakes import ScriptedProvider, calls, design, policy, settings

from sam_plugin.compilers.protocol import Target
from sam_plugin.runtime.events import read_events
from sam_plugin.runtime.run.controller import Phase, RunController
from tests.support.pipeline import RecordingGateway, fresh_database
from tests.support.pipeline import s1_grid as grid
from tests.support.specs import ALL, answer, box, labels, named_set, step

TARGET = Target(model_name="Model-1", part_name="Plate")
fresh_sam = pytest.fixture(fresh_database)


def run(sam: Any, tmp_path: Path, spec: str, *answers: Any, repairs: int = 0,
        request: str = "as the spec says") -> tuple[RunController, RecordingGateway, Any]:
    host = RecordingGateway(sam)
    provider = ScriptedProvider(design(spec), *answers)
    controller = RunController(runs_dir=tmp_path / "runs", settings=settings(),
                               policy=policy(plan_wait="never", repair_rounds=repairs),
                               host=host, provider_factory=provider.factory)
    assert asyncio.run(controller.submit(request, "part", TARGET)) == Phase.REVIEW
    result = asyncio.run(controller.confirm("part", TARGET))
    return controller, host, result


def never_ran(controller: RunController, host: RecordingGateway, result: Any) -> str:
    """The run went back to Review at compile with nothing executed; its message."""
    assert (result.status, result.error.layer, result.submissions) == ("rejected", "compile", 0)
    assert controller.phase == Phase.REVIEW and controller.plan is None
    assert host.scripts == []
    events = [e["event"] for e in read_events(controller.runs_dir / controller.run_id /
                                              "events.jsonl")]
    assert "plan_shown" not in events and "execution_submitted" not in events
    return str(result.error.message)


def transform(*operations: dict[str, Any]) -> Any:
    return calls(("transform_part", {"operations": list(operations)}))


@pytest.mark.parametrize("deletion", [
    {"delete_elements": ALL},
    {"delete_elements": box([-1, -1, -1], [5, 5, 1])},  # a box around everything
    {"delete_elements": labels(3)},  # the wrong label
    {"delete_nodes": labels(5)},  # nodes instead
])
def test_delete_element_2_and_nothing_else(fresh_sam, tmp_path, deletion):
    part = grid(fresh_sam)
    spec = answer(step("delete_elements", labels(2)), summary="Delete element 2 and nothing else.")
    message = never_ran(*run(fresh_sam, tmp_path, spec, calls(("edit_part", deletion)),
                             request="delete element 2 and nothing else"))
    assert "step 1 says delete element 2; the call deletes" in message
    assert len(part.elements) == 4


@pytest.mark.parametrize(("the_step", "operation", "words"), [
    (step("rotate", ALL, angle_deg=90, axis=[0, 0, 1], origin=[0, 0, 0]),
     {"op": "rotate", "angle_deg": 270, "axis": [0, 0, 1], "origin": [0, 0, 0]},
     "(angle_deg 270, not 90)"),
    (step("scale", ALL, factor=2, origin=[0, 0, 0]),
     {"op": "scale", "factor": 0.001, "origin": [0, 0, 0]}, "(factor 0.001, not 2)"),
    (step("mirror", ALL, copy=True, normal=[1, 0, 0], origin=[2, 0, 0]),
     {"op": "translate", "vector": [2, 0, 0]},
     "step 1 says mirror all nodes as a copy in the plane through (2, 0, 0) with the normal "
     "(1, 0, 0); the call translates all nodes by (2, 0, 0) instead"),
    (step("translate", named_set("S1"), vector=[5, 0, 0]),
     {"op": "translate", "vector": [0, 500, 0]},
     "step 1 says translate set S1 by (5, 0, 0); the call translates all nodes by "
     "(0, 500, 0)"),
])
def test_a_transform_other_than_the_steps_never_runs(fresh_sam, tmp_path, the_step,
                                                       operation, words):
    part = grid(fresh_sam)
    before = [tuple(n.coordinates) for n in part.nodes]
    message = never_ran(*run(fresh_sam, tmp_path, answer(the_step), transform(operation)))
    assert words in message
    assert [tuple(n.coordinates) for n in part.nodes] == before


def test_a_repair_round_that_widens_the_deletion_is_bound_too(fresh_sam, tmp_path):
    """The issue: a repair round widened ``delete labels [99]`` to ``delete all``."""
    part = grid(fresh_sam)
    spec = answer(step("delete_elements", labels(4)), summary="Delete element 4.")
    controller, host, result = run(
        fresh_sam, tmp_path, spec,
        calls(("edit_part", {"delete_elements": labels(99)})),  # no such element: repair
        calls(("edit_part", {"delete_elements": ALL})),  # the repair widens it
        calls(("edit_part", {"delete_elements": ALL})),
        repairs=2, request="delete element 4")
    message = never_ran(controller, host, result)
    assert "step 1 says delete element 4; the call deletes all elements" in message
    assert result.repairs == 2 and len(part.elements) == 4


def test_the_repair_that_keeps_to_the_step_runs_once_and_verifies(fresh_sam, tmp_path):
    grid(fresh_sam)
    spec = answer(step("delete_elements", labels(4)), summary="Delete element 4.")
    controller, host, result = run(
        fresh_sam, tmp_path, spec,
        calls(("edit_part", {"delete_elements": ALL})),
        calls(("edit_part", {"delete_elements": labels(4)})), repairs=2,
        request="delete element 4")
    assert (result.status, result.repairs, len(host.scripts)) == ("verified", 1, 1)
    assert [s.text for s in controller.plan.steps] == ["delete element 4"]


def test_a_read_only_audit_spec_never_runs_an_edit(fresh_sam, tmp_path):
    """The issue: a spec saying "read-only audit, nothing is changed", whose capability line
    named edit, ran delete-all. The steps route: only audit_part is offered or accepted."""
    part = grid(fresh_sam)
    spec = answer(step("audit", text="Read-only audit: nothing is changed."),
                  summary="A read-only audit; nothing is changed.")
    controller, host, result = run(fresh_sam, tmp_path, spec,
                                   calls(("edit_part", {"delete_elements": ALL})))
    assert controller.route.tools == ["audit_part"]
    assert (result.status, result.error.layer, result.submissions) == ("rejected", "tool_call",
                                                                       0)
    assert "edit_part" in result.error.message and host.scripts == []
    assert len(part.elements) == 4


def test_a_matching_call_verifies_in_one_round(fresh_sam, tmp_path):
    grid(fresh_sam)
    spec = answer(step("translate", named_set("S1"), vector=[5, 0, 0]),
                  summary="Translate set S1 by (5, 0, 0).",
                  expected={"nodes": 9, "elements": 4, "selected": 1})
    controller, host, result = run(fresh_sam, tmp_path, spec, transform(
        {"op": "translate", "vector": [5, 0, 0], "selection": named_set("S1")}),
        request="translate set S1 by 5 in x")
    assert (result.status, result.repairs, len(host.scripts)) == ("verified", 0, 1)
    assert controller.plan.warnings == []
    assert ("step", "   step 1 ✓ translate set S1 by (5, 0, 0) — 4 nodes [1-2, 4-5]") in \
        controller.plan.lines()
