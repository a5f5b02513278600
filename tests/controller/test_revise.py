"""Ask for changes (issue 16): the design round again with the remark and the previous spec,
no tools, the new spec replaces the old, every version kept, bounded; per-run provider usage."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
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
    fake_step,
    policy,
    settings,
)

from sam_plugin.runtime.events import read_events
from sam_plugin.runtime.provider.errors import ProviderError
from sam_plugin.runtime.provider.types import ChatResponse
from sam_plugin.runtime.run.controller import ControllerStateError, Phase, RunController
from sam_plugin.runtime.run.revision import RevisionRefused

FIRST = fake_spec(fake_step("build", quads=1, text="One plate."),
                  summary="Build one QUAD plate.")
SECOND = fake_spec(fake_step("build", quads=2, text="Two plates."),
                   summary="Build two QUAD plates.", expected={"nodes": 8})


def make(tmp_path: Path, provider: ScriptedProvider, **kw) -> RunController:
    return build_controller(tmp_path, provider, **kw).controller


def with_usage(response: ChatResponse, prompt: int, completion: int) -> ChatResponse:
    return response.model_copy(update={"usage": {"prompt_tokens": prompt,
                                                 "completion_tokens": completion}})


def test_a_remark_redesigns_without_tools_and_the_new_spec_is_confirmed(tmp_path):
    provider = ScriptedProvider(with_usage(design(FIRST), 100, 20),
                                with_usage(design(SECOND), 150, 25),
                                calls(("build_part", {"quads": 2})))
    controller = make(tmp_path, provider, provider_name="Replay")
    assert asyncio.run(controller.submit("a plate", "part", TARGET)) == Phase.REVIEW
    first_words = controller.spec_text
    assert asyncio.run(controller.revise("  make it two plates ")) == Phase.REVIEW
    assert controller.spec_text.startswith("Spec: Build two QUAD plates.")
    revision = provider.requests[1]
    assert revision.tools is None  # I1 holds for a revision too
    assert [m["role"] for m in revision.messages] == ["system", "user", "assistant", "user"]
    # the remark goes with the current spec, as data
    assert json.loads(revision.messages[2]["content"]) == json.loads(FIRST)
    assert "make it two plates" in revision.messages[3]["content"]
    # what changed between the versions, as a list of fields
    changes = [
        {"path": "summary", "words": "summary: “Build one QUAD plate.” → “Build two QUAD "
                                     "plates.”"},
        {"path": "steps[0].values.quads", "words": "step 1 quads: 1 → 2"},
        {"path": "steps[0].text", "words": "step 1 text: “One plate.” → “Two plates.”"},
        {"path": "expected", "words": "expected results: not stated → 8 nodes"}]
    assert [c.as_json() for c in controller.spec_changes] == changes
    run = controller.runs_dir / controller.run_id
    assert (run / "design.txt").read_text() == controller.spec_text + "\n"
    assert (run / "design.1.txt").read_text() == first_words + "\n"
    assert (run / "design.2.txt").read_text() == controller.spec_text + "\n"
    assert json.loads((run / "spec.json").read_text()) == json.loads(SECOND)
    assert json.loads((run / "spec.1.json").read_text()) == json.loads(FIRST)
    assert (run / "provider_design_response.2.sse").exists()
    assert json.loads((run / "revisions.json").read_text()) == [
        {"version": 2, "remark": "make it two plates", "changes": changes, "author": "model"}]
    result = asyncio.run(controller.confirm("part", TARGET))
    assert result.status == "verified"
    # the collection round was given the revised spec (words and data)
    assert controller.spec_text in provider.requests[2].messages[1]["content"]
    assert '"quads": 2' in provider.requests[2].messages[1]["content"]
    assert result.spec_versions == 2
    assert result.provider is not None
    assert (result.provider.name, result.provider.model, result.provider.calls) == (
        "Replay", settings().model, 3)
    assert (result.provider.prompt_tokens, result.provider.completion_tokens) == (250, 45)
    assert result.provider.seconds >= 0
    saved = json.loads((run / "result.json").read_text())
    assert saved["provider"]["prompt_tokens"] == 250
    events = [e["event"] for e in read_events(run / "events.jsonl")]
    assert "revision_requested" in events


def test_revisions_are_bounded_and_need_a_remark(tmp_path):
    provider = ScriptedProvider(design(FIRST), design(SECOND))
    controller = make(tmp_path, provider, max_revisions=1)
    asyncio.run(controller.submit("a plate", "part", TARGET))
    with pytest.raises(RevisionRefused, match="remark: empty"):
        asyncio.run(controller.revise("   "))
    asyncio.run(controller.revise("two"))
    with pytest.raises(RevisionRefused, match="already revised 1 time"):
        asyncio.run(controller.revise("three"))
    assert controller.phase == Phase.REVIEW


def test_a_failed_revision_keeps_the_previous_spec_in_review(tmp_path):
    error = ProviderError("connection", "connection: refused")
    provider = ScriptedProvider(design(FIRST), error, calls(("build_part", {"quads": 1})))
    controller = make(tmp_path, provider)
    asyncio.run(controller.submit("a plate", "part", TARGET))
    first_words = controller.spec_text
    assert asyncio.run(controller.revise("two")) == Phase.REVIEW
    assert controller.spec_text == first_words and controller.spec_changes == []
    assert "previous spec stands" in controller.result.error.message
    run = controller.runs_dir / controller.run_id
    assert json.loads((run / "spec.json").read_text()) == json.loads(FIRST)
    assert asyncio.run(controller.confirm("part", TARGET)).status == "verified"


def test_revise_outside_review_is_refused(tmp_path):
    controller = make(tmp_path, ScriptedProvider())
    with pytest.raises(ControllerStateError, match="revise: no spec"):
        asyncio.run(controller.revise("x"))


def test_the_design_request_says_an_existing_target_is_not_new(tmp_path):
    provider = ScriptedProvider(design(FIRST))
    runs = tmp_path / "runs"
    module = FakePartModule()
    controller = RunController(runs_dir=runs, settings=settings(), policy=policy(), host=FakeHost(
        quads=3, journal=runs / "submissions.jsonl"), provider_factory=provider.factory,
        module_factory=lambda mode: module, composer=fake_compose)
    asyncio.run(controller.submit("a plate", "part", TARGET))
    user = provider.requests[0].messages[1]["content"]
    assert "ALREADY EXISTS with" in user and "not a new part" in user


def test_a_revision_that_changes_nothing_says_so(tmp_path):
    """Replay answers a remark with the recording it has: the same spec, byte for byte. The
    changes are an empty list, and the status says the spec was not changed."""
    provider = ScriptedProvider(design(FIRST), design(FIRST))
    controller = make(tmp_path, provider)
    asyncio.run(controller.submit("a plate", "part", TARGET))
    assert asyncio.run(controller.revise("two plates")) == Phase.REVIEW
    assert controller.spec_changes == []
    assert controller.phase_label == ("Review: the model answered with the same spec (nothing "
                                      "changed), waiting for your confirmation")
