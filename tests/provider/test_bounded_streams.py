"""Bounded streams and waits (issue 15): a size cap per response, an idle timeout beside the
total one (each says that it fired), and every received byte kept after a cut."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest

from sam_plugin.demo import streams
from sam_plugin.runtime.config.settings import ProviderSettings
from sam_plugin.runtime.provider.client import ProviderError
from sam_plugin.runtime.run.controller import Phase, RunController
from tests.support.fixtures import RecordingListener, settings_for

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "controller"))
from controller_fakes import TARGET, FakeHost, FakePartModule  # noqa: E402


def failing(chat, **kwargs) -> ProviderError:
    with pytest.raises(ProviderError) as caught:
        chat(**kwargs)
    return caught.value


def test_a_response_past_the_size_cap_fails_at_the_provider_layer(fake_provider, chat):
    endless = streams.openai_stream(content="valid SSE that never ends " * 400)
    fake_provider.enqueue_stream(endless)
    error = failing(chat, settings=settings_for(fake_provider, max_response_bytes=8192))
    assert error.kind == "protocol"
    assert "passed the size cap of 8192 bytes (max_response_bytes)" in str(error)
    assert 8192 < len(error.raw_sse) < 8192 + 4096  # kept, and no more than one read over
    assert len(fake_provider.requests) == 1  # not retried


def test_the_size_cap_defaults_to_16_mib():
    assert ProviderSettings().max_response_bytes == 16 * 1024 * 1024


def test_a_trickle_of_bytes_trips_the_idle_timeout_not_the_total(fake_provider, chat):
    whole = "".join(streams.openai_stream(content="one byte at a time")).encode()
    fake_provider.enqueue_stream(streams.rechunk([whole], 1), delay=0.02)
    settings = settings_for(fake_provider, idle_timeout=0.5, total_timeout=30.0)
    error = failing(chat, settings=settings)
    assert error.kind == "timeout"
    assert str(error).startswith(
        "timeout: no progress from the provider for 0.5s (idle timeout; --idle-timeout)"
    )
    assert 0 < len(error.raw_sse) < len(whole) and whole.startswith(error.raw_sse)  # kept


def test_keep_alive_comments_are_no_event(fake_provider, chat):
    fake_provider.enqueue_stream([streams.sse_comment()] * 40, delay=0.05)
    error = failing(chat, settings=settings_for(fake_provider, idle_timeout=0.4))
    assert "(idle timeout; --idle-timeout)" in str(error)
    assert error.raw_sse.startswith(b": keep-alive")


def test_steady_events_never_trip_the_idle_timeout(fake_provider, chat):
    fake_provider.enqueue_stream(streams.openai_stream(content="steady " * 6), delay=0.1)
    response = chat(settings=settings_for(fake_provider, idle_timeout=0.5))
    assert response.content.split() == ["steady"] * 6


def _chunk(delta: dict) -> str:
    import json

    body = {"id": "c", "object": "chat.completion.chunk", "created": 1, "model": "m",
            "choices": [{"index": 0, "delta": delta, "finish_reason": None}]}
    return f"data: {json.dumps(body)}\n\n"


EMPTY_DELTAS = [{}, {"content": ""}, {"role": "assistant"}, {"content": None},
                {"tool_calls": [{"index": 0, "function": {"arguments": ""}}]},
                {"reasoning_content": ""}]


def test_valid_but_empty_deltas_trip_the_idle_timeout(fake_provider, chat):
    """Empty deltas every 0.1 s used to reset the idle timer for ever (only the total
    timeout ended such a stream): progress is new content, argument or reasoning text."""
    pieces = [_chunk({"role": "assistant", "content": "Hi"})]
    pieces += [_chunk(EMPTY_DELTAS[i % len(EMPTY_DELTAS)]) for i in range(60)]
    fake_provider.enqueue_stream(pieces, delay=0.1)
    error = failing(chat, settings=settings_for(fake_provider, idle_timeout=0.5,
                                                total_timeout=30.0))
    assert error.kind == "timeout"
    assert str(error).startswith(
        "timeout: no progress from the provider for 0.5s (idle timeout; --idle-timeout): no "
        "new content, tool-call argument or reasoning characters after ")


@pytest.mark.parametrize("delta", [
    {"reasoning_content": "thinking "},
    {"tool_calls": [{"index": 0, "function": {"arguments": " "}}]},
])
def test_reasoning_or_argument_characters_are_progress(fake_provider, chat, delta):
    start = _chunk({"role": "assistant", "tool_calls": [
        {"index": 0, "id": "call_1", "type": "function",
         "function": {"name": "audit_part", "arguments": "{"}}]})
    end = _chunk({"tool_calls": [{"index": 0, "function": {"arguments": "}"}}]})
    fake_provider.enqueue_stream([start, *[_chunk(delta)] * 8, end, "data: [DONE]\n\n"],
                                 delay=0.1)
    response = chat(settings=settings_for(fake_provider, idle_timeout=0.5))
    assert response.tool_calls[0].name == "audit_part"


def test_the_idle_timeout_defaults_to_60_s():
    assert ProviderSettings().idle_timeout == 60.0


def test_a_cancelled_design_stream_keeps_every_byte_in_its_sse_file(tmp_path, fake_provider):
    pieces = streams.openai_stream(content="a spec that is cancelled half way through")
    fake_provider.enqueue_stream(pieces, delay=0.2)
    listener = RecordingListener()
    controller = RunController(
        runs_dir=tmp_path / "runs", settings=settings_for(fake_provider), host=FakeHost(),
        module_factory=lambda mode: FakePartModule(),
    )
    controller.subscribe(lambda event: listener.content.append(event.name))

    async def scenario() -> None:
        submitting = asyncio.ensure_future(controller.submit("x", "part", TARGET))
        while "design_delta" not in listener.content:
            await asyncio.sleep(0.01)
        await controller.cancel()
        await submitting

    asyncio.run(scenario())
    assert controller.phase == Phase.CANCELLED
    kept = (tmp_path / "runs" / controller.run_id / "provider_design_response.sse").read_bytes()
    assert kept and b"".join(p.encode() for p in pieces).startswith(kept)


def test_cli_flags_set_both_timeouts(tmp_path, monkeypatch):
    import contextlib
    import io

    from sam_plugin.cli import main as cli
    from sam_plugin.cli.run import _provider

    monkeypatch.setenv("SAM_AGENT_BASE_URL", "http://127.0.0.1:9/v1")
    monkeypatch.setenv("SAM_AGENT_MODEL", "m")
    monkeypatch.setenv("SAM_AGENT_SETTINGS_FILE", str(tmp_path / "settings.json"))

    def settings_of(*flags: str):
        args = cli.build_parser().parse_args([
            "run", "--workspace", "w", "--mode", "part", "--model", "M", "--part", "P",
            "--request", "r", *flags])
        with contextlib.ExitStack() as stack:
            return asyncio.run(_provider(args, io.StringIO(), stack))[0]

    settings = settings_of("--timeout", "1800", "--idle-timeout", "240")
    assert (settings.total_timeout, settings.idle_timeout) == (1800.0, 240.0)
    monkeypatch.setenv("SAM_AGENT_TIMEOUT", "900")
    assert settings_of().total_timeout == 900.0


@pytest.mark.parametrize("value", ["0", "-3", "nan", "soon"])
def test_cli_refuses_a_timeout_that_is_no_positive_number(value, capsys):
    from sam_plugin.cli import main as cli

    code = cli.main(["run", "--workspace", "w", "--mode", "part", "--model", "M", "--part",
                     "P", "--request", "r", "--idle-timeout", value])
    assert code == 2
    assert "--idle-timeout" in capsys.readouterr().err
