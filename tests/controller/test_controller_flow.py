"""The gated pipeline end to end over fakes: artifacts, result.json, events, status words."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from controller_fakes import (
    API_KEY,
    HANG,
    TARGET,
    ScriptedProvider,
    build_controller,
    calls,
    design,
    fake_spec,
    settings,
)

from sam_plugin.errors import ControllerBusy, ControllerStateError, ProviderError, SubmitRefused
from sam_plugin.runtime.events import read_events
from sam_plugin.runtime.run.controller import Phase, RunController
from sam_plugin.runtime.store.run_history import list_runs

SPEC_BUILD = fake_spec("build", "audit", summary="Build one QUAD plate.")
SPEC_THREE = fake_spec("translate", "repair", "audit", summary="Move it, merge, audit.")

ARTIFACTS = [
    "request.txt",
    "workspace.json",
    "design.txt",
    "design_route.json",
    "provider_design_response.sse",
    "provider_tool_response.sse",
    "tool_calls.json",
    "normalized_calls.json",
    "generated_script.py",
    "plan.json",
    "result.json",
    "events.jsonl",
    "part_audit.json",
]


def make(tmp_path: Path, provider: ScriptedProvider, quads: int = 0, **kw):
    built = build_controller(tmp_path, provider, quads=quads, **kw)
    return built.controller, built.host, built.module


def run_dir(controller: RunController) -> Path:
    return controller.runs_dir / controller.run_id


def test_build_and_audit_is_verified_with_every_artifact(tmp_path):
    provider = ScriptedProvider(
        design(SPEC_BUILD), calls(("build_part", {"quads": 2}), ("audit_part", {}))
    )
    controller, host, _ = make(tmp_path, provider)
    seen: list[str] = []
    controller.subscribe(lambda e: seen.append(e.name))

    assert asyncio.run(controller.submit("a plate", "part", TARGET)) == Phase.REVIEW
    # what Review shows is the spec rendered from its data; spec.json holds the data
    assert controller.spec_text.startswith("Spec: Build one QUAD plate.\n\nSteps:\n1. build")
    assert json.loads((run_dir(controller) / "spec.json").read_text()) == json.loads(SPEC_BUILD)
    assert (run_dir(controller) / "design.txt").read_text() == controller.spec_text + "\n"
    assert controller.route.tools == ["build_part", "audit_part"]
    result = asyncio.run(controller.confirm("part", TARGET))

    assert result.status == "verified" and controller.phase == Phase.COMPLETE
    assert result.phase == "complete" and result.submissions == 1
    assert result.tools == ["build_part", "audit_part"]
    assert result.before.node_count == 0 and result.after.node_count == 8
    assert result.after.shape_counts == {"QUAD": 2, "TRI": 0, "BEAM": 0}
    assert result.error is None and all(c.ok for c in result.checks)
    assert len(host.executions) == 1
    folder = run_dir(controller)
    for name in ARTIFACTS:
        assert (folder / name).is_file(), name
    stored = json.loads((folder / "result.json").read_text())
    assert stored["status"] == "verified" and stored["script_sha256"] == result.script_sha256
    assert json.loads((folder / "design_route.json").read_text())["tools"] == [
        "build_part",
        "audit_part",
    ]
    assert stored["server"] == {"kind": "unknown", "version": ""}  # nothing answers at :9
    assert stored["profile"] == "openai"  # as set
    persisted = [r["event"] for r in read_events(folder / "events.jsonl")]
    assert persisted == [
        "server_detected",
        "observation_completed",
        "design_received",
        "design_confirmed",
        "tool_call_reconstructed",
        "tool_call_reconstructed",
        "tool_call_collected",
        "tool_call_collected",
        "tool_call_compiled",
        "tool_call_compiled",
        "script_composed",
        "plan_shown",
        "plan_approved",
        "execution_submitted",
        "execution_completed",
        "readback_verified",
    ]
    assert "design_delta" in seen and "phase_changed" in seen
    assert "design_delta" not in persisted


def test_status_words_follow_the_truth(tmp_path):
    provider = ScriptedProvider(design(SPEC_BUILD), calls(("build_part", {}), ("audit_part", {})))
    controller, _, _ = make(tmp_path, provider)
    labels: list[str] = []
    controller.subscribe(
        lambda e: labels.append(e.data()["label"]) if e.name == "phase_changed" else None
    )
    asyncio.run(controller.submit("a plate", "part", TARGET))
    asyncio.run(controller.confirm("part", TARGET))
    assert labels == [
        "Observing the workspace (read-only)",
        "Designing: the model is writing the spec",
        "Review: spec proposed, waiting for your confirmation",
        "Collecting tool calls 0/2 (collected, not executed)",
        "Collecting tool calls 2/2 (collected, not executed)",
        "Compiling 2 collected call(s)",
        "Plan: 2 call(s), waiting for you to execute",
        "Executing: script submitted once",
        "Verifying: reading the part back",
        "Verified",
    ]


def test_api_key_appears_in_no_file_of_the_runs_dir(tmp_path):
    provider = ScriptedProvider(design(SPEC_BUILD), calls(("build_part", {}), ("audit_part", {})))
    controller, _, _ = make(tmp_path, provider)
    asyncio.run(controller.submit("a plate", "part", TARGET))
    asyncio.run(controller.confirm("part", TARGET))
    files = [p for p in controller.runs_dir.rglob("*") if p.is_file()]
    assert len(files) >= len(ARTIFACTS) + 1  # + submissions.jsonl
    for path in files:
        assert API_KEY.encode() not in path.read_bytes(), path


def test_submit_refuses_incomplete_settings_naming_the_fields(tmp_path):
    provider = ScriptedProvider()
    controller, _, _ = make(tmp_path, provider, settings=settings(base_url="", model=""))
    with pytest.raises(SubmitRefused) as refused:
        asyncio.run(controller.submit("a plate", "part", TARGET))
    assert str(refused.value).startswith("provider settings incomplete: missing base_url, model")
    assert not (controller.runs_dir).exists() or not any(controller.runs_dir.iterdir())


def test_submit_refuses_bad_mode_and_empty_request(tmp_path):
    controller, _, _ = make(tmp_path, ScriptedProvider())
    with pytest.raises(SubmitRefused, match=r"mode: unknown mode 'contact'; legal modes: "
                                            r"part, property, mesh, load"):
        asyncio.run(controller.submit("x", "contact", TARGET))
    with pytest.raises(SubmitRefused, match="request: empty"):
        asyncio.run(controller.submit("  ", "part", TARGET))


def test_submit_while_busy_or_in_review_is_refused(tmp_path):
    provider = ScriptedProvider(HANG)
    controller, _, _ = make(tmp_path, provider)

    async def scenario():
        first = asyncio.create_task(controller.submit("a plate", "part", TARGET))
        await asyncio.sleep(0.01)
        assert controller.phase == Phase.DESIGNING
        with pytest.raises(ControllerBusy, match="submit: a run is designing"):
            await controller.submit("again", "part", TARGET)
        await controller.cancel()
        return await first

    assert asyncio.run(scenario()) == Phase.CANCELLED
    assert controller.result.status == "cancelled"
    provider.queue.extend([design(SPEC_BUILD)])
    asyncio.run(controller.submit("a plate", "part", TARGET))
    with pytest.raises(ControllerBusy, match="a spec is waiting for review"):
        asyncio.run(controller.submit("again", "part", TARGET))


def test_cancel_during_design_closes_the_stream_and_writes_the_result(tmp_path):
    provider = ScriptedProvider(HANG)
    controller, host, _ = make(tmp_path, provider)

    async def scenario():
        task = asyncio.create_task(controller.submit("a plate", "part", TARGET))
        await asyncio.sleep(0.01)
        await controller.cancel()
        return await task

    assert asyncio.run(scenario()) == Phase.CANCELLED
    result = json.loads((run_dir(controller) / "result.json").read_text())
    assert result["status"] == "cancelled" and result["submissions"] == 0
    assert host.executions == []


def test_cancel_in_review_writes_cancelled(tmp_path):
    controller, host, _ = make(tmp_path, ScriptedProvider(design(SPEC_BUILD)))
    asyncio.run(controller.submit("a plate", "part", TARGET))
    asyncio.run(controller.cancel())
    assert controller.phase == Phase.CANCELLED and controller.result.status == "cancelled"
    with pytest.raises(ControllerStateError):
        asyncio.run(controller.confirm("part", TARGET))
    assert host.executions == []


def test_prose_gets_one_design_repair_round_then_fails_at_design_with_advice(tmp_path):
    provider = ScriptedProvider(design("Make it nicer somehow."),
                                design("I will make it nicer.\nPlanned Part capabilities: edit"))
    controller, host, _ = make(tmp_path, provider, quads=1)
    assert asyncio.run(controller.submit("nicer", "part", TARGET)) == Phase.FAILED
    assert controller.result.error.layer == "design"
    assert controller.result.error.message.startswith(
        "the model did not write a usable spec (the answer is prose, not a spec: answer with "
        "one JSON object")
    assert "Try a more capable model" in controller.result.error.message
    # the repair round is a design request too (no tools, I1) and names the problem
    assert provider.offered == [None, None]
    repair = provider.requests[1].messages[-1]["content"]
    assert repair.startswith("SAM Agent cannot use this answer as a spec:\n- the answer is "
                             "prose, not a spec")
    assert provider.requests[1].messages[-2] == {"role": "assistant",
                                                 "content": "Make it nicer somehow."}
    events = [r["event"] for r in read_events(run_dir(controller) / "events.jsonl")]
    assert events == ["server_detected", "observation_completed", "repair_requested",
                      "run_failed"]
    assert not (run_dir(controller) / "spec.json").exists() and host.executions == []


def test_json_failing_the_schema_is_repaired_once_naming_the_fields(tmp_path):
    wrong = json.dumps({"summary": "Build.", "steps": [
        {"capability": "build", "action": "build", "values": {"quads": 0}, "text": ""}]})
    provider = ScriptedProvider(design(f"```json\n{wrong}\n```"), design(SPEC_BUILD),
                                calls(("build_part", {"quads": 1}), ("audit_part", {})))
    controller, _, _ = make(tmp_path, provider)
    assert asyncio.run(controller.submit("a plate", "part", TARGET)) == Phase.REVIEW
    assert "- steps[0].values.quads: 0 is less than the minimum of 1" in \
        provider.requests[1].messages[-1]["content"]
    assert (run_dir(controller) / "provider_design_response.repair.sse").is_file()
    assert asyncio.run(controller.confirm("part", TARGET)).status == "verified"


def test_steps_the_target_cannot_take_are_a_design_problem(tmp_path):
    # the part is empty: it can only be built, and the model is told so
    provider = ScriptedProvider(design(fake_spec("translate")), design(fake_spec("translate")))
    controller, _, _ = make(tmp_path, provider)
    assert asyncio.run(controller.submit("move it", "part", TARGET)) == Phase.FAILED
    assert ("steps: Plate is missing or empty, so it can only be built; write steps of build "
            "(the spec plans transform)") in provider.requests[1].messages[-1]["content"]


def test_empty_target_routes_to_build(tmp_path):
    provider = ScriptedProvider(design(fake_spec("build")))
    controller, _, _ = make(tmp_path, provider)
    asyncio.run(controller.submit("plate", "part", TARGET))
    route = json.loads((run_dir(controller) / "design_route.json").read_text())
    assert route["method"] == "empty_target" and route["tools"] == ["build_part"]


def test_empty_spec_fails_at_design(tmp_path):
    controller, _, _ = make(tmp_path, ScriptedProvider(design("   ")))
    asyncio.run(controller.submit("plate", "part", TARGET))
    assert controller.result.error.layer == "design"
    assert controller.result.error.message == (
        "the model returned an empty spec, so there is nothing to review. Try a more capable "
        "model (Settings, or --api-model), or make the request more specific: name the "
        "operation and its numbers (sizes, counts, element shapes, labels or sets)."
    )


def test_provider_error_in_design_fails_at_provider_layer(tmp_path):
    error = ProviderError("auth", "invalid key (HTTP 401)", raw_sse=b'{"error": 1}')
    controller, _, _ = make(tmp_path, ScriptedProvider(error))
    asyncio.run(controller.submit("plate", "part", TARGET))
    assert controller.result.status == "failed"
    assert controller.result.error.layer == "provider"
    assert controller.result.error.message == (
        "the design request failed: auth: invalid key (HTTP 401)"
    )
    assert (run_dir(controller) / "provider_design_response.sse").read_bytes() == b'{"error": 1}'


def test_list_runs_newest_first_with_status_and_request(tmp_path):
    provider = ScriptedProvider(
        design(SPEC_BUILD),
        calls(("build_part", {}), ("audit_part", {})),
        design("Make it nicer somehow."),
    )
    controller, _, _ = make(tmp_path, provider)
    asyncio.run(controller.submit("first plate", "part", TARGET))
    asyncio.run(controller.confirm("part", TARGET))
    first = controller.run_id
    import time

    time.sleep(1.05)  # run ids have one-second resolution
    asyncio.run(controller.submit("second", "part", TARGET))  # target no longer empty: refused
    runs = list_runs(controller.runs_dir)
    assert [r.run_id for r in runs] == [controller.run_id, first]
    assert [(r.status, r.request, r.module) for r in runs] == [
        ("failed", "second", "part"),
        ("verified", "first plate", "part"),
    ]
