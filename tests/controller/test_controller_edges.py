"""Edges of the pipeline: exploration hook, host exceptions, invalidation mid-collection."""

from __future__ import annotations

import asyncio
import json

from controller_fakes import (
    TARGET,
    FakeHost,
    FakePartModule,
    ScriptedProvider,
    build_controller,
    calls,
    design,
    fake_compose,
    fake_spec,
    policy,
    settings,
)

from sam_plugin.runtime.run.controller import DRIFT_MESSAGE, PARTIAL_WARNING, Phase, RunController
from sam_plugin.runtime.store.journal import SubmissionJournal

SPEC = fake_spec("build", "audit", summary="Build a plate.")


def make(tmp_path, provider, host=None, **kw):
    built = build_controller(tmp_path, provider, host=host or FakeHost(), **kw)
    return built.controller, built.host


def test_explore_puts_the_explorer_text_into_the_design_prompt(tmp_path):
    provider = ScriptedProvider(design(SPEC))
    seen = []

    async def explorer(host, observation):
        seen.append(observation.target)
        return "regions: one component"

    controller, _ = make(tmp_path, provider, host=FakeHost(quads=2), explorer=explorer)
    phases = []
    controller.subscribe(
        lambda e: phases.append(e.data()["phase"]) if e.name == "phase_changed" else 0
    )
    assert asyncio.run(controller.submit("x", "part", TARGET, explore=True)) == Phase.REVIEW
    assert phases == ["observing", "exploring", "designing", "review"]
    assert seen == [TARGET]
    assert (
        "Exploration (read-only): regions: one component"
        in (provider.requests[0].messages[1]["content"])
    )


def test_explore_is_skipped_for_an_empty_target_and_says_so(tmp_path):
    provider = ScriptedProvider(design(SPEC))
    controller, _ = make(tmp_path, provider)
    labels = []
    controller.subscribe(lambda e: labels.append(e.data().get("label")))
    assert asyncio.run(controller.submit("x", "part", TARGET, explore=True)) == Phase.REVIEW
    assert "Exploring skipped: the target part is missing or empty" in labels
    assert len(provider.requests) == 1  # the design request only: nothing to ask about


def test_a_host_exception_during_execution_fails_once_with_the_traceback(tmp_path):
    class Exploding(FakeHost):
        def execute(self, script, target, output_dir):
            self.executions.append(script)
            raise ConnectionError("SAM went away")

    provider = ScriptedProvider(design(SPEC), calls(("build_part", {}), ("audit_part", {})))
    controller, host = make(tmp_path, provider, host=Exploding())
    asyncio.run(controller.submit("x", "part", TARGET))
    result = asyncio.run(controller.confirm("part", TARGET))
    assert len(host.executions) == 1 and result.submissions == 1
    assert result.error.layer == "execution"
    assert result.error.message.startswith(f"the script failed in SAM (ERROR). {PARTIAL_WARNING}")
    assert "ConnectionError: SAM went away" in result.error.message
    outcomes = [
        e.outcome for e in SubmissionJournal(controller.runs_dir / "submissions.jsonl").entries()
    ]
    assert outcomes == ["", "ERROR"]


def test_invalidate_during_collection_fails_before_execution(tmp_path):
    provider = ScriptedProvider(design(SPEC), calls(("build_part", {})), calls(("audit_part", {})))
    controller, host = make(tmp_path, provider)
    provider.before_answer = lambda n: controller.invalidate("mode changed") if n == 3 else None
    asyncio.run(controller.submit("x", "part", TARGET))
    result = asyncio.run(controller.confirm("part", TARGET))
    assert result.status == "failed" and host.executions == []
    assert result.error.message == f"{DRIFT_MESSAGE} (mode changed)"


def test_collection_text_never_poses_as_the_spec(tmp_path):
    chatty = calls(("build_part", {}), ("audit_part", {})).model_copy(
        update={"content": "Sure, here are the calls"}
    )
    provider = ScriptedProvider(design(SPEC), chatty)
    controller, _ = make(tmp_path, provider)
    deltas = []
    controller.subscribe(
        lambda e: deltas.append(e.data()["text"]) if e.name == "design_delta" else 0
    )
    asyncio.run(controller.submit("x", "part", TARGET))
    asyncio.run(controller.confirm("part", TARGET))
    assert "".join(deltas) == SPEC  # the answer as it streamed, then shown in words
    assert "Sure" not in controller.spec_text
    assert controller.spec_text.startswith("Spec: Build a plate.\n\nSteps:")


def test_collection_cancel_returns_cancelled_and_nothing_runs(tmp_path):
    provider = ScriptedProvider(design(SPEC), "hang")
    controller, host = make(tmp_path, provider)
    asyncio.run(controller.submit("x", "part", TARGET))

    async def scenario():
        task = asyncio.create_task(controller.confirm("part", TARGET))
        await asyncio.sleep(0.01)
        await controller.cancel()
        return await task

    result = asyncio.run(scenario())
    assert result.status == "cancelled" and host.executions == []
    stored = json.loads((controller.runs_dir / controller.run_id / "result.json").read_text())
    assert stored["status"] == "cancelled" and stored["phase"] == "cancelled"


def test_a_bug_in_a_module_fails_the_run_instead_of_leaving_it_busy(tmp_path):
    provider = ScriptedProvider(design(SPEC), design(SPEC))
    controller, _ = make(tmp_path, provider)
    module = controller._module_factory("part")
    original = module.route_steps
    module.route_steps = lambda capabilities, empty: {}["boom"]
    assert asyncio.run(controller.submit("x", "part", TARGET)) == Phase.FAILED
    assert controller.result.error.layer == "design"
    assert controller.result.error.message == (
        "internal error while designing: KeyError('boom'). Nothing was executed."
    )
    module.route_steps = original
    assert asyncio.run(controller.submit("x", "part", TARGET)) == Phase.REVIEW


def test_a_compiler_crash_fails_at_compile_and_nothing_runs(tmp_path):
    provider = ScriptedProvider(
        design(SPEC), calls(("build_part", {"quads": "many"}), ("audit_part", {}))
    )
    controller, host = make(tmp_path, provider)
    asyncio.run(controller.submit("x", "part", TARGET))
    result = asyncio.run(controller.confirm("part", TARGET))
    assert result.status == "failed" and result.error.layer == "compile"
    assert result.error.message.startswith("build_part: internal compiler error (ValueError(")
    assert host.executions == []


def test_a_missing_model_fails_at_observation_before_any_provider_call(tmp_path):
    from sam_plugin.compilers.protocol import Target

    provider = ScriptedProvider(design(SPEC))
    controller, _ = make(tmp_path, provider)
    phase = asyncio.run(controller.submit("x", "part", Target(model_name="Nope", part_name="P")))
    assert phase == Phase.FAILED and provider.requests == []
    assert controller.result.error.layer == "observation"
    assert controller.result.error.message == "model 'Nope' does not exist; models: Model-1"


def test_a_missing_part_fails_at_observation_when_the_mode_cannot_create_it(tmp_path):
    provider = ScriptedProvider(design(SPEC))
    host = FakeHost()
    module = FakePartModule()
    module.creates_target = False
    module.title = "Property"
    controller = RunController(
        runs_dir=tmp_path / "runs", settings=settings(), policy=policy(), host=host,
        provider_factory=provider.factory, module_factory=lambda mode: module,
        composer=fake_compose,
    )
    assert asyncio.run(controller.submit("x", "property", TARGET)) == Phase.FAILED
    assert provider.requests == []
    assert controller.result.error.layer == "observation"
    assert controller.result.error.message == (
        "part 'Plate' does not exist in model 'Model-1' (parts: none); Property mode works on "
        "an existing part: pick one, or build it in Part mode first"
    )


def test_a_runs_directory_that_is_a_file_is_refused_with_the_reason(tmp_path):
    import pytest

    from sam_plugin.errors import SubmitRefused

    blocker = tmp_path / "runs"
    blocker.write_text("not a directory")
    controller, _ = make(tmp_path, ScriptedProvider(design(SPEC)))
    with pytest.raises(SubmitRefused) as refused:
        asyncio.run(controller.submit("x", "part", TARGET))
    assert str(refused.value) == f"runs directory {blocker}: it is a file, not a directory"
