"""Bounded repair rounds (issue 13): a rejected answer gets N more tries, never more, and
nothing executes before every call is valid."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from controller_fakes import (
    TARGET,
    ScriptedProvider,
    build_controller,
    calls,
    design,
    fake_spec,
    policy,
    settings,
)

from sam_plugin.runtime.events import read_events
from sam_plugin.runtime.run.controller import Phase, RunController

SPEC_BUILD = fake_spec("build", "audit", summary="Build one QUAD plate.")
BAD = {"bad": 1, "quads": 1}
GOOD = {"quads": 1}


def make(tmp_path: Path, provider: ScriptedProvider, repairs: int = 2, **overrides):
    built = build_controller(tmp_path, provider, settings=settings(**overrides),
                             policy=policy(repair_rounds=repairs))
    labels: list[str] = []
    built.controller.subscribe(
        lambda e: labels.append(e.data()["label"]) if e.name == "phase_changed" else None
    )
    return built.controller, built.host, built.module, labels


def run_dir(controller: RunController) -> Path:
    return controller.runs_dir / controller.run_id


def events(controller: RunController, name: str) -> list[dict]:
    return [e for e in read_events(run_dir(controller) / "events.jsonl") if e["event"] == name]


def confirm(controller: RunController):
    assert asyncio.run(controller.submit("plate", "part", TARGET)) == Phase.REVIEW
    return asyncio.run(controller.confirm("part", TARGET))


def user_text(request) -> str:
    return request.messages[-1]["content"]


def test_a_compile_diagnostic_is_repaired_once_then_verified_with_one_submission(tmp_path):
    provider = ScriptedProvider(
        design(SPEC_BUILD),
        calls(("build_part", BAD), ("audit_part", {})),
        calls(("build_part", GOOD)),
    )
    controller, host, module, labels = make(tmp_path, provider)
    result = confirm(controller)
    assert result.status == "verified", result.error
    assert result.repairs == 1 and result.submissions == 1
    assert len(host.executions) == 1
    assert "Repair 1/2: build_part — bad: remove it; legal: quads" in labels
    # the repair round offers only the call the diagnostic named, shows the rejected call as
    # sent, the diagnostic and the other collected call (collected, not executed)
    assert provider.offered[2] == ["build_part"]
    text = user_text(provider.requests[2])
    assert 'build_part({"bad": 1, "quads": 1})' in text
    assert "bad: remove it; legal: quads" in text
    assert "collected, not executed" in text and "- audit_part({})" in text
    [requested] = events(controller, "repair_requested")
    assert requested["layer"] == "compile" and requested["tool"] == "build_part"
    assert "bad: remove it; legal: quads" in requested["diagnostic"]
    assert (requested["repair"], requested["of"]) == (1, 2)
    stored = json.loads((run_dir(controller) / "result.json").read_text())
    assert stored["repairs"] == 1
    tool_calls = json.loads((run_dir(controller) / "tool_calls.json").read_text())
    assert [(c["tool"], c["repair"]) for c in tool_calls] == [("build_part", 1), ("audit_part", 0)]
    assert json.loads(tool_calls[0]["arguments"]) == GOOD


def test_a_repair_never_reopens_a_call_the_diagnostic_did_not_name(tmp_path):
    provider = ScriptedProvider(
        design(SPEC_BUILD),
        calls(("build_part", GOOD), ("audit_part", BAD)),
        calls(("audit_part", {})),
    )
    controller, host, module, _ = make(tmp_path, provider)
    assert confirm(controller).status == "verified"
    assert provider.offered[2] == ["audit_part"]
    # build_part compiled once: kept, not re-opened, not recompiled
    assert module.compiled == ["build_part", "audit_part"]


def test_three_bad_answers_with_two_repairs_return_to_review_with_the_third_diagnostic(tmp_path):
    provider = ScriptedProvider(
        design(SPEC_BUILD),
        calls(("build_part", BAD), ("audit_part", {})),
        calls(("audit_part", {})),  # out of order: a tool-call rejection
        calls(("build_part", {"bad": 3})),
    )
    controller, host, module, labels = make(tmp_path, provider)
    result = confirm(controller)
    assert controller.phase == Phase.REVIEW and result.status == "rejected"
    assert result.repairs == 2 and result.submissions == 0
    assert host.executions == [] and provider.queue == type(provider.queue)()
    assert result.error.layer == "compile"
    assert "bad: remove it; legal: quads" in result.error.message
    assert "still rejected after 2 repair round(s)" in result.error.message
    assert [e["layer"] for e in events(controller, "repair_requested")] == ["compile", "tool_call"]
    assert "Repair 2/2: build_part — tool 'audit_part' was not offered" in " | ".join(labels)
    assert not (run_dir(controller) / "generated_script.py").exists()


def test_a_tool_call_rejection_is_repaired_offering_the_tools_still_needed(tmp_path):
    provider = ScriptedProvider(
        design(SPEC_BUILD),
        calls(("build_part", GOOD)),
        calls(("build_part", GOOD)),  # again: not offered any more
        calls(("audit_part", {})),
    )
    controller, host, _, _ = make(tmp_path, provider)
    result = confirm(controller)
    assert result.status == "verified" and result.repairs == 1
    assert provider.offered[1:] == [["build_part", "audit_part"], ["audit_part"], ["audit_part"]]
    text = user_text(provider.requests[3])
    assert "tool 'build_part' was not offered in this round; offered: audit_part" in text
    assert "- build_part(" in text and "collected, not executed" in text


def test_nothing_executes_until_the_repaired_call_is_valid(tmp_path):
    provider = ScriptedProvider(
        design(SPEC_BUILD),
        calls(("build_part", BAD), ("audit_part", {})),
        calls(("build_part", GOOD)),
    )
    controller, host, _, _ = make(tmp_path, provider)
    seen: list[int] = []
    provider.before_answer = lambda n: seen.append(len(host.executions))
    assert confirm(controller).status == "verified"
    assert seen == [0, 0, 0] and len(host.executions) == 1


def test_repairs_zero_returns_to_review_at_the_first_rejection(tmp_path):
    provider = ScriptedProvider(design(SPEC_BUILD), calls(("build_part", BAD), ("audit_part", {})))
    controller, host, _, _ = make(tmp_path, provider, repairs=0)
    result = confirm(controller)
    assert result.status == "rejected" and result.repairs == 0
    assert result.error.message.startswith("build_part: 1 problem(s)")
    assert events(controller, "repair_requested") == []


def test_a_call_written_as_text_is_recovered_where_the_profile_allows_it(tmp_path):
    """One whole-answer call a round: a fenced block, then a <tool_call> block."""
    first = '```json\n{"name": "build_part", "arguments": {"quads": 2}}\n```\n'
    second = '<tool_call>{"name": "audit_part", "arguments": {}}</tool_call>'
    provider = ScriptedProvider(design(SPEC_BUILD), design(first), design(second))
    controller, host, _, _ = make(tmp_path, provider, profile="ollama",
                                  constrained_calls=False)
    result = confirm(controller)
    assert result.status == "verified" and result.repairs == 0
    stored = json.loads((run_dir(controller) / "tool_calls.json").read_text())
    assert [(c["tool"], c["source"]) for c in stored] == [
        ("build_part", "text"), ("audit_part", "text")
    ]
    reconstructed = events(controller, "tool_call_reconstructed")
    assert all(e["recovered_from_text"] for e in reconstructed)


def test_calls_written_inside_prose_are_refused_not_taken(tmp_path):
    text = (
        "Sure! Here are the calls:\n```json\n"
        '{"name": "build_part", "arguments": {"quads": 2}}\n```\n'
        '<tool_call>{"name": "audit_part", "arguments": {}}</tool_call>\nDone.'
    )
    provider = ScriptedProvider(design(SPEC_BUILD), design(text))
    controller, host, _, _ = make(tmp_path, provider, repairs=0, profile="ollama")
    result = confirm(controller)
    assert result.status == "rejected" and result.error.layer == "tool_call"
    assert "taken only when it is the whole answer" in result.error.message
    assert host.executions == []


def test_text_calls_with_the_option_off_are_rejected_naming_the_setting(tmp_path):
    text = '```json\n{"name": "build_part", "arguments": {"quads": 1}}\n```'
    provider = ScriptedProvider(design(SPEC_BUILD), design(text))
    controller, host, _, _ = make(tmp_path, provider, repairs=0, profile="openai")
    result = confirm(controller)
    assert result.status == "rejected" and result.error.layer == "tool_call"
    assert "wrote its call (build_part) as text" in result.error.message
    assert "text_tool_calls" in result.error.message
    assert host.executions == []


def test_text_calls_with_the_option_off_get_a_repair_that_asks_for_a_tool_call(tmp_path):
    text = '```json\n{"name": "build_part", "arguments": {"quads": 1}}\n```'
    provider = ScriptedProvider(
        design(SPEC_BUILD), design(text), calls(("build_part", GOOD), ("audit_part", {}))
    )
    controller, host, _, _ = make(tmp_path, provider, profile="openai")
    result = confirm(controller)
    assert result.status == "verified" and result.repairs == 1
    assert "build_part" in user_text(provider.requests[2])


def test_a_text_call_naming_a_tool_that_was_not_offered_is_refused(tmp_path):
    text = '{"name": "delete_model", "arguments": {"model": "Model-1"}}'
    provider = ScriptedProvider(design(SPEC_BUILD), design(text))
    controller, host, _, _ = make(tmp_path, provider, repairs=0, profile="llamacpp",
                                  constrained_calls=False)
    result = confirm(controller)
    assert result.status == "rejected"
    assert "delete_model" in result.error.message and "offered: build_part" in result.error.message
    assert host.executions == []


def test_a_text_call_to_a_module_tool_not_offered_is_refused_like_a_structured_one(tmp_path):
    text = '{"name": "repair_part", "arguments": {}}'
    provider = ScriptedProvider(design(SPEC_BUILD), design(text))
    controller, _, _, _ = make(tmp_path, provider, repairs=0, profile="ollama",
                                  constrained_calls=False)
    result = confirm(controller)
    assert result.status == "rejected"
    assert "tool 'repair_part' was not offered" in result.error.message


def test_one_call_per_round_offers_the_next_tool_only(tmp_path):
    provider = ScriptedProvider(
        design(SPEC_BUILD),
        calls(("build_part", GOOD)),
        calls(("audit_part", BAD)),
        calls(("audit_part", {})),
    )
    controller, host, _, labels = make(tmp_path, provider, profile="llamacpp",
                                       constrained_calls=False)
    result = confirm(controller)
    assert result.status == "verified" and result.repairs == 1
    assert provider.offered[1:] == [["build_part"], ["audit_part"], ["audit_part"]]
    assert "Call this tool now, exactly once, as a tool call: build_part." in user_text(
        provider.requests[1]
    )


def test_one_call_per_round_is_a_setting_on_other_profiles(tmp_path):
    provider = ScriptedProvider(
        design(SPEC_BUILD), calls(("build_part", GOOD)), calls(("audit_part", {}))
    )
    controller, _, _, _ = make(tmp_path, provider, one_call_per_round=True)
    assert confirm(controller).status == "verified"
    assert provider.offered[1:] == [["build_part"], ["audit_part"]]


def test_a_cancel_during_a_compile_repair_round_is_honoured(tmp_path):
    from controller_fakes import HANG

    provider = ScriptedProvider(
        design(SPEC_BUILD), calls(("build_part", BAD), ("audit_part", {})), HANG
    )
    controller, host, _, _ = make(tmp_path, provider)

    async def scenario():
        assert await controller.submit("plate", "part", TARGET) == Phase.REVIEW
        task = asyncio.ensure_future(controller.confirm("part", TARGET))
        while len(provider.requests) < 3:
            await asyncio.sleep(0.01)
        assert controller.phase == Phase.COLLECTING
        await controller.cancel()
        return await task

    result = asyncio.run(scenario())
    assert result.status == "cancelled" and host.executions == []


def test_a_server_that_cannot_parse_the_call_gets_a_repair_asking_one_tool_per_round(tmp_path):
    from sam_plugin.runtime.provider.errors import ProviderError

    parse_error = ProviderError(
        "server",
        "The model produced output that does not match the expected peg-native format "
        "(in-stream error)",
    )
    provider = ScriptedProvider(
        design(SPEC_BUILD), parse_error, calls(("build_part", GOOD)), calls(("audit_part", {}))
    )
    controller, host, _, labels = make(tmp_path, provider)
    result = confirm(controller)
    assert result.status == "verified" and result.repairs == 1
    assert provider.offered[1:] == [["build_part", "audit_part"], ["build_part"], ["audit_part"]]
    assert "does not match the expected peg-native format" in user_text(provider.requests[2])


def test_other_provider_errors_in_a_round_still_return_to_review(tmp_path):
    from sam_plugin.runtime.provider.errors import ProviderError

    provider = ScriptedProvider(design(SPEC_BUILD), ProviderError("auth", "bad key"))
    controller, _, _, _ = make(tmp_path, provider)
    result = confirm(controller)
    assert result.status == "rejected" and result.error.layer == "provider"
    assert result.repairs == 0


def test_the_rounds_bound_is_the_expected_tools_plus_the_repairs(tmp_path):
    empty = design("I am not sure what to do.")
    provider = ScriptedProvider(
        design(SPEC_BUILD), calls(("build_part", GOOD)), empty, empty, empty, empty
    )
    controller, host, _, _ = make(tmp_path, provider, profile="llamacpp",
                                  constrained_calls=False)
    result = confirm(controller)
    assert result.status == "rejected" and result.repairs == 2
    # design + build + audit tried three times (its first answer and two repairs)
    assert len(provider.requests) == 5 and len(provider.queue) == 1
    assert "the response carried no tool call; expected one of: audit_part" in result.error.message
    assert host.executions == []


def test_a_repair_quotes_only_a_bounded_head_of_a_huge_rejected_call(tmp_path):
    """A 4 MiB call re-sent whole in each repair round made 36 MB of requests."""
    huge = {"bad": 1, "quads": 1, "pad": "x" * (4 * 1024 * 1024 - 100)}
    provider = ScriptedProvider(
        design(SPEC_BUILD),
        calls(("build_part", huge), ("audit_part", {})),
        calls(("build_part", huge)),
        calls(("build_part", GOOD)),
    )
    controller, host, _, _ = make(tmp_path, provider, max_argument_bytes=8 * 1024 * 1024)
    result = confirm(controller)
    assert result.status == "verified" and result.repairs == 2
    for request in provider.requests[2:]:
        text = user_text(request)
        assert len(text) < 16 * 1024, len(text)
        assert '"bad": 1' in text or '"bad":1' in text  # the head is quoted
        assert "more characters of the call are not repeated" in text
