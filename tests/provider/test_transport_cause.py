"""What the transport said is typed where httpx is called (httpx's exception tree and the
operating system's error it wraps), never read back from httpx's English."""

from __future__ import annotations

import asyncio
import socket

import httpx
import pytest

from sam_plugin.errors import ProviderError, ProviderFailure
from sam_plugin.runtime.provider.transport import transport_cause
from sam_plugin.runtime.store.run_store import ErrorRecord


def _dead_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _raised(url: str) -> httpx.HTTPError:
    async def call() -> httpx.HTTPError:
        async with httpx.AsyncClient() as client:
            try:
                await client.get(url)
            except httpx.HTTPError as error:
                return error
        raise AssertionError(f"{url} answered")
    return asyncio.run(call())


def test_a_port_where_nothing_listens_is_refused_whatever_httpx_says() -> None:
    error = _raised(f"http://127.0.0.1:{_dead_port()}/")
    assert transport_cause(error) == "refused"


def test_a_host_name_that_does_not_resolve_is_an_unknown_host() -> None:
    assert transport_cause(_raised("http://no-such-host.invalid/")) == "unknown_host"


@pytest.mark.parametrize(("error", "started", "cause"), [
    (httpx.ConnectTimeout("x"), False, "connect_timeout"),
    (httpx.ReadTimeout("x"), True, "read_timeout"),
    (httpx.PoolTimeout("x"), False, "read_timeout"),
    (httpx.ReadError("Connection refused"), True, "broken_stream"),  # words do not matter
    (httpx.ConnectError("[Errno 111] Connection refused"), False, "unreachable"),
    (httpx.RemoteProtocolError("x"), False, "unreachable"),
])
def test_the_cause_follows_httpx_exception_tree(error: httpx.HTTPError, started: bool,
                                                cause: str) -> None:
    assert transport_cause(error, started=started) == cause


def test_the_failure_travels_as_data_into_result_json_beside_the_message() -> None:
    error = ProviderError("connection", "cannot reach h:1: All connection attempts failed",
                          cause="refused", host="h:1")
    failure = error.failure
    assert failure == ProviderFailure(kind="connection", cause="refused", host="h:1",
                                      said=str(error), detail=error.message)
    record = ErrorRecord(layer="provider", message=f"the design request failed: {error}",
                         provider=failure)
    dumped = record.model_dump(mode="json")
    assert dumped["provider"] == {"kind": "connection", "cause": "refused", "host": "h:1",
                                  "said": str(error), "detail": error.message}
    assert ErrorRecord.model_validate(dumped) == record
    assert "provider" not in ErrorRecord(layer="design", message="x").model_dump(mode="json")
