"""Inside SAM: the gate over streamable HTTP on 127.0.0.1, every request carrying the bearer
token (only its SHA-256 is kept), the server stopped with the dock (docs/mcp.md)."""

from __future__ import annotations

import asyncio

import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp_support import Person, call, execute, fingerprint, plan, translate

from sam_plugin.mcp_server.http import HOST, HttpService, new_token, token_digest


def test_only_a_request_with_the_token_reaches_the_tools(in_memory):
    token = new_token()
    service = HttpService(in_memory.gate, token_digest(token), port=0)

    async def scenario() -> None:
        url = await service.start()
        try:
            assert url.startswith(f"http://{HOST}:") and url.endswith("/mcp")
            async with httpx2.AsyncClient() as raw:
                for headers in ({}, {"Authorization": "Bearer wrong"},
                                {"Authorization": token}):
                    answer = await raw.post(url, headers=headers, json={})
                    assert answer.status_code == 401, headers
            http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"})
            async with http, Client(streamable_http_client(url, http_client=http),
                                    elicitation_callback=Person("execute")) as client:
                before = await fingerprint(client)
                failed, targets = await call(client, "list_targets", {})
                assert not failed and targets["models"]
                done = await execute(client, await plan(client, translate(5)))
                assert done["status"] == "verified"
                assert await fingerprint(client) == done["result"]["after"]["fingerprint"] \
                    != before
        finally:
            await service.stop()
        assert not service.running

    asyncio.run(scenario())


def test_a_plan_waiting_when_the_server_stops_is_cancelled(in_memory):
    token = new_token()
    service = HttpService(in_memory.gate, token_digest(token), port=0)

    async def scenario() -> str:
        url = await service.start()
        http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"})
        async with http, Client(streamable_http_client(url, http_client=http)) as client:
            planned = await plan(client, translate(5))
        await service.stop()
        return str(planned["run_id"])

    run_id = asyncio.run(scenario())
    result = (in_memory.runs / run_id / "result.json").read_text()
    assert '"status": "cancelled"' in result
