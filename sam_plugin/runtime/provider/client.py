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
import ssl
from typing import Any
from urllib.parse import urlsplit

import httpx

from sam_plugin.errors import ProviderError
from sam_plugin.runtime.config.settings import MIB, ProviderSettings
from sam_plugin.runtime.provider.errors import error_from_http, is_retryable_status, scrub
from sam_plugin.runtime.provider.sse import SSEDecoder
from sam_plugin.runtime.provider.stream import StreamAccumulator
from sam_plugin.runtime.provider.transport import transport_cause
from sam_plugin.runtime.provider.types import (
    ChatResponse,
    RequestOptions,
    StreamListener,
    ToolCall,
)
from sam_plugin.runtime.store.scrubber import Scrubber

__all__ = [
    "ChatProvider",
    "ChatResponse",
    "ProviderError",
    "RequestOptions",
    "StreamListener",
    "ToolCall",
]

log = logging.getLogger(__name__)

_MAX_ERROR_BODY = 64 * 1024
_LOOPBACK = ("all://127.0.0.1", "all://localhost", "all://[::1]")
_LOOPBACK_HOSTS = frozenset({"127.0.0.1", "localhost", "::1"})


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
    settings = settings or ProviderSettings()
    timeout = request_timeout(settings)
    # Proxies from the environment apply (corporate networks), but never to a local
    # server: an HTTP(S)_PROXY without NO_PROXY would otherwise swallow Ollama & co.
    if _plain_local(settings.base_url):
        # no TLS on this machine's plain-HTTP server: the client trusts no authority (a TLS
        # connection would be refused) rather than load the CA bundle, 40 ms of a CLI run
        return httpx.AsyncClient(timeout=timeout, mounts=dict.fromkeys(_LOOPBACK),
                                 verify=ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT))
    return httpx.AsyncClient(timeout=timeout, mounts=dict.fromkeys(_LOOPBACK))


def _plain_local(base_url: str) -> bool:
    """An ``http://`` URL of this machine (loopback: no proxy is ever used for it)."""
    try:
        parts = urlsplit(base_url)
        return parts.scheme == "http" and parts.hostname in _LOOPBACK_HOSTS
    except ValueError:
        return False


class ChatProvider:
    """Streams chat completions from one configured endpoint."""

    def __init__(
        self, settings: ProviderSettings, *, client: httpx.AsyncClient | None = None
    ) -> None:
        self._settings = settings
        self._owns_client = client is None
        self._client = client if client is not None else self._new_client()
        self._closed = False
        self._scrubber = Scrubber(settings.api_key.get_secret_value())
        self._received = _Body()  # the latest attempt's body as received (unscrubbed)

    def __repr__(self) -> str:
        return f"ChatProvider(base_url={self._settings.base_url!r}, model={self._settings.model!r})"

    @property
    def settings(self) -> ProviderSettings:
        return self._settings

    @property
    def received_sse(self) -> bytes:
        """Every body byte of the latest attempt so far, scrubbed: what the ``.sse`` artifact
        keeps after a success, a timeout, a cancel or an error alike."""
        return self._scrubber.bytes(self._received.joined())

    def build_request(
        self,
        messages: list[dict[str, Any]],
        tools: list[dict[str, Any]] | None = None,
        *,
        tool_choice: Any = None,
        options: RequestOptions | None = None,
    ) -> dict[str, Any]:
        """The JSON body that :meth:`stream_chat` sends. ``options`` are sent as given (the
        caller shaped them for the profile, runtime/provider/constraint.py); the older
        ``tool_choice`` argument only where the profile allows a tool choice."""
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
        if options is not None:
            if options.tool_choice is not None and tools:
                body["tool_choice"] = options.tool_choice
            if options.response_format is not None:
                body["response_format"] = options.response_format
            if options.max_tokens is not None:
                body["max_tokens"] = options.max_tokens
        return body

    async def stream_chat(
        self,
        messages: list[dict[str, Any]],
        tools: list[dict[str, Any]] | None = None,
        *,
        listener: StreamListener | None = None,
        tool_choice: Any = None,
        options: RequestOptions | None = None,
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
        body = self.build_request(messages, tools, tool_choice=tool_choice, options=options)
        listener = listener or StreamListener()
        total = self._settings.total_timeout
        try:
            async with asyncio.timeout(total):
                return await self._with_retries(body, listener)
        except TimeoutError:
            raise ProviderError(
                "timeout",
                f"no complete response within the total timeout of {total:g}s "
                f"(total timeout; --timeout) after {self._received} received",
                raw_sse=self.received_sse,
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
        wait = min(s.backoff_max, s.backoff_base * 2.0 ** (attempt - 1))
        return float(wait * random.uniform(0.75, 1.0))

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
                # try retries + 1 of max_retries + 1 comes next: views say so while waiting
                listener.on_connect_retry(error, retries + 1, settings.max_retries + 1,
                                          _host(settings.base_url))
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
        secret = self._scrubber
        raw = self._received = _Body()
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
                return await _read_response(response, listener, raw, settings, secret)
        except ProviderError as error:
            if not error.raw_sse:
                error.raw_sse = self._scrubber.bytes(raw.joined())
            raise
        except httpx.ConnectTimeout as exc:
            raise _FailedBeforeBody(
                ProviderError(
                    "timeout",
                    f"could not connect to {_host(settings.base_url)} within "
                    f"{settings.connect_timeout:g}s",
                    cause=transport_cause(exc), host=_host(settings.base_url),
                ),
                retryable=True,
            ) from exc
        except httpx.TimeoutException as exc:
            where = "between two reads of the stream" if started else "before the response began"
            raise ProviderError(
                "timeout",
                f"no data from the provider for {settings.idle_read_timeout:g}s {where} "
                "(idle read timeout)",
                raw_sse=self._scrubber.bytes(raw.joined()),
                cause=transport_cause(exc), host=_host(settings.base_url),
            ) from exc
        except httpx.TransportError as exc:
            detail = scrub(str(exc) or type(exc).__name__, secret)
            cause = transport_cause(exc, started=started)
            if started:
                received = raw.size
                raise _BrokenStream(
                    ProviderError(
                        "protocol",
                        f"the stream broke after {received} bytes: {detail}",
                        raw_sse=self._scrubber.bytes(raw.joined()),
                        cause=cause, host=_host(settings.base_url),
                    )
                ) from exc
            raise _FailedBeforeBody(
                ProviderError("connection", f"cannot reach {_host(settings.base_url)}: {detail}",
                              cause=cause, host=_host(settings.base_url)),
                retryable=True,
            ) from exc


async def _read_response(
    response: httpx.Response,
    listener: StreamListener,
    raw: _Body,
    settings: ProviderSettings,
    scrubber: Scrubber,
) -> ChatResponse:
    """Reads one 200 body into a response. Decoding works on the bytes as received (a tool
    call's arguments must show the key, so that the tool-call layer can refuse the call);
    everything passed on (listener, ``raw_sse``, messages) is scrubbed."""
    accumulator = StreamAccumulator(listener, scrubber=scrubber)
    cap = settings.max_response_bytes
    content_type = response.headers.get("content-type", "").lower()
    if content_type and "event-stream" not in content_type:
        async for received in response.aiter_bytes():
            raw.add(received, cap)
        body = raw.joined()
        if "json" not in content_type:
            raise ProviderError(
                "protocol",
                f"expected text/event-stream, got {content_type}: "
                f"{scrubber.text(body[:200].decode('utf-8', 'replace'))!r}",
            )
        try:
            completion = json.loads(body)
        except ValueError:
            raise ProviderError("protocol", "malformed JSON response body") from None
        accumulator.handle_completion(completion)
        return accumulator.result(scrubber.bytes(body))

    decoder = SSEDecoder()
    # the body as it comes, scrubbed, for a listener that takes it (none of the plugin's does)
    shown = scrubber.stream(binary=True) if _takes_raw(listener) else None
    idle = settings.idle_timeout
    loop = asyncio.get_running_loop()
    try:
        async with asyncio.timeout(idle) as watchdog:
            async for received in response.aiter_bytes():
                if not received:
                    continue
                raw.add(received, cap)
                passed = shown.feed(received) if shown is not None else b""
                if passed:
                    listener.on_raw(passed)
                before = accumulator.progress
                for event in decoder.feed(received):
                    accumulator.handle(event)
                    if accumulator.done:
                        break
                if accumulator.done:
                    break
                if accumulator.progress > before:  # new text, not only events (empty deltas)
                    watchdog.reschedule(loop.time() + idle)
    except TimeoutError:
        raise ProviderError(
            "timeout",
            f"no progress from the provider for {idle:g}s (idle timeout; --idle-timeout): no "
            "new content, tool-call argument or reasoning characters after "
            f"{accumulator.events_seen} events and {raw} received",
        ) from None
    tail = shown.flush() if shown is not None else b""
    if tail:
        listener.on_raw(tail)
    if not accumulator.done:
        pending = decoder.finish()
        if pending is not None and pending.data.strip() == "[DONE]":
            accumulator.done = True  # "[DONE]" without the final blank line: still complete
    if not accumulator.done:
        raise _BrokenStream(
            ProviderError(
                "protocol",
                f"the stream ended without data: [DONE] after {accumulator.events_seen} events "
                f"and {raw} (truncated response)",
                raw_sse=scrubber.bytes(raw.joined()),
            )
        )
    return accumulator.result(scrubber.bytes(raw.joined()))


class _Body:
    """The body bytes of one attempt as received, and their count."""

    __slots__ = ("parts", "size")

    def __init__(self) -> None:
        self.parts: list[bytes] = []
        self.size = 0

    def add(self, chunk: bytes, cap: int | None = None) -> None:
        self.parts.append(chunk)
        self.size += len(chunk)
        if cap is not None and self.size > cap:
            # at the provider layer, before a server streaming valid SSE forever can grow
            # the process
            raise ProviderError(
                "protocol",
                f"the response passed the size cap of {_mib(cap)} (max_response_bytes) "
                f"after {self.size} bytes; the stream was stopped",
            )

    def joined(self) -> bytes:
        return b"".join(self.parts)

    def __str__(self) -> str:
        return f"{self.size} bytes"


def _mib(size: int) -> str:
    return f"{size / MIB:g} MiB" if size >= MIB else f"{size} bytes"


async def _read_limited(response: httpx.Response) -> bytes:
    parts: list[bytes] = []
    size = 0
    async for chunk in response.aiter_bytes():
        parts.append(chunk)
        size += len(chunk)
        if size >= _MAX_ERROR_BODY:
            break
    return b"".join(parts)[:_MAX_ERROR_BODY]


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


def _takes_raw(listener: StreamListener) -> bool:
    """Whether ``listener`` does something with the raw body (``on_raw`` overridden)."""
    return type(listener).on_raw is not StreamListener.on_raw
