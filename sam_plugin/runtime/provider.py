"""OpenAI-compatible streaming chat provider over ``httpx.AsyncClient``.

One call = one POST ``{base_url}/chat/completions`` with ``stream: true``. A design request
(no tools) carries exactly model, stream, temperature and messages (plus
``stream_options`` where the profile accepts it) and no ``tools`` key; ``tool_choice`` is sent
only when the caller asks for it AND the profile allows it.

Retries: provider calls have no side effects, so 429, 5xx and connection failures before the
body starts are retried with bounded exponential backoff (``Retry-After`` honoured up to
``retry_after_max``); a stream that breaks mid-body (connection lost, no ``[DONE]``) is
requested again once, after ``listener.on_retry``; everything else surfaces at once.
Cancelling the awaiting task closes the connection (the ``async with`` around the response)
and lets ``CancelledError`` through.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
from typing import Any
from urllib.parse import urlsplit

import httpx

from sam_plugin.errors import ProviderError
from sam_plugin.runtime.provider_errors import error_from_http, is_retryable_status, scrub
from sam_plugin.runtime.provider_stream import StreamAccumulator
from sam_plugin.runtime.provider_types import ChatResponse, StreamListener, ToolCall
from sam_plugin.runtime.settings import ProviderSettings
from sam_plugin.runtime.sse import SSEDecoder

__all__ = [
    "ChatProvider",
    "ChatResponse",
    "ProviderError",
    "StreamListener",
    "ToolCall",
]

log = logging.getLogger(__name__)

_MAX_ERROR_BODY = 64 * 1024
_LOOPBACK = ("all://127.0.0.1", "all://localhost", "all://[::1]")


class _FailedBeforeBody(Exception):
    def __init__(self, error: ProviderError, *, retryable: bool) -> None:
        super().__init__(str(error))
        self.error = error
        self.retryable = retryable


class _BrokenStream(Exception):
    def __init__(self, error: ProviderError) -> None:
        super().__init__(str(error))
        self.error = error


def request_timeout(s: ProviderSettings) -> httpx.Timeout:
    return httpx.Timeout(
        connect=s.connect_timeout,
        read=s.idle_read_timeout,
        write=s.idle_read_timeout,
        pool=s.connect_timeout,
    )


def new_http_client(settings: ProviderSettings | None = None) -> httpx.AsyncClient:
    """The HTTP client a provider uses (the dock builds one ahead of the first run)."""
    timeout = request_timeout(settings or ProviderSettings())
    # Proxies from the environment apply (corporate networks), but never to a local
    # server: an HTTP(S)_PROXY without NO_PROXY would otherwise swallow Ollama & co.
    return httpx.AsyncClient(timeout=timeout, mounts=dict.fromkeys(_LOOPBACK))


class ChatProvider:
    """Streams chat completions from one configured endpoint."""

    def __init__(
        self, settings: ProviderSettings, *, client: httpx.AsyncClient | None = None
    ) -> None:
        self._settings = settings
        self._owns_client = client is None
        self._client = client if client is not None else self._new_client()
        self._closed = False

    def __repr__(self) -> str:
        return f"ChatProvider(base_url={self._settings.base_url!r}, model={self._settings.model!r})"

    @property
    def settings(self) -> ProviderSettings:
        return self._settings

    def build_request(
        self,
        messages: list[dict[str, Any]],
        tools: list[dict[str, Any]] | None = None,
        *,
        tool_choice: Any = None,
    ) -> dict[str, Any]:
        """The JSON body that :meth:`stream_chat` sends."""
        settings = self._settings
        caps = settings.capabilities
        body: dict[str, Any] = {
            "model": settings.model,
            "stream": True,
            "temperature": settings.temperature,
            "messages": messages,
        }
        if caps.include_usage:
            body["stream_options"] = {"include_usage": True}
        if tools:
            body["tools"] = tools if caps.strict_tools else [_without_strict(t) for t in tools]
            if tool_choice is not None and caps.tool_choice:
                body["tool_choice"] = tool_choice
        return body

    async def stream_chat(
        self,
        messages: list[dict[str, Any]],
        tools: list[dict[str, Any]] | None = None,
        *,
        listener: StreamListener | None = None,
        tool_choice: Any = None,
    ) -> ChatResponse:
        """Send one chat request and return the reassembled streamed answer.

        Raises :class:`ProviderError` (classified, keyless) or ``asyncio.CancelledError``.
        """
        if self._closed:
            raise ProviderError("cancelled", "the provider was closed")
        missing = self._settings.missing_fields()
        if missing:
            raise ProviderError(
                "bad_request",
                f"provider settings incomplete: missing {', '.join(missing)} "
                "(set them in the settings or via SAM_AGENT_BASE_URL / SAM_AGENT_API_KEY / "
                "SAM_AGENT_MODEL)",
            )
        body = self.build_request(messages, tools, tool_choice=tool_choice)
        listener = listener or StreamListener()
        total = self._settings.total_timeout
        try:
            async with asyncio.timeout(total):
                return await self._with_retries(body, listener)
        except TimeoutError:
            raise ProviderError(
                "timeout", f"no complete response within the total timeout of {total:g}s"
            ) from None

    async def aclose(self) -> None:
        self._closed = True
        if self._owns_client:
            await self._client.aclose()

    async def __aenter__(self) -> ChatProvider:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    # -- internals -----------------------------------------------------------------------

    def _new_client(self) -> httpx.AsyncClient:
        return new_http_client(self._settings)

    def _headers(self) -> dict[str, str]:
        headers = {"Accept": "text/event-stream", "Cache-Control": "no-store"}
        key = self._settings.api_key.get_secret_value()
        if key:
            headers["Authorization"] = f"Bearer {key}"
        return headers

    def _backoff(self, attempt: int) -> float:
        s = self._settings
        wait = min(s.backoff_max, s.backoff_base * (2 ** (attempt - 1)))
        return wait * random.uniform(0.75, 1.0)

    async def _with_retries(self, body: dict[str, Any], listener: StreamListener) -> ChatResponse:
        settings = self._settings
        retries = 0
        stream_retried = False
        while True:
            try:
                return await self._attempt(body, listener)
            except _FailedBeforeBody as failure:
                error = failure.error
                if not failure.retryable or retries >= settings.max_retries:
                    raise error from failure.__cause__
                if error.retry_after is not None and error.retry_after > settings.retry_after_max:
                    raise error from failure.__cause__
                retries += 1
                wait = (
                    error.retry_after if error.retry_after is not None else self._backoff(retries)
                )
            except _BrokenStream as failure:
                error = failure.error
                if stream_retried or not settings.retry_broken_stream:
                    raise error from failure.__cause__
                stream_retried = True
                wait = self._backoff(1)
                listener.on_retry(error)
            log.warning("provider call failed (%s); retrying in %.2fs", error, wait)
            await asyncio.sleep(wait)

    async def _attempt(self, body: dict[str, Any], listener: StreamListener) -> ChatResponse:
        settings = self._settings
        secret = settings.api_key.get_secret_value()
        raw: list[bytes] = []
        started = False
        try:
            async with self._client.stream(
                "POST",
                settings.chat_completions_url,
                json=body,
                headers=self._headers(),
                timeout=request_timeout(self._settings),
            ) as response:
                if response.status_code != 200:
                    error = error_from_http(
                        response.status_code,
                        await _read_limited(response),
                        response.headers,
                        secret=secret,
                        reason=response.reason_phrase,
                    )
                    raise _FailedBeforeBody(
                        error, retryable=is_retryable_status(response.status_code)
                    )
                started = True
                return await _read_response(response, listener, raw, secret)
        except ProviderError as error:
            if not error.raw_sse:
                error.raw_sse = _scrub_bytes(b"".join(raw), secret)
            raise
        except httpx.ConnectTimeout as exc:
            raise _FailedBeforeBody(
                ProviderError(
                    "timeout",
                    f"could not connect to {_host(settings.base_url)} within "
                    f"{settings.connect_timeout:g}s",
                ),
                retryable=True,
            ) from exc
        except httpx.TimeoutException as exc:
            where = "between two reads of the stream" if started else "before the response began"
            raise ProviderError(
                "timeout",
                f"no data from the provider for {settings.idle_read_timeout:g}s {where} "
                "(idle read timeout)",
                raw_sse=_scrub_bytes(b"".join(raw), secret),
            ) from exc
        except httpx.TransportError as exc:
            detail = scrub(str(exc) or type(exc).__name__, secret)
            if started:
                received = sum(len(part) for part in raw)
                raise _BrokenStream(
                    ProviderError(
                        "protocol",
                        f"the stream broke after {received} bytes: {detail}",
                        raw_sse=_scrub_bytes(b"".join(raw), secret),
                    )
                ) from exc
            raise _FailedBeforeBody(
                ProviderError("connection", f"cannot reach {_host(settings.base_url)}: {detail}"),
                retryable=True,
            ) from exc


async def _read_response(
    response: httpx.Response, listener: StreamListener, raw: list[bytes], secret: str
) -> ChatResponse:
    accumulator = StreamAccumulator(listener, secret=secret)
    content_type = response.headers.get("content-type", "").lower()
    if content_type and "event-stream" not in content_type:
        body = await response.aread()
        raw.append(body)
        if "json" not in content_type:
            raise ProviderError(
                "protocol",
                f"expected text/event-stream, got {content_type}: "
                f"{scrub(body[:200].decode('utf-8', 'replace'), secret)!r}",
            )
        try:
            completion = json.loads(body)
        except ValueError:
            raise ProviderError("protocol", "malformed JSON response body") from None
        accumulator.handle_completion(completion)
        return accumulator.result(_scrub_bytes(body, secret))

    decoder = SSEDecoder()
    scrubber = _StreamScrubber(secret)
    async for received in response.aiter_bytes():
        chunk = scrubber.feed(received)
        if not chunk:
            continue
        raw.append(chunk)
        listener.on_raw(chunk)
        for event in decoder.feed(chunk):
            accumulator.handle(event)
            if accumulator.done:
                break
        if accumulator.done:
            break
    tail = scrubber.flush()
    if tail and not accumulator.done:
        raw.append(tail)
        listener.on_raw(tail)
        for event in decoder.feed(tail):
            accumulator.handle(event)
    if not accumulator.done:
        pending = decoder.finish()
        if pending is not None and pending.data.strip() == "[DONE]":
            accumulator.done = True  # "[DONE]" without the final blank line: still complete
    if not accumulator.done:
        received = sum(len(part) for part in raw)
        raise _BrokenStream(
            ProviderError(
                "protocol",
                f"the stream ended without data: [DONE] after {accumulator.events_seen} events "
                f"and {received} bytes (truncated response)",
                raw_sse=b"".join(raw),
            )
        )
    return accumulator.result(_scrub_bytes(b"".join(raw), secret))


async def _read_limited(response: httpx.Response) -> bytes:
    parts: list[bytes] = []
    size = 0
    async for chunk in response.aiter_bytes():
        parts.append(chunk)
        size += len(chunk)
        if size >= _MAX_ERROR_BODY:
            break
    return b"".join(parts)[:_MAX_ERROR_BODY]


class _StreamScrubber:
    """Replaces the key in a byte stream even when it spans chunks, by holding back the
    shortest chunk tail that could start the key (never a line end, so no event waits)."""

    def __init__(self, secret: str) -> None:
        self._key = secret.encode() if secret else b""
        self._held = b""

    def feed(self, chunk: bytes) -> bytes:
        key = self._key
        if not key:
            return chunk
        data = self._held + chunk if self._held else chunk
        if key in data:
            data = data.replace(key, b"***")
        first = key[:1]
        at = data.find(first, max(0, len(data) - len(key) + 1))
        while at != -1:
            if key.startswith(data[at:]):
                self._held = data[at:]
                return data[:at]
            at = data.find(first, at + 1)
        self._held = b""
        return data

    def flush(self) -> bytes:
        held, self._held = self._held, b""
        return held


def _scrub_bytes(data: bytes, secret: str) -> bytes:
    if secret:
        secret_bytes = secret.encode()
        if secret_bytes in data:
            return data.replace(secret_bytes, b"***")
    return data


def _without_strict(tool: dict[str, Any]) -> dict[str, Any]:
    function = tool.get("function")
    if isinstance(function, dict) and "strict" in function:
        return {**tool, "function": {k: v for k, v in function.items() if k != "strict"}}
    return tool


def _host(url: str) -> str:
    try:
        return urlsplit(url).netloc or url
    except ValueError:
        return url
