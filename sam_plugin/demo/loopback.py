"""A loopback fake of an OpenAI-compatible chat endpoint: a real HTTP server on 127.0.0.1.

It ships with the demo, whose replay mode answers through it (``demo/replay.py``); the tests
use it as their provider too (``tests/support/fixtures.py``).

Scripted responses are served in order to ``POST /v1/chat/completions``: SSE streams (raw
pieces, split anywhere, optionally paced or cut off), HTTP errors, dropped connections. A
``responder`` callable (request JSON -> response) can answer instead, so the demo can replay
recorded sessions by matching requests. Every request is recorded. Streams are sent with
chunked transfer encoding, one HTTP chunk per piece, so a piece arrives at the client as
its own read; while pacing, the server watches the socket and notices a client disconnect.

    fake = FakeProvider()            # started
    fake.enqueue_stream(openai_stream(content="hi"))
    ... ProviderSettings(base_url=fake.base_url, ...) ...
    fake.close()
"""

from __future__ import annotations

import json
import select
import socket
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

NO_SCRIPT_LEFT = "fake provider: no scripted response left"
_POLL_SECONDS = 0.01


@dataclass
class RecordedRequest:
    method: str
    path: str
    headers: dict[str, str]  # lower-case names
    body: bytes
    json: Any  # parsed body, or None when it was not JSON


@dataclass
class StreamResponse:
    """SSE pieces sent one HTTP chunk each, ``delay`` seconds apart (before each piece).

    ``abort_after`` cuts the connection after that many pieces without ending the chunked
    body (a transport-level break); ``status``/``headers`` override the 200 defaults.
    """

    chunks: list[bytes]
    delay: float = 0.0
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    abort_after: int | None = None
    content_type: str = "text/event-stream; charset=utf-8"


@dataclass
class ErrorResponse:
    status: int
    body: bytes
    headers: dict[str, str] = field(default_factory=dict)
    content_type: str = "application/json"


@dataclass
class DropConnection:
    """Close the connection without answering (a failure before the body starts)."""


@dataclass
class HangResponse:
    """Send nothing for ``seconds`` (or until the client goes away), then close."""

    seconds: float


ScriptedResponse = StreamResponse | ErrorResponse | DropConnection | HangResponse
Responder = Callable[[Any], "ScriptedResponse | list[bytes | str] | None"]


def _to_bytes(piece: bytes | str) -> bytes:
    return piece.encode("utf-8") if isinstance(piece, str) else piece


class FakeProvider:
    """Starts serving at construction; ``base_url`` ends in ``/v1``."""

    def __init__(self, *, responder: Responder | None = None) -> None:
        self.requests: list[RecordedRequest] = []  # POSTs: the chat requests
        self.probes: list[RecordedRequest] = []  # GETs: a server probe, a model list
        # what a GET answers per path (a server's own routes: /props, /api/version, ...)
        self.get_routes: dict[str, Any] = {}
        self.disconnects = 0  # client disconnects noticed while a response was being paced
        self.client_disconnected = threading.Event()
        self.responder = responder
        self._queue: deque[ScriptedResponse] = deque()
        self._lock = threading.Lock()
        self._closing = threading.Event()
        self._server = _QuietServer(("127.0.0.1", 0), _make_handler(self))
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        self._thread.start()

    # -- scripting --------------------------------------------------------------------------

    @property
    def port(self) -> int:
        return int(self._server.server_address[1])

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def enqueue(self, response: ScriptedResponse) -> None:
        with self._lock:
            self._queue.append(response)

    def enqueue_stream(
        self,
        chunks: Sequence[bytes | str],
        delay: float = 0.0,
        *,
        abort_after: int | None = None,
        headers: Mapping[str, str] | None = None,
        content_type: str = "text/event-stream; charset=utf-8",
    ) -> None:
        self.enqueue(
            StreamResponse(
                [_to_bytes(c) for c in chunks],
                delay=delay,
                headers=dict(headers or {}),
                abort_after=abort_after,
                content_type=content_type,
            )
        )

    def enqueue_error(
        self, status: int, body: dict[str, Any] | str, headers: Mapping[str, str] | None = None
    ) -> None:
        if isinstance(body, str):
            payload, content_type = body.encode("utf-8"), "text/plain; charset=utf-8"
        else:
            payload, content_type = json.dumps(body).encode("utf-8"), "application/json"
        self.enqueue(ErrorResponse(status, payload, dict(headers or {}), content_type))

    def enqueue_reply(
        self,
        content: str = "",
        *,
        tool_calls: Sequence[tuple[str, str]] = (),
        reasoning: str = "",
        style: str = "openai",
        delay: float = 0.0,
        **builder_options: Any,
    ) -> None:
        """A well-formed stream in the shape of ``style`` (openai, deepseek, ollama, llamacpp)."""
        from sam_plugin.demo import streams

        builders = {
            "openai": streams.openai_stream,
            "deepseek": streams.deepseek_stream,
            "ollama": streams.ollama_stream,
            "llamacpp": streams.llamacpp_stream,
        }
        if style not in builders:
            raise ValueError(f"style must be one of {sorted(builders)}, got {style!r}")
        options = dict(builder_options)
        if reasoning:
            if style not in ("deepseek", "llamacpp"):
                raise ValueError(
                    f"style {style!r} streams no reasoning; use style 'deepseek' or 'llamacpp'"
                )
            options["reasoning"] = reasoning
        chunks = builders[style](content=content, tool_calls=list(tool_calls), **options)
        self.enqueue_stream(chunks, delay=delay)

    def enqueue_drop(self) -> None:
        self.enqueue(DropConnection())

    def enqueue_hang(self, seconds: float) -> None:
        self.enqueue(HangResponse(seconds))

    @property
    def pending(self) -> int:
        with self._lock:
            return len(self._queue)

    def close(self) -> None:
        self._closing.set()
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)

    def __enter__(self) -> FakeProvider:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- serving (called from handler threads) ----------------------------------------------

    def _next_response(self, request_json: Any) -> ScriptedResponse:
        with self._lock:
            if self._queue:
                return self._queue.popleft()
        if self.responder is not None:
            answer = self.responder(request_json)
            if isinstance(answer, list):
                return StreamResponse([_to_bytes(c) for c in answer])
            if answer is not None:
                return answer
        return ErrorResponse(
            500,
            json.dumps({"error": {"message": NO_SCRIPT_LEFT, "type": "fake_provider"}}).encode(),
        )

    def _record(self, request: RecordedRequest) -> None:
        with self._lock:
            (self.probes if request.method == "GET" else self.requests).append(request)

    def _note_disconnect(self) -> None:
        with self._lock:
            self.disconnects += 1
        self.client_disconnected.set()

    def _wait(self, seconds: float, sock: socket.socket) -> bool:
        """Sleep ``seconds`` watching the client; False when it went away or we close."""
        deadline = time.monotonic() + seconds
        while True:
            if self._closing.is_set():
                return False
            if _peer_closed(sock):
                self._note_disconnect()
                return False
            left = deadline - time.monotonic()
            if left <= 0:
                return True
            time.sleep(min(_POLL_SECONDS, left))


class _QuietServer(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        # Clients close kept-alive connections whenever they like (e.g. right after [DONE]).
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


def _peer_closed(sock: socket.socket) -> bool:
    try:
        readable, _, _ = select.select([sock], [], [], 0)
        if not readable:
            return False
        return sock.recv(1, socket.MSG_PEEK) == b""
    except (OSError, ValueError):
        return True


def _make_handler(fake: FakeProvider) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        server_version = "FakeProvider/1.0"

        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - stdlib name
            pass

        def do_GET(self) -> None:  # noqa: N802 - stdlib name
            fake._record(RecordedRequest("GET", self.path, self._headers(), b"", None))
            route = fake.get_routes.get(self.path.rstrip("/"))
            if route is not None:
                self._send_json(200, route)
            elif self.path.rstrip("/").endswith("/models"):
                self._send_json(200, {"object": "list", "data": [{"id": "fake-model"}]})
            else:
                self._send_json(404, {"error": {"message": f"no route {self.path}"}})

        def do_POST(self) -> None:  # noqa: N802 - stdlib name
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else b""
            try:
                parsed = json.loads(body) if body else None
            except ValueError:
                parsed = None
            fake._record(RecordedRequest("POST", self.path, self._headers(), body, parsed))
            if not self.path.rstrip("/").endswith("/chat/completions"):
                self._send_json(404, {"error": {"message": f"no route {self.path}"}})
                return
            self._serve(fake._next_response(parsed))

        def _headers(self) -> dict[str, str]:
            return {name.lower(): value for name, value in self.headers.items()}

        def _send_json(self, status: int, payload: Any) -> None:
            self._send_bytes(status, json.dumps(payload).encode(), "application/json", {})

        def _send_bytes(
            self, status: int, data: bytes, content_type: str, headers: Mapping[str, str]
        ) -> None:
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(data)))
            for name, value in headers.items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(data)
            self.wfile.flush()

        def _serve(self, response: ScriptedResponse) -> None:
            if isinstance(response, ErrorResponse):
                self._send_bytes(
                    response.status, response.body, response.content_type, response.headers
                )
            elif isinstance(response, DropConnection):
                self.close_connection = True
            elif isinstance(response, HangResponse):
                fake._wait(response.seconds, self.connection)
                self.close_connection = True
            else:
                self._stream(response)

        def _stream(self, response: StreamResponse) -> None:
            self.send_response(response.status)
            self.send_header("Content-Type", response.content_type)
            self.send_header("Cache-Control", "no-cache")
            self.send_header("Transfer-Encoding", "chunked")
            for name, value in response.headers.items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.flush()
            try:
                for sent, piece in enumerate(response.chunks):
                    if response.abort_after is not None and sent >= response.abort_after:
                        self.close_connection = True
                        return
                    if response.delay and not fake._wait(response.delay, self.connection):
                        self.close_connection = True
                        return
                    if piece:
                        self.wfile.write(b"%x\r\n%s\r\n" % (len(piece), piece))
                        self.wfile.flush()
                if response.abort_after is not None:
                    self.close_connection = True
                    return
                self.wfile.write(b"0\r\n\r\n")
                self.wfile.flush()
            except (BrokenPipeError, ConnectionResetError):
                fake._note_disconnect()
                self.close_connection = True

    return Handler


# -- replay helpers (the demo's replay mode) ------------------------------------------------

RequestPredicate = Callable[[Any], bool]


def split_sse(data: bytes) -> list[bytes]:
    """A recorded ``provider_*.sse`` body cut back into its events (blank-line ends kept),
    so a replay streams event by event like the original."""
    normalized = data.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
    events = [piece + b"\n\n" for piece in normalized.split(b"\n\n") if piece.strip()]
    return events


def is_design_request(request: Any) -> bool:
    """A request without tools (docs/architecture.md I1)."""
    return isinstance(request, dict) and "tools" not in request


def offers_tool(name: str) -> RequestPredicate:
    def predicate(request: Any) -> bool:
        tools = request.get("tools") if isinstance(request, dict) else None
        return any((t.get("function") or {}).get("name") == name for t in tools or [])

    return predicate


def last_user_message_contains(text: str) -> RequestPredicate:
    def predicate(request: Any) -> bool:
        messages = request.get("messages") if isinstance(request, dict) else None
        for message in reversed(messages or []):
            if message.get("role") == "user":
                return text in str(message.get("content") or "")
        return False

    return predicate


def rule_responder(
    rules: Sequence[tuple[RequestPredicate, Sequence[bytes | str]]],
) -> Responder:
    """Answers each request with the stream of the first rule whose predicate matches;
    no match falls through to the fake's clear 500."""

    def respond(request: Any) -> StreamResponse | None:
        for predicate, chunks in rules:
            if predicate(request):
                return StreamResponse([_to_bytes(c) for c in chunks])
        return None

    return respond
