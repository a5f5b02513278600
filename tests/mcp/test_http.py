"""Inside SAM: the gate over streamable HTTP on 127.0.0.1, every request carrying the bearer
token (only its SHA-256 is kept), the server stopped with the dock (docs/mcp.md)."""

from __future__ import annotations

import asyncio

import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp_support import (
    Person,
    approve_at_terminal,
    call,
    execute,
    fingerprint,
    memory_connect,
    plan,
    translate,
)

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


def test_a_plan_waiting_when_the_server_stops_stays_kept_for_the_next_server(in_memory):
    """The dock's server stops (the dock closed) with a plan waiting: nothing ran, the plan
    is kept, and once a person approved it the next server on the same database runs it."""
    import sam

    from sam_plugin.mcp_server.gate import Gate
    from sam_plugin.runtime.host_gateway import HostGateway

    token = new_token()
    service = HttpService(in_memory.gate, token_digest(token), port=0)

    async def first() -> dict:
        url = await service.start()
        http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"})
        async with http, Client(streamable_http_client(url, http_client=http)) as client:
            planned = await plan(client, translate(5))
        await service.stop()
        return planned

    planned = asyncio.run(first())
    run_dir = in_memory.runs / planned["run_id"]
    assert not (run_dir / "result.json").exists() and (run_dir / "kept_plan.json").exists()
    approved = approve_at_terminal(in_memory.runs, planned["run_id"])
    assert approved.returncode == 0, approved.stderr
    assert "no execute_plan waits for it now" in approved.stdout
    later = Gate(host=HostGateway(sam), runs_dir=in_memory.runs)

    async def second() -> None:
        async with memory_connect(later)() as client:
            before = await fingerprint(client)
            done = await execute(client, planned, wait=0)
            assert (done["status"], done["decision"]["channel"]) == ("verified", "command")
            assert await fingerprint(client) == done["result"]["after"]["fingerprint"] != before

    try:
        asyncio.run(second())
    finally:
        later.close()
