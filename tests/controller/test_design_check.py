"""Specs worth confirming: an answer that is not a spec (a capability line alone, a summary
and nothing else, an empty summary) is never offered for confirmation; it gets one design
repair round, then the run fails at design (docs/architecture.md §4 "The spec")."""

from __future__ import annotations

import asyncio
import json

import pytest
from controller_fakes import (
    TARGET,
    FakeHost,
    FakePartModule,
    ScriptedProvider,
    design,
    fake_compose,
    policy,
    settings,
)

from sam_plugin.runtime.run.controller import Phase, RunController


def _controller(tmp_path, provider, quads=0):
    host = FakeHost(quads=quads)
    return RunController(
        runs_dir=tmp_path / "runs", settings=settings(), policy=policy(), host=host,
        provider_factory=provider.factory, module_factory=lambda mode: FakePartModule(),
        composer=fake_compose,
    )


@pytest.mark.parametrize(("answer", "problem"), [
    ("Planned Part capabilities: build", "the answer is prose, not a spec"),
    ("计划 Part 操作类别：build", "the answer is prose, not a spec"),
    ("Expected results: refine, audit", "the answer is prose, not a spec"),  # a real 0.5B
    (json.dumps({"summary": "Build a plate."}), "'steps' is a required property"),
    (json.dumps({"summary": "Build a plate.", "steps": []}), "steps: [] should be non-empty"),
    (json.dumps({"summary": "", "steps": [{"capability": "build", "action": "build",
                                           "values": {}, "text": ""}]}),
     "summary: '' should be non-empty"),
])
def test_an_answer_that_is_not_a_spec_fails_at_design_and_is_never_in_review(
        tmp_path, answer, problem):
    provider = ScriptedProvider(design(answer), design(answer))
    controller = _controller(tmp_path, provider)
    phases = []
    controller.subscribe(lambda e: phases.append(e.data().get("phase")))
    assert asyncio.run(controller.submit("a plate", "part", TARGET)) == Phase.FAILED
    assert controller.result.error.layer == "design"
    assert problem in controller.result.error.message
    assert "more capable model" in controller.result.error.message
    assert "review" not in phases
