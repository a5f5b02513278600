"""A run's error is data (docs/architecture.md "Messages as data"): ``result.json``'s
``error.phrase`` renders, in English, byte for byte the ``error.message`` it is written
beside (the text a repair round sends the model is unchanged); the dock says it from the
phrase and never reads the message; its words are the words it read from the message while
it still read messages (``READ``, recorded then). A run written before phrases shows its
stored message."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
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

from sam_plugin.runtime.provider.errors import ProviderError, error_from_http
from sam_plugin.runtime.run.controller import Phase
from sam_plugin.runtime.store.run_store import RunResult
from sam_plugin.ui import plain_words
from sam_plugin.ui.plain_words import error_words
from sam_plugin.words.phrase import render

SPEC_BUILD = fake_spec("build", "audit", summary="Build one QUAD plate.")
BAD = {"bad": 1, "quads": 1}
GOOD = {"quads": 1}
EMPTY = design("I am not sure what to do.")


def _ended(tmp_path: Path, provider: ScriptedProvider, repairs: int = 2,
           **overrides: object) -> RunResult:
    built = build_controller(tmp_path, provider, settings=settings(**overrides),
                             policy=policy(repair_rounds=repairs))
    controller = built.controller
    assert asyncio.run(controller.submit("plate", "part", TARGET)) == Phase.REVIEW
    result = asyncio.run(controller.confirm("part", TARGET))
    stored = json.loads((controller.runs_dir / controller.run_id / "result.json").read_text())
    assert RunResult.model_validate(stored).error == result.error  # written as it is read
    return result


# the dock's words for each run below, as it read them from the message (before phrases)
READ = {
    "no tool call, repairs spent": (
        "the model answered without filling in the operation (audit the part)\n"
        "(still rejected after 2 repair round(s); nothing was executed)"),
    "no tool call, no repairs": (
        "the model answered without filling in the operation (audit the part)"),
    "out of order, then a compile diagnostic": (
        "build the part: 1 problem(s)\n  - bad: remove it; legal: quads\n"
        "(still rejected after 2 repair round(s); nothing was executed)"),
    "out of order, repairs spent": (
        "calls out of order: received audit the part; the canonical order is build the part, "
        "audit the part"),
    "a compile diagnostic, no repairs": (
        "build the part: 1 problem(s)\n  - bad: remove it; legal: quads"),
    "a provider call in a round": "the provider refused the API key: bad key",
    "an HTTP error in a round": (
        "the provider refused the API key: Incorrect API key for audit the part"),
}
RUNS = {
    "no tool call, repairs spent": (
        lambda: ScriptedProvider(design(SPEC_BUILD), calls(("build_part", GOOD)),
                                 EMPTY, EMPTY, EMPTY, EMPTY),
        {"profile": "llamacpp", "constrained_calls": False}, 2),
    "no tool call, no repairs": (
        lambda: ScriptedProvider(design(SPEC_BUILD), calls(("build_part", GOOD)), EMPTY),
        {"profile": "llamacpp", "constrained_calls": False}, 0),
    "out of order, then a compile diagnostic": (
        lambda: ScriptedProvider(design(SPEC_BUILD), calls(("build_part", BAD), ("audit_part", {})),
                                 calls(("audit_part", {})), calls(("build_part", {"bad": 3}))),
        {}, 2),
    "out of order, repairs spent": (
        lambda: ScriptedProvider(design(SPEC_BUILD), calls(("audit_part", {}))), {}, 0),
    "a compile diagnostic, no repairs": (
        lambda: ScriptedProvider(design(SPEC_BUILD),
                                 calls(("build_part", BAD), ("audit_part", {}))), {}, 0),
    "a provider call in a round": (
        lambda: ScriptedProvider(design(SPEC_BUILD), ProviderError("auth", "bad key")), {}, 2),
    "an HTTP error in a round": (
        lambda: ScriptedProvider(design(SPEC_BUILD), error_from_http(
            401, b'{"error": {"message": "Incorrect API key for audit_part"}}', {},
            secret="")), {}, 2),
}


@pytest.mark.parametrize("name", RUNS)
def test_the_phrase_says_the_message_in_english_byte_for_byte(tmp_path, name):
    provider, overrides, repairs = RUNS[name]
    error = _ended(tmp_path, provider(), repairs, **overrides).error
    assert error is not None and error.phrase is not None
    assert render(error.phrase) == error.message
    assert error.phrase.key != "run.said", "a round's rejection is data"


@pytest.mark.parametrize("name", RUNS)
def test_the_dock_says_it_from_the_phrase_never_reading_the_message(tmp_path, monkeypatch,
                                                                     name):
    provider, overrides, repairs = RUNS[name]
    error = _ended(tmp_path, provider(), repairs, **overrides).error
    assert error is not None

    def never(*args: object) -> str:
        raise AssertionError(f"a new run's message was taken as stored: {args!r}")

    monkeypatch.setattr(plain_words, "stored_message", never)
    from_data = error_words("", error.provider, error.phrase)  # the message is not needed
    assert from_data == READ[name]
    assert "round 3" not in from_data and "HTTP" not in from_data


def test_the_words_from_data(tmp_path):
    provider, overrides, repairs = RUNS["no tool call, repairs spent"]
    error = _ended(tmp_path, provider(), repairs, **overrides).error
    assert error is not None
    assert "the response carried no tool call; expected one of: audit_part" in error.message
    assert error_words("", None, error.phrase) == (
        "the model answered without filling in the operation (audit the part)\n"
        "(still rejected after 2 repair round(s); nothing was executed)")
    provider, overrides, repairs = RUNS["out of order, repairs spent"]
    error = _ended(tmp_path / "order", provider(), repairs, **overrides).error
    assert error is not None and error.message == (
        "round 1: calls out of order: received audit_part; the canonical order is build_part, "
        "audit_part")
    assert error_words("", None, error.phrase) == (
        "calls out of order: received audit the part; the canonical order is build the part, "
        "audit the part")
    with_chinese = error.phrase
    assert with_chinese is not None
    assert render(with_chinese, "zh_CN") == "操作顺序不对：收到 审计部件；应为 新建部件，审计部件"
    provider, overrides, repairs = RUNS["an HTTP error in a round"]
    error = _ended(tmp_path / "http", provider(), repairs, **overrides).error
    assert error is not None and error.message == (
        "round 1: auth: Incorrect API key for audit_part (HTTP 401)")
    assert error_words("", error.provider, error.phrase) == (
        "the provider refused the API key: Incorrect API key for audit the part")


def test_a_run_written_before_phrases_shows_its_message_as_stored():
    message = ("round 3: the response carried no tool call; expected one of: audit_part\n"
               "(still rejected after 2 repair round(s); nothing was executed)")
    assert error_words(message, None) == message  # its words are not read back
    stored = {"layer": "tool_call", "message": message}
    from sam_plugin.runtime.store.run_store import ErrorRecord

    assert ErrorRecord.model_validate(stored).phrase is None


def test_a_phrase_that_would_hold_the_key_is_not_written(tmp_path):
    from controller_fakes import API_KEY

    provider = ScriptedProvider(design(SPEC_BUILD), calls((f"tool_{API_KEY}", {})))
    built = build_controller(tmp_path, provider, policy=policy(repair_rounds=0))
    controller = built.controller
    assert asyncio.run(controller.submit("plate", "part", TARGET)) == Phase.REVIEW
    asyncio.run(controller.confirm("part", TARGET))
    written = (controller.runs_dir / controller.run_id / "result.json").read_text()
    assert API_KEY not in written
    error = RunResult.model_validate_json(written).error
    assert error is not None and "was not offered" in error.message
    assert error.phrase is not None and render(error.phrase) == error.message
