"""Every error class reaches the caller classified, with the provider's message, no key."""

from __future__ import annotations

import asyncio
import json
import socket
import time

import pytest

from sam_plugin.demo import streams
from sam_plugin.demo.loopback import NO_SCRIPT_LEFT
from sam_plugin.demo.streams import sse_data, sse_done
from sam_plugin.runtime.provider.client import ChatProvider, ProviderError
from tests.support.fixtures import TEST_API_KEY, RecordingListener, settings_for

DEEPSEEK_400 = {
    "error": {
        "message": "Thinking mode does not support this tool_choice",
        "type": "invalid_request_error",
        "param": None,
        "code": "invalid_request_error",
    }
}


def failing(chat, *args, **kwargs) -> ProviderError:
    with pytest.raises(ProviderError) as info:
        chat(*args, **kwargs)
    error = info.value
    for text in (str(error), repr(error), error.message, repr(error.raw_sse)):
        assert TEST_API_KEY not in text
    return error


@pytest.mark.parametrize("status", [401, 403])
def test_auth_errors_surface_at_once_with_the_provider_message(fake_provider, chat, status):
    fake_provider.enqueue_error(
        status, {"error": {"message": "Authentication Fails (no such user)", "type": "auth"}}
    )
    error = failing(chat)
    assert str(error) == f"auth: Authentication Fails (no such user) (HTTP {status})"
    assert (error.kind, error.status_code) == ("auth", status)
    assert len(fake_provider.requests) == 1


def test_bad_request_keeps_deepseek_message_and_is_not_retried(fake_provider, chat):
    fake_provider.enqueue_error(400, DEEPSEEK_400)
    error = failing(chat)
    assert str(error) == "bad_request: Thinking mode does not support this tool_choice (HTTP 400)"
    assert len(fake_provider.requests) == 1


def test_unprocessable_entity_detail_list(fake_provider, chat):
    fake_provider.enqueue_error(
        422, {"detail": [{"loc": ["body", "messages"], "msg": "field required"}]}
    )
    assert str(failing(chat)) == "bad_request: field required (HTTP 422)"


def test_ollama_plain_error_string(fake_provider, chat):
    fake_provider.enqueue_error(404, {"error": 'model "qwen9" not found, try pulling it first'})
    error = failing(chat)
    assert str(error) == 'bad_request: model "qwen9" not found, try pulling it first (HTTP 404)'


def test_server_errors_are_retried_then_succeed(fake_provider, chat):
    fake_provider.enqueue_error(503, {"error": {"message": "overloaded"}})
    fake_provider.enqueue_error(502, "<html>Bad Gateway</html>")
    fake_provider.enqueue_reply("ok")
    assert chat().content == "ok"
    assert len(fake_provider.requests) == 3


def test_server_errors_exhaust_bounded_retries(fake_provider, chat):
    settings = settings_for(fake_provider, max_retries=2)
    for _ in range(3):
        fake_provider.enqueue_error(500, {"error": {"message": "Internal error, try later"}})
    fake_provider.enqueue_reply("never served")
    error = failing(chat, settings=settings)
    assert str(error) == "server: Internal error, try later (HTTP 500)"
    assert len(fake_provider.requests) == 3
    assert fake_provider.pending == 1


def test_empty_script_queue_answers_a_clear_500(fake_provider, chat):
    error = failing(chat, settings=settings_for(fake_provider, max_retries=0))
    assert str(error) == f"server: {NO_SCRIPT_LEFT} (HTTP 500)"


def test_rate_limit_honours_retry_after(fake_provider, chat):
    fake_provider.enqueue_error(
        429, {"error": {"message": "Rate limit reached"}}, headers={"Retry-After": "0.4"}
    )
    fake_provider.enqueue_reply("ok")
    started = time.monotonic()
    assert chat().content == "ok"
    assert time.monotonic() - started >= 0.4  # backoff alone would be <= 0.05 s
    assert len(fake_provider.requests) == 2


def test_rate_limit_exhausted_reports_retry_after(fake_provider, chat):
    settings = settings_for(fake_provider, max_retries=1)
    for _ in range(2):
        fake_provider.enqueue_error(
            429, {"error": {"message": "Rate limit reached"}}, headers={"retry-after-ms": "20"}
        )
    error = failing(chat, settings=settings)
    assert str(error) == "rate_limit: Rate limit reached (HTTP 429)"
    assert error.retry_after == pytest.approx(0.02)
    assert len(fake_provider.requests) == 2


def test_retry_after_longer_than_allowed_surfaces_at_once(fake_provider, chat):
    fake_provider.enqueue_error(
        429, {"error": {"message": "Quota exceeded"}}, headers={"Retry-After": "3600"}
    )
    fake_provider.enqueue_reply("never served")
    error = failing(chat)
    assert (error.kind, error.retry_after) == ("rate_limit", 3600.0)
    assert len(fake_provider.requests) == 1


def test_malformed_json_is_a_protocol_error_not_retried(fake_provider, chat):
    fake_provider.enqueue_stream(
        [sse_data('{"choices": [{"index": 0, "delta": {"content"'), sse_done()]
    )
    fake_provider.enqueue_reply("never served")
    error = failing(chat)
    assert str(error) == (
        'protocol: malformed JSON in SSE event #1: \'{"choices": [{"index": 0, "delta": '
        '{"content"\''
    )
    assert error.raw_sse.startswith(b'data: {"choices"')
    assert len(fake_provider.requests) == 1


def test_missing_done_is_a_protocol_error_after_one_retry(fake_provider, chat):
    truncated = streams.openai_stream(tool_calls=[("audit_part", '{"checks": ["counts"]}')])[:-1]
    fake_provider.enqueue_stream(truncated)
    fake_provider.enqueue_stream(truncated)
    listener = RecordingListener()
    error = failing(chat, listener=listener)
    assert error.kind == "protocol"
    assert error.message.startswith("the stream ended without data: [DONE] after 7 events")
    assert error.raw_sse == "".join(truncated).encode()
    assert len(fake_provider.requests) == 2 and len(listener.retries) == 1
    assert listener.calls == []  # an incomplete stream reconstructs nothing


def test_broken_stream_is_retried_once_and_then_succeeds(fake_provider, chat):
    full = streams.openai_stream(content="Hello there")
    fake_provider.enqueue_stream(full, abort_after=3)
    fake_provider.enqueue_stream(full)
    listener = RecordingListener()
    response = chat(listener=listener)
    assert response.content == "Hello there"
    assert response.raw_sse == "".join(full).encode()
    assert [str(e) for e in listener.retries] == [
        f"protocol: the stream broke after {len(''.join(full[:3]).encode())} bytes: "
        "peer closed connection without sending complete message body (incomplete chunked read)"
    ]


def test_stream_retry_can_be_switched_off(fake_provider, chat):
    fake_provider.enqueue_stream(streams.openai_stream(content="x")[:-1])
    fake_provider.enqueue_reply("never served")
    error = failing(chat, settings=settings_for(fake_provider, retry_broken_stream=False))
    assert error.kind == "protocol"
    assert len(fake_provider.requests) == 1


@pytest.mark.parametrize(
    ("piece", "expected"),
    [
        (
            'event: error\ndata: {"error": {"message": "upstream overloaded", "code": 503}}\n\n',
            "server: upstream overloaded (in-stream error)",
        ),
        (
            sse_data({"error": {"message": "Rate limit exceeded", "type": "rate_limit_error"}}),
            "rate_limit: Rate limit exceeded (in-stream error)",
        ),
        (
            sse_data(
                {
                    "object": "error",
                    "message": "max_tokens too large",
                    "type": "BadRequestError",
                    "code": 400,
                }
            ),  # noqa: E501
            "bad_request: max_tokens too large (in-stream error)",
        ),
        ("event: error\ndata: backend crashed\n\n", "server: backend crashed (in-stream error)"),
    ],
)
def test_in_stream_errors_become_provider_errors(fake_provider, chat, piece, expected):
    first = streams.openai_stream(content="partial")[:2]
    fake_provider.enqueue_stream([*first, piece, sse_done()])
    error = failing(chat)
    assert str(error) == expected
    assert len(fake_provider.requests) == 1


def test_idle_read_timeout(fake_provider, chat):
    fake_provider.enqueue_stream(streams.openai_stream(content="slow"), delay=1.0)
    settings = settings_for(fake_provider, idle_read_timeout=0.2)
    error = failing(chat, settings=settings)
    assert str(error) == (
        "timeout: no data from the provider for 0.2s between two reads of the stream "
        "(idle read timeout)"
    )


def test_total_timeout(fake_provider, chat):
    fake_provider.enqueue_stream(streams.openai_stream(content="slow but steady"), delay=0.1)
    settings = settings_for(fake_provider, total_timeout=0.5)
    started = time.monotonic()
    error = failing(chat, settings=settings)
    assert str(error).startswith(
        "timeout: no complete response within the total timeout of 0.5s (total timeout; "
        "--timeout) after "
    )
    assert time.monotonic() - started < 2.0
    assert error.raw_sse.startswith(b"data: ")  # every byte received is kept
    assert str(error).endswith(f"after {len(error.raw_sse)} bytes received")


def test_connection_refused_is_retried_then_reported(chat):
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    from sam_plugin.runtime.config.settings import ProviderSettings

    settings = ProviderSettings(
        base_url=f"http://127.0.0.1:{port}/v1",
        api_key=TEST_API_KEY,
        model="m",
        max_retries=2,
        backoff_base=0.01,
    )
    error = failing(chat, settings=settings)
    assert error.kind == "connection"
    assert error.message.startswith(f"cannot reach 127.0.0.1:{port}: ")
    assert isinstance(error.__cause__, Exception)


def test_each_retry_before_an_answer_is_announced_with_its_try_number(chat):
    """Views say "try 2 of 3" while a dead port is retried (docs/ui.md)."""
    from sam_plugin.runtime.config.settings import ProviderSettings
    from sam_plugin.runtime.provider.types import StreamListener

    class Tries(StreamListener):
        def __init__(self) -> None:
            self.tries: list[tuple[int, int, str, str]] = []

        def on_connect_retry(self, error, attempt, attempts, host):
            self.tries.append((attempt, attempts, host, str(error)))

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    settings = ProviderSettings(base_url=f"http://127.0.0.1:{port}/v1", model="m",
                                max_retries=2, backoff_base=0.01)
    listener = Tries()
    failing(chat, settings=settings, listener=listener)
    host = f"127.0.0.1:{port}"
    assert [t[:3] for t in listener.tries] == [(2, 3, host), (3, 3, host)]
    assert all(t[3].startswith(f"connection: cannot reach {host}") for t in listener.tries)


def test_an_answer_that_is_not_retried_announces_no_retry(fake_provider, chat):
    from sam_plugin.runtime.provider.types import StreamListener

    class Tries(StreamListener):
        tries = 0

        def on_connect_retry(self, error, attempt, attempts, host):
            self.tries += 1

    fake_provider.enqueue_error(401, {"error": {"message": "no such key"}})
    listener = Tries()
    failing(chat, listener=listener)
    assert listener.tries == 0


def test_dropped_connection_before_the_response_is_retried(fake_provider, chat):
    fake_provider.enqueue_drop()
    fake_provider.enqueue_reply("after a drop")
    assert chat().content == "after a drop"
    assert len(fake_provider.requests) == 2


def test_non_sse_content_type_is_a_protocol_error(fake_provider, chat):
    fake_provider.enqueue_stream(["<html>captive portal</html>"], content_type="text/html")
    error = failing(chat)
    assert str(error) == (
        "protocol: expected text/event-stream, got text/html: '<html>captive portal</html>'"
    )


def test_unconfigured_settings_refused_before_any_request(fake_provider, chat):
    settings = settings_for(
        fake_provider, base_url="https://api.deepseek.com", model="", api_key="", profile="deepseek"
    )
    error = failing(chat, settings=settings)
    assert str(error) == (
        "bad_request: provider settings incomplete: missing model, api_key (set them in the "
        "settings or via SAM_AGENT_BASE_URL / SAM_AGENT_API_KEY / SAM_AGENT_MODEL)"
    )


def test_closed_provider_refuses_with_cancelled(provider_settings):
    async def go() -> None:
        provider = ChatProvider(provider_settings)
        await provider.aclose()
        await provider.stream_chat([{"role": "user", "content": "x"}])

    with pytest.raises(ProviderError, match=r"^cancelled: the provider was closed$"):
        asyncio.run(go())


def test_error_kind_is_validated():
    with pytest.raises(ValueError, match=r"kind must be one of \['auth', 'rate_limit'"):
        ProviderError("oops", "x")  # type: ignore[arg-type]


def test_error_round_trips_through_pickle():
    import pickle

    error = ProviderError("rate_limit", "slow down", status_code=429, retry_after=2.0)
    copy = pickle.loads(pickle.dumps(error))
    assert (copy.kind, copy.message, copy.status_code, copy.retry_after) == (
        "rate_limit",
        "slow down",
        429,
        2.0,
    )


# -- the key never leaks ------------------------------------------------------------------


def test_key_echoed_by_the_provider_is_scrubbed_from_the_error(fake_provider, chat):
    fake_provider.enqueue_error(
        401, {"error": {"message": f"Incorrect API key provided: {TEST_API_KEY}."}}
    )
    error = failing(chat)
    assert str(error) == "auth: Incorrect API key provided: ***. (HTTP 401)"


def test_key_echoed_inside_a_stream_is_scrubbed_from_raw_sse(fake_provider, chat):
    pieces = streams.openai_stream(content=f"your key is {TEST_API_KEY}", fragment_size=100)
    fake_provider.enqueue_stream(streams.rechunk(pieces, 9))  # the key spans chunks
    listener = RecordingListener()
    response = chat(listener=listener)
    assert TEST_API_KEY.encode() not in response.raw_sse
    assert b"your key is ***" in response.raw_sse
    assert TEST_API_KEY.encode() not in b"".join(listener.raw)


def test_key_not_in_error_chain_or_logs(fake_provider, chat, caplog):
    fake_provider.enqueue_error(500, {"error": {"message": "boom"}})
    fake_provider.enqueue_error(500, {"error": {"message": "boom"}})
    with caplog.at_level("DEBUG"):
        failing(chat, settings=settings_for(fake_provider, max_retries=1))
    assert "retrying" in caplog.text
    assert TEST_API_KEY not in caplog.text


def test_provider_repr_hides_the_key(provider_settings):
    provider = ChatProvider(provider_settings)
    assert TEST_API_KEY not in repr(provider)
    assert json.dumps(provider.build_request([], None)).find(TEST_API_KEY) == -1
    asyncio.run(provider.aclose())


def test_non_string_content_is_a_protocol_error(fake_provider, chat):
    fake_provider.enqueue_stream(
        [sse_data({"choices": [{"index": 0, "delta": {"content": [{"text": "x"}]}}]}), sse_done()]
    )
    assert str(failing(chat)) == "protocol: delta.content must be a string, got list"


def test_json_error_body_with_status_200(fake_provider, chat):
    fake_provider.enqueue_stream(
        [json.dumps({"error": {"message": "Insufficient Balance", "code": 402}})],
        content_type="application/json",
    )
    error = failing(chat)
    assert str(error) == "bad_request: Insufficient Balance (in-stream error)"
    assert error.status_code == 402
