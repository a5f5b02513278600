"""Serving the gate over stdio, one client per process (docs/mcp.md "Run it")."""

from __future__ import annotations

from mcp.server.stdio import stdio_server

from sam_plugin.mcp_server.gate import Gate
from sam_plugin.mcp_server.server import build_server


async def serve_stdio(gate: Gate) -> None:
    """Serve until the client closes stdin; every plan still waiting is then cancelled.

    While serving, the SDK points file descriptor 1 at stderr, so what a script prints can
    never break the protocol on stdout."""
    server = build_server(gate)
    try:
        async with stdio_server() as (read_stream, write_stream):
            await server.run(read_stream, write_stream, server.create_initialization_options())
    finally:
        gate.close()
