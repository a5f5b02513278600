"""The provider's HTTP client loads the CA bundle only where TLS can happen: a plain-HTTP
server on this machine gets a TLS context that trusts no authority (a TLS connection would be
refused, never made unverified); any other URL, and no URL, the default verified context."""

from __future__ import annotations

import asyncio
import ssl
from typing import Any

import pytest

from sam_plugin.runtime.config.settings import ProviderSettings
from sam_plugin.runtime.provider.client import new_http_client


@pytest.fixture
def bundles(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    loaded: list[Any] = []
    real = ssl.create_default_context

    def recording(*args: Any, **kwargs: Any) -> ssl.SSLContext:
        loaded.append(kwargs.get("cafile") or args)
        return real(*args, **kwargs)

    monkeypatch.setattr(ssl, "create_default_context", recording)
    return loaded


@pytest.mark.parametrize("url", ["http://127.0.0.1:8080/v1", "http://localhost:11434/v1",
                                 "http://[::1]:8000/v1"])
def test_a_plain_http_server_on_this_machine_loads_no_ca_bundle(
        bundles: list[Any], url: str) -> None:
    client = new_http_client(ProviderSettings(base_url=url, model="m"))
    asyncio.run(client.aclose())
    assert bundles == []


@pytest.mark.parametrize("url", ["https://127.0.0.1:8443/v1", "https://api.openai.com/v1",
                                 "http://10.0.0.2:8000/v1", "http://gpu-box:8000/v1", ""])
def test_any_other_endpoint_verifies_against_the_ca_bundle(
        bundles: list[Any], url: str) -> None:
    client = new_http_client(ProviderSettings(base_url=url, model="m") if url else None)
    asyncio.run(client.aclose())
    assert len(bundles) == 1


def test_the_local_context_refuses_every_certificate() -> None:
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    assert context.verify_mode == ssl.CERT_REQUIRED and context.check_hostname
    assert context.get_ca_certs() == []
