"""Specs worth confirming (issue 13): an answer that says nothing is never offered, and the
design request says plainly whether the target exists and what it holds."""

from __future__ import annotations

import asyncio

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
from sam_plugin.runtime.run.design_check import unworthy_spec


@pytest.mark.parametrize("spec", [
    "",
    "   \n",
    "Planned Part capabilities: build",
    "**Planned Part capabilities: build**",
    "Sure!\n`Planned Part capabilities: build, audit`",
    "计划 Part 操作类别：build",
    "好的。\n计划 Part 操作类别：build",
    "Expected results: refine, audit",  # a real 0.5B answer
    "Expected results: 60 elements\nPlanned Part capabilities: build",
    "预期结果：60 个单元\n计划 Part 操作类别：build",
])
def test_an_answer_with_nothing_beyond_its_capability_line_is_not_worth_confirming(spec):
    why = unworthy_spec(spec, "Part")
    assert why is not None
    assert "more capable model" in why and "more specific" in why


@pytest.mark.parametrize("spec", [
    "Build a 60 x 100 QUAD plate.\nPlanned Part capabilities: build",
    "Move it.\nPlanned Part capabilities: transform",
    "建立 60 x 100 的板。\n计划 Part 操作类别：build",
    "Build a plate",  # no capability line: routing decides, not this check
])
def test_a_spec_that_says_something_is_offered(spec):
    assert unworthy_spec(spec, "Part") is None


def _controller(tmp_path, provider, quads=0):
    host = FakeHost(quads=quads)
    return RunController(
        runs_dir=tmp_path / "runs", settings=settings(), policy=policy(), host=host,
        provider_factory=provider.factory, module_factory=lambda mode: FakePartModule(),
        composer=fake_compose,
    )


def test_a_capability_line_alone_fails_at_design_and_is_never_in_review(tmp_path):
    provider = ScriptedProvider(design("Planned Part capabilities: build"))
    controller = _controller(tmp_path, provider)
    phases = []
    controller.subscribe(lambda e: phases.append(e.data.get("phase")))
    assert asyncio.run(controller.submit("a plate", "part", TARGET)) == Phase.FAILED
    assert controller.result.error.layer == "design"
    assert "says nothing beyond its summary line" in controller.result.error.message
    assert "review" not in phases
