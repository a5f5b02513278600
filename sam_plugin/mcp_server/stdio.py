"""Serving the gate over stdio, one client per process (docs/mcp.md "Install and run").

The SDK's stdio transport serves, with the client's lines handed to it through
``line_guard``: a line too large or too deep for any tool is answered at once with the tool's
refusal instead of being dropped unanswered. Like the SDK's own reader, this one reads the
wire from a private duplicate of fd 0 and points fd 0 at the null device meanwhile, so that
nothing a script runs can read the protocol; the SDK points fd 1 at stderr likewise.
"""

from __future__ import annotations

import contextlib
import io
import logging
import os
import sys
from collections.abc import AsyncIterator, Iterator
from typing import IO, Any

import anyio
from mcp.server.stdio import stdio_server
from mcp.shared.message import SessionMessage

from sam_plugin.mcp_server import line_guard
from sam_plugin.mcp_server.gate import Gate
from sam_plugin.mcp_server.server import build_server

log = logging.getLogger(__name__)


class GuardedLines:
    """The client's lines as the SDK's reader takes them; a refused line is answered through
    the write stream (attached once the transport runs) and not handed on."""

    def __init__(self, source: anyio.AsyncFile[str], max_bytes: int) -> None:
        self._source = source
        self._max_bytes = max_bytes
        self._write: Any = None
        self._attached = anyio.Event()

    def attach(self, write_stream: Any) -> None:
        self._write = write_stream
        self._attached.set()

    def __aiter__(self) -> AsyncIterator[str]:
        return self._lines()

    async def _lines(self) -> AsyncIterator[str]:
        async for line in self._source:
            refusal = line_guard.line_refusal(line, self._max_bytes)
            if refusal is None:
                yield line
                continue
            reply = line_guard.answer(line, refusal)
            if reply is None:
                log.warning("a message without a request id was refused: %s", refusal)
                continue
            await self._attached.wait()
            await self._write.send(SessionMessage(reply))


async def serve_stdio(gate: Gate) -> None:
    """Serve until the client closes stdin; the plans that wait stay kept."""
    server = build_server(gate)
    try:
        with _wire_stdin() as wire:
            text = io.TextIOWrapper(wire, encoding="utf-8", errors="replace")
            try:
                lines = GuardedLines(anyio.wrap_file(text),
                                     gate.settings.max_argument_bytes)
                async with stdio_server(stdin=lines) as (  # type: ignore[arg-type]  # any async iterable of lines
                        read_stream, write_stream):
                    lines.attach(write_stream)
                    await server.run(read_stream, write_stream,
                                     server.create_initialization_options())
            finally:
                text.detach()  # the buffer is the wire's (or sys.stdin's): never closed here
    finally:
        gate.close()


@contextlib.contextmanager
def _wire_stdin() -> Iterator[IO[bytes]]:
    """The wire: a private duplicate of fd 0, with fd 0 pointed at the null device while it
    is read (else, where descriptors cannot be moved, stdin's own buffer)."""
    try:
        private = os.dup(0)
    except OSError:
        yield sys.stdin.buffer
        return
    try:
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.close(null)
    except OSError:
        os.close(private)
        yield sys.stdin.buffer
        return
    try:
        # closefd=False: a worker thread may still block on it after the transport ends
        yield os.fdopen(private, "rb", closefd=False)
    finally:
        with contextlib.suppress(OSError):
            os.dup2(private, 0)
