"""The gate over streamable HTTP, inside SAM: 127.0.0.1 only, a bearer token on every request
(docs/mcp.md "Inside SAM").

Started by the dock when its Settings turn it on (off by default) and stopped with the dock.
It runs on the event loop of the caller (the dock's: SAM's GUI thread under qasync), so every
host call stays on the thread SAM requires. The token is a random secret shown once; only its
SHA-256 is kept (``SettingsStore``) and compared in constant time. The SDK's own DNS-rebinding
protection stays on (Host and Origin must be this machine).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
from collections.abc import Awaitable, Callable, Iterator, MutableMapping
from typing import Any

import uvicorn

from sam_plugin.mcp_server.bearer import new_token, token_digest, token_matches
from sam_plugin.mcp_server.gate import Gate
from sam_plugin.mcp_server.server import build_server

__all__ = ["HOST", "HttpService", "new_token", "token_digest"]

log = logging.getLogger(__name__)

HOST = "127.0.0.1"  # never another interface: the gate acts on the analyst's database
PATH = "/mcp"
DEFAULT_PORT = 8765

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]


class BearerOnly:
    """ASGI middleware: a request without ``Authorization: Bearer <the token>`` is answered
    401 before the MCP app sees it."""

    def __init__(self, app: App, digest: str) -> None:
        self._app = app
        self._digest = digest

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and not self._authorized(scope):
            await send({"type": "http.response.start", "status": 401,
                        "headers": [(b"content-type", b"text/plain; charset=utf-8"),
                                    (b"www-authenticate", b"Bearer")]})
            await send({"type": "http.response.body",
                        "body": b"a bearer token is required (SAM Agent Settings shows it once)"})
            return
        await self._app(scope, receive, send)

    def _authorized(self, scope: Scope) -> bool:
        headers = dict(scope.get("headers") or [])
        value = headers.get(b"authorization", b"").decode("latin-1")
        scheme, _, token = value.partition(" ")
        if scheme.lower() != "bearer" or not token:
            return False
        return token_matches(token.strip(), self._digest)


class _QuietServer(uvicorn.Server):
    """uvicorn without its signal handlers: SAM owns SIGINT and SIGTERM."""

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        yield


class HttpService:
    """One streamable-HTTP server for ``gate`` on ``127.0.0.1:port``."""

    def __init__(self, gate: Gate, digest: str, port: int = DEFAULT_PORT) -> None:
        if not digest:
            raise ValueError("token: make one first (Settings: New token)")
        self.gate = gate
        self.port = port
        self._digest = digest
        self._server: _QuietServer | None = None
        self._task: asyncio.Task[None] | None = None

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.port}{PATH}"

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    async def start(self) -> str:
        """Listen (``OSError`` when the port is taken), then serve in the background; the
        URL clients connect to."""
        app = build_server(self.gate, transport="http").streamable_http_app(
            streamable_http_path=PATH, host=HOST)
        listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            listener.bind((HOST, self.port))
        except OSError:
            listener.close()
            raise
        self.port = listener.getsockname()[1]
        config = uvicorn.Config(BearerOnly(app, self._digest), log_level="warning",
                                lifespan="on", access_log=False)
        self._server = _QuietServer(config)
        self._task = asyncio.ensure_future(self._server.serve(sockets=[listener]))
        while not self._server.started and not self._task.done():
            await asyncio.sleep(0.02)
        if self._task.done():
            self._task.result()  # the server's own error
        return self.url

    async def stop(self) -> None:
        """Stop serving; the plans that wait stay kept (docs/mcp.md "Plans outlive the
        server")."""
        if self._server is not None:
            self._server.should_exit = True
        if self._task is not None:
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await asyncio.wait_for(self._task, timeout=5)
        self._server = self._task = None
        self.gate.close()
