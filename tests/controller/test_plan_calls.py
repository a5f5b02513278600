"""``plan_calls``: a run from a confirmed spec and given tool calls, with no provider request
at all (docs/architecture.md §1): observed, compiled through the same chain and plan builder,
stopped at the Plan; then ``execute`` or ``decline_plan`` as any run. Calls that do not fit
the spec's route, or do not compile, end the run rejected with the diagnostics (no repair
round: there is no model to ask)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from controller_fakes import (
    TARGET,
    FakeHost,
    build_controller,
    fake_spec,
    fake_step,
    policy,
    settings,
)

from sam_plugin.errors import ControllerBusy
from sam_plugin.runtime.events import read_events
from sam_plugin.runtime.host_gateway import HostGateway
from sam_plugin.runtime.run.controller import Phase, RunController
from tests.support.pipeline import fresh_database
from tests.support.specs import answer, step

fresh_sam = pytest.fixture(fresh_database)
SPEC = fake_spec("build", "audit", summary="Build one QUAD plate and audit it.")
BUILD_AUDIT = [("build_part", {"quads": 2}), ("audit_part", {})]


class NoProvider:
    """A provider factory that must never be called."""

    def __init__(self) -> None:
        self.asked = 0

    def __call__(self, settings: Any) -> Any:
        self.asked += 1
        raise AssertionError("plan_calls asked the provider")


def make(tmp_path: Path, host: Any = None, **kw: Any) -> tuple[RunController, NoProvider]:
    provider = NoProvider()
    built = build_controller(tmp_path, provider, host=host,
                             policy=kw.pop("policy", policy(plan_wait="always", repair_rounds=2)),
                             **kw)
    return built.controller, provider


def plan(controller: RunController, calls: Any = BUILD_AUDIT, spec: str = SPEC,
         **kw: Any) -> Phase:
    return asyncio.run(controller.plan_calls("a plate", "part", TARGET, spec=spec,
                                             calls=calls, source=kw.pop("source", "mcp"), **kw))


def run_dir(controller: RunController) -> Path:
    assert controller.run_id is not None
    return controller.runs_dir / controller.run_id


def events(controller: RunController) -> list[str]:
    return [e["event"] for e in read_events(run_dir(controller) / "events.jsonl")]


def test_given_calls_stop_at_the_plan_without_a_provider_request(tmp_path):
    controller, provider = make(tmp_path)
    assert plan(controller) == Phase.PLAN
    assert provider.asked == 0
    assert controller.plan is not None and len(controller.plan.calls) == 2
    assert controller.spec_text.startswith("Spec: Build one QUAD plate and audit it.\n\nSteps:")
    assert controller.route.tools == ["build_part", "audit_part"]
    directory = run_dir(controller)
    assert (directory / "design.txt").read_text() == controller.spec_text + "\n"
    assert json.loads((directory / "spec.json").read_text()) == json.loads(SPEC)
    stored = json.loads((directory / "tool_calls.json").read_text())
    assert [(c["tool"], c["source"], json.loads(c["arguments"])) for c in stored] == [
        ("build_part", "mcp", {"quads": 2}), ("audit_part", "mcp", {})]
    assert not (directory / "result.json").exists()  # waiting for approval
    assert not any(p.name.startswith("provider_") for p in directory.iterdir())
    assert events(controller)[-1] == "plan_shown"
    assert "design_received" not in events(controller)


def test_the_plan_executes_on_approval_and_says_who_started_the_run(tmp_path):
    controller, provider = make(tmp_path)
    plan(controller, source="rerun", source_run="20261201T000000Z-abc123")
    result = asyncio.run(controller.execute())
    assert (result.status, result.submissions, provider.asked) == ("verified", 1, 0)
    written = json.loads((run_dir(controller) / "result.json").read_text())
    assert (written["source"], written["source_run"]) == ("rerun", "20261201T000000Z-abc123")


def test_a_declined_plan_runs_nothing(tmp_path):
    controller, _ = make(tmp_path)
    plan(controller)
    assert controller.decline_plan().status == "cancelled"
    assert controller.phase == Phase.CANCELLED


def test_a_compile_error_ends_the_run_rejected_with_the_diagnostics_and_no_repair(tmp_path):
    controller, provider = make(tmp_path)
    assert plan(controller, calls=[("build_part", {"bad": 1}), ("audit_part", {})]) \
        == Phase.FAILED
    result = controller.result
    assert result is not None and provider.asked == 0
    assert (result.status, result.error.layer, result.submissions) == ("rejected", "compile", 0)
    assert "remove it; legal: quads" in result.error.message
    assert result.repairs == 0 and "repair_requested" not in events(controller)
    assert controller.plan is None
    # the run is over: a new one may start at once
    assert plan(controller) == Phase.PLAN


@pytest.mark.parametrize("calls, words", [
    ([("audit_part", {}), ("build_part", {"quads": 1})],
     "the calls name audit_part, build_part; the spec routes to build_part, audit_part"),
    ([("build_part", {"quads": 1})], "the calls name build_part; the spec routes to"),
    ([("build_part", "{not json"), ("audit_part", {})], "the arguments are not valid JSON"),
])
def test_calls_that_do_not_fit_the_route_are_rejected_before_compiling(tmp_path, calls, words):
    controller, provider = make(tmp_path)
    assert plan(controller, calls=calls) == Phase.FAILED
    result = controller.result
    assert (result.status, result.error.layer) == ("rejected", "tool_call")
    assert words in result.error.message
    assert provider.asked == 0


def test_a_spec_that_is_not_one_is_rejected_at_design(tmp_path):
    controller, _ = make(tmp_path, host=FakeHost(quads=1))
    assert plan(controller, spec="Make it nicer.") == Phase.FAILED
    assert (controller.result.status, controller.result.error.layer) == ("rejected", "design")
    assert "the given spec is not a spec of this mode: the answer is prose" in \
        controller.result.error.message


def test_given_calls_are_bound_to_the_given_spec(tmp_path):
    """The same binding as for a model's calls: a call the spec does not state never runs."""
    controller, provider = make(tmp_path)
    spec = fake_spec(fake_step("build", quads=2), "audit", summary="Two unit QUADs.")
    assert plan(controller, spec=spec, calls=[("build_part", {"quads": 9}), ("audit_part", {})]) \
        == Phase.FAILED
    result = controller.result
    assert (result.status, result.error.layer, result.submissions) == ("rejected", "compile", 0)
    assert ("step 1 says build 2 unit QUADs; the call builds 9 unit QUADs (quads 9, not 2)"
            in result.error.message)
    assert provider.asked == 0 and controller.plan is None
    # a spec object is as good as its JSON text
    assert plan(controller, spec=json.loads(spec), calls=[("build_part", {"quads": 2}),
                                                          ("audit_part", {})]) == Phase.PLAN


def test_a_run_waiting_at_its_plan_refuses_another(tmp_path):
    controller, _ = make(tmp_path)
    plan(controller)
    with pytest.raises(ControllerBusy, match="plan_calls: a plan is waiting for approval"):
        plan(controller)


def test_the_real_part_module_plans_and_verifies_given_calls(fresh_sam, tmp_path):
    patch = {"id": "P", "shape": "QUAD", "corners": [[0, 0, 0], [2, 0, 0], [2, 1, 0], [0, 1, 0]],
             "divisions": [2, 1]}
    provider = NoProvider()
    controller = RunController(runs_dir=tmp_path / "runs", settings=settings(), policy=policy(),
                               host=HostGateway(fresh_sam), provider_factory=provider)
    phase = asyncio.run(controller.plan_calls(
        "a 2 x 1 plate", "part", TARGET, source="mcp",
        spec=answer(step("build", shape="QUAD", size=[2, 1], divisions=[2, 1]),
                    summary="Build a 2 x 1 plate of 2 x 1 QUADs."),
        calls=[("build_part", {"patches": [patch]})]))
    assert phase == Phase.PLAN, controller.result
    assert controller.plan is not None and controller.plan.after.nodes == "6"
    result = asyncio.run(controller.execute())
    assert (result.status, result.source, provider.asked) == ("verified", "mcp", 0)
    assert len(fresh_sam.mdb.models["Model-1"].parts["Plate"].nodes) == 6


def test_the_callers_plan_warnings_about_the_compiled_calls_join_the_plan(tmp_path):
    controller, _ = make(tmp_path)
    seen: list[list[str]] = []

    def warnings(fragments: Any, prediction: Any) -> list[str]:
        seen.append([f.tool for f in fragments])
        assert prediction.element_count.min > 0  # what the calls leave: the built plate
        return ["selection by element labels 1-2 came from part Plate"]

    assert plan(controller, plan_warnings=warnings) == Phase.PLAN
    assert seen == [["build_part", "audit_part"]]
    assert controller.plan is not None
    assert controller.plan.warnings[-1] == "selection by element labels 1-2 came from part Plate"
    written = json.loads((run_dir(controller) / "plan.json").read_text())
    assert written["warnings"] == controller.plan.warnings
