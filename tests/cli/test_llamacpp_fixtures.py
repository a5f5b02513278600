"""Streams recorded from a real llama.cpp server (``llama-server --jinja``, a small local
Qwen2.5-Coder model on this machine's CPU; tests/fixtures/llamacpp/record.py) replayed
through the loopback fake provider: they decode, and the run ends as it did live —
verified where the model's calls were right."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_support import base_args, new_workspace, run_cli

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "llamacpp"
CASES = sorted(p.parent.name for p in FIXTURES.glob("*/case.json"))
PIECE = 97  # bytes per HTTP chunk: events and UTF-8 characters split across reads


def _case(name: str) -> dict:
    return json.loads((FIXTURES / name / "case.json").read_text(encoding="utf-8"))


def test_there_are_recorded_streams():
    assert len(CASES) >= 3


def _content(raw: bytes) -> str:
    from sam_plugin.runtime.provider.sse import SSEDecoder
    from sam_plugin.runtime.provider.stream import StreamAccumulator

    accumulator, decoder = StreamAccumulator(), SSEDecoder()
    for piece in (raw[i : i + PIECE] for i in range(0, len(raw), PIECE)):
        for event in decoder.feed(piece):
            accumulator.handle(event)
    assert accumulator.done
    return accumulator.result(raw).content


def _is_spec_answer(name: str) -> bool:
    """Whether the case's design answer is a JSON spec (recorded under the spec IR)."""
    from sam_plugin.compilers.spec.reading import json_object_of
    from sam_plugin.errors import SpecRejected

    try:
        json_object_of(_content((FIXTURES / name / "1.sse").read_bytes()))
    except SpecRejected:
        return False
    return True


SPEC_CASES = [name for name in CASES if _is_spec_answer(name)]
PROSE_CASES = [name for name in CASES if name not in SPEC_CASES]


@pytest.mark.parametrize("name", SPEC_CASES)
def test_a_recorded_llamacpp_run_replays_to_the_same_end(
    name, tmp_path, capsys, provider_env, monkeypatch
):
    monkeypatch.setenv("SAM_AGENT_PROFILE", "llamacpp")
    case = _case(name)
    workspace = new_workspace(tmp_path / "w.sam.json", quads=case["quads"])
    for number in range(1, case["streams"] + 1):
        raw = (FIXTURES / name / f"{number}.sse").read_bytes()
        provider_env.enqueue_stream([raw[i : i + PIECE] for i in range(0, len(raw), PIECE)])
    args = base_args(workspace, tmp_path / "runs", mode=case["mode"])
    run = run_cli(args + ["--yes", "--json", "--request", case["request"]], capsys)
    result = run.result
    assert result["status"] == case["status"], run.err
    assert result["repairs"] == case["repairs"]
    assert (result["error"] or {}).get("layer") == (case["error"] or {}).get("layer")
    # every stream the case names was requested, none more (a case may keep the live
    # answers a later fix no longer asks for: see its "note")
    assert len(provider_env.requests) == case["streams"]
    if case["status"] == "verified":
        assert run.code == 0 and result["submissions"] == 1
        assert all(check["ok"] for check in result["checks"])


@pytest.mark.parametrize("name", PROSE_CASES)
def test_a_recorded_prose_spec_is_never_offered_for_confirmation(
    name, tmp_path, capsys, provider_env, monkeypatch
):
    """Recorded before the spec IR: the small models' prose ("Expected results: <the request
    restated>") is not a spec. Given the same answer again in its one design repair round, the
    run fails at design (an answer cut off at the output limit, cut again, alike);
    nothing is collected or executed (docs/architecture.md §4)."""
    monkeypatch.setenv("SAM_AGENT_PROFILE", "llamacpp")
    case = _case(name)
    workspace = new_workspace(tmp_path / "w.sam.json", quads=case["quads"])
    raw = (FIXTURES / name / "1.sse").read_bytes()
    for _ in range(2):
        provider_env.enqueue_stream([raw[i : i + PIECE] for i in range(0, len(raw), PIECE)])
    args = base_args(workspace, tmp_path / "runs", mode=case["mode"])
    run = run_cli(args + ["--yes", "--json", "--request", case["request"]], capsys)
    result = run.result
    assert (result["status"], result["error"]["layer"], run.code) == ("failed", "design", 1)
    message = result["error"]["message"]
    assert len(provider_env.requests) == 2  # the one design repair round, whatever the cause
    # a cut under the spec's grammar is a loop: the same bound again, then said as such
    assert ("answer repeated itself" in message or "cut off again" in message
            or "prose, not a spec" in message), message
    assert result["submissions"] == 0
    assert all("tools" not in request.json for request in provider_env.requests)


TOOL_STREAMS = sorted(
    (name, stream) for name in CASES for stream in _case(name).get("text_calls", {})
)


def test_there_are_recorded_tool_answers_with_calls_written_as_text():
    assert sum(bool(_case(n)["text_calls"][s]) for n, s in TOOL_STREAMS) >= 3


@pytest.mark.parametrize(("name", "stream"), TOOL_STREAMS)
def test_every_recorded_tool_answer_decodes_and_its_text_calls_are_recovered(name, stream):
    """The live tool answers (kept also where a later fix no longer asks for them) carry no
    structured call; the calls they wrote as text are recovered, and answers with broken or
    cut-off JSON give none (case.json says which)."""
    from sam_plugin.compilers.registry import get_module
    from sam_plugin.runtime.provider.sse import SSEDecoder
    from sam_plugin.runtime.provider.stream import StreamAccumulator
    from sam_plugin.runtime.run.collection import round_calls

    raw = (FIXTURES / name / stream).read_bytes()
    accumulator, decoder = StreamAccumulator(), SSEDecoder()
    for piece in (raw[i : i + PIECE] for i in range(0, len(raw), PIECE)):
        for event in decoder.feed(piece):
            accumulator.handle(event)
    assert accumulator.done
    response = accumulator.result(raw)
    assert response.tool_calls == []
    tools = set(get_module(_case(name)["mode"]).tool_names.values())
    calls = round_calls(response, sorted(tools), tools, text_calls=True)
    assert [call.name for call in calls] == _case(name)["text_calls"][stream]
    assert all(call.source == "text" for call in calls)
