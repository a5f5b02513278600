"""Collection rounds held to the next tool's schema per profile (runtime/run/constrained.py),
every request bounded by max_tokens, and what happens when a server refuses or breaks the
constraint or an answer is cut at its bound."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from controller_fakes import (
    TARGET,
    FakeHost,
    FakePartModule,
    ScriptedProvider,
    calls,
    design,
    fake_compose,
    fake_spec,
    policy,
    settings,
)

from sam_plugin.runtime.events import read_events
from sam_plugin.runtime.provider.errors import ProviderError
from sam_plugin.runtime.provider.types import ChatResponse
from sam_plugin.runtime.run import budgets
from sam_plugin.runtime.run.controller import Phase, RunController

SPEC = fake_spec("build", "audit", summary="Build one QUAD plate.")
GOOD = {"quads": 1}


def answer(content: str, finish: str = "stop") -> ChatResponse:
    return ChatResponse(content=content, reasoning="", tool_calls=[], finish_reason=finish,
                        usage=None, raw_sse=b"data: [DONE]\n\n")


def wrapped(tool: str, arguments: dict) -> ChatResponse:
    return answer(json.dumps({"name": tool, "arguments": arguments}))


def run(tmp_path: Path, provider: ScriptedProvider, profile: str, repairs: int = 2, **extra):
    runs = tmp_path / "runs"
    controller = RunController(
        runs_dir=runs, settings=settings(profile=profile, **extra),
        # the whole spec's request, whose shape this checks (in parts: test_design_parts.py)
        policy=policy(repair_rounds=repairs, design="whole"),
        host=FakeHost(journal=runs / "submissions.jsonl"),
        provider_factory=provider.factory, module_factory=lambda mode: FakePartModule(),
        composer=fake_compose)
    assert asyncio.run(controller.submit("plate", "part", TARGET)) == Phase.REVIEW
    result = asyncio.run(controller.confirm("part", TARGET))
    events = read_events(controller.runs_dir / controller.run_id / "events.jsonl")
    stored = json.loads((controller.runs_dir / controller.run_id / "tool_calls.json")
                        .read_text()) if result.status == "verified" else []
    return result, events, stored


def test_llamacpp_holds_each_round_to_the_call_and_reads_it_from_the_content(tmp_path):
    provider = ScriptedProvider(design(SPEC), wrapped("build_part", GOOD),
                                wrapped("audit_part", {}))
    result, _, stored = run(tmp_path, provider, "llamacpp")
    assert result.status == "verified" and result.repairs == 0
    assert [(c["tool"], c["source"]) for c in stored] == [("build_part", "content"),
                                                          ("audit_part", "content")]
    first, build, audit = provider.requests
    held = first.options.response_format  # the spec held to its schema (the fake module's)
    assert held["type"] == "json_schema" and held["json_schema"]["name"] == "spec"
    # design: no tools, bounded by the largest answer the held schema allows (within a ceiling)
    schema = held["json_schema"]["schema"]
    assert first.tools is None and first.options.max_tokens == min(
        budgets.DESIGN_HELD_CEILING, budgets.largest_answer_tokens(schema))
    # the spec, or the refusal answer
    assert [v["required"] for v in schema["anyOf"]] == [["summary", "steps"], ["refuse"]]
    assert build.tools is None  # the grammar holds the shape; the message says it in words
    assert '{"name": "build_part", "arguments": {...}}' in build.messages[-1]["content"]
    assert "Arguments (? marks an optional field):" in build.messages[-1]["content"]
    schema = build.options.response_format["json_schema"]["schema"]
    assert schema["properties"]["name"] == {"const": "build_part"}
    assert build.options.max_tokens >= 512 and build.options.tool_choice is None
    assert audit.options.response_format["json_schema"]["schema"]["properties"]["name"] == {
        "const": "audit_part"}


def test_ollama_sends_no_tools_names_the_tool_in_words_and_reads_the_arguments(tmp_path):
    provider = ScriptedProvider(design(SPEC), answer('{"quads": 1}'), answer("{}"))
    result, _, stored = run(tmp_path, provider, "ollama")
    assert result.status == "verified"
    assert [c["source"] for c in stored] == ["content", "content"]
    build = provider.requests[1]
    assert build.tools is None
    assert build.options.response_format["json_schema"]["schema"] == {"type": "object"}
    assert "Answer with the arguments of build_part as one JSON object and nothing else" in \
        build.messages[-1]["content"]


def test_vllm_names_the_tool_it_asks_for(tmp_path):
    provider = ScriptedProvider(design(SPEC), calls(("build_part", GOOD)),
                                calls(("audit_part", {})))
    result, _, _ = run(tmp_path, provider, "vllm")
    assert result.status == "verified"
    assert [r.options.tool_choice for r in provider.requests[1:]] == [
        {"type": "function", "function": {"name": "build_part"}},
        {"type": "function", "function": {"name": "audit_part"}}]


def test_a_refused_constraint_is_asked_again_once_unconstrained_and_recorded(tmp_path):
    refusal = ProviderError("bad_request", "JSON schema conversion failed", status_code=400)
    provider = ScriptedProvider(design(SPEC), refusal, calls(("build_part", GOOD)),
                                wrapped("audit_part", {}))
    result, events, stored = run(tmp_path, provider, "llamacpp")
    assert result.status == "verified" and result.repairs == 0
    retry, audit = provider.requests[2], provider.requests[3]
    assert retry.options.response_format is None and retry.options.max_tokens
    assert audit.options.response_format is not None  # only the refused tool's schema goes
    dropped = [e for e in events if e["event"] == "constraint_dropped"]
    assert [(e["tool"], e["constraint"]) for e in dropped] == [("build_part", "wrapped")]
    assert "JSON schema conversion failed" in dropped[0]["reason"]
    assert [c["source"] for c in stored] == ["model", "content"]


def test_a_broken_constraint_is_read_by_text_recovery_before_asking_again(tmp_path):
    text = '<tool_call>{"name": "build_part", "arguments": {"quads": 1}}</tool_call>'
    provider = ScriptedProvider(design(SPEC), answer(text), answer("No idea."),
                                calls(("audit_part", {})))
    result, events, stored = run(tmp_path, provider, "llamacpp")
    assert result.status == "verified" and result.repairs == 0
    # build_part: the broken answer held a text call; audit_part: prose, asked again once
    assert len(provider.requests) == 4
    assert provider.requests[3].options.response_format is None
    assert [(c["tool"], c["source"]) for c in stored] == [("build_part", "text"),
                                                          ("audit_part", "model")]
    assert [e["tool"] for e in events if e["event"] == "constraint_dropped"] == [
        "build_part", "audit_part"]


def test_an_answer_cut_at_its_bound_says_so_and_gets_a_repair_with_twice_the_bound(tmp_path):
    provider = ScriptedProvider(design(SPEC), answer('{"name": "build_part", "argu', "length"),
                                wrapped("build_part", GOOD), wrapped("audit_part", {}))
    result, events, _ = run(tmp_path, provider, "llamacpp")
    assert result.status == "verified" and result.repairs == 1
    first, repair = provider.requests[1].options, provider.requests[2].options
    assert repair.max_tokens == 2 * first.max_tokens
    assert repair.response_format == first.response_format  # the repair is constrained too
    requested = [e for e in events if e["event"] == "repair_requested"][0]
    assert requested["headline"] == (
        f"the answer was cut off at its limit of {first.max_tokens} tokens (max_tokens)")
    assert "cut off" in provider.requests[2].messages[-1]["content"]


def test_without_constraint_the_rounds_are_as_before_but_bounded(tmp_path):
    provider = ScriptedProvider(design(SPEC), calls(("build_part", GOOD)),
                                calls(("audit_part", {})))
    result, _, _ = run(tmp_path, provider, "llamacpp", constrained_calls=False,
                       call_max_tokens=700, design_max_tokens=300)
    assert result.status == "verified"
    assert [(r.options.response_format, r.options.max_tokens) for r in provider.requests] == [
        (None, 300), (None, 700), (None, 700)]


def test_a_design_answer_cut_at_its_bound_gets_one_repair_with_twice_the_bound(tmp_path):
    provider = ScriptedProvider(answer("Build one QUAD plate of 1 x 1 and then", "length"),
                                design(SPEC), calls(("build_part", GOOD)),
                                calls(("audit_part", {})))
    result, events, _ = run(tmp_path, provider, "generic", design_max_tokens=400)
    assert result.status == "verified"
    first, again = provider.requests[0], provider.requests[1]
    assert (first.options.max_tokens, again.options.max_tokens) == (400, 800)
    assert "cut off at its limit of 400 tokens" in again.messages[-1]["content"]
    requested = [e for e in events if e["event"] == "repair_requested"]
    assert requested[0]["layer"] == "design"
    assert (tmp_path / "runs" / result.run_id / "provider_design_response.repair.sse").is_file()


def test_a_design_answer_cut_twice_fails_at_design_saying_so(tmp_path):
    cut = answer("Build one QUAD plate of 1 x 1 and then", "length")
    provider = ScriptedProvider(cut, cut)
    runs = tmp_path / "runs"
    controller = RunController(
        runs_dir=runs, settings=settings(profile="generic"), policy=policy(),
        host=FakeHost(journal=runs / "submissions.jsonl"), provider_factory=provider.factory,
        module_factory=lambda mode: FakePartModule(), composer=fake_compose)
    assert asyncio.run(controller.submit("plate", "part", TARGET)) == Phase.FAILED
    assert controller.result.error.layer == "design"
    assert "cut off again at its output limit" in controller.result.error.message
