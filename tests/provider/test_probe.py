"""The server probe: what answers is asked (llama.cpp /props, Ollama /api/version, vLLM
/version, else /v1/models owned_by), once per base URL, within 2 s, on the same host only; the
profile follows it unless one was set; a failed probe is generic, said plainly."""

from __future__ import annotations

import asyncio
import time

import pytest

from sam_plugin.runtime.config.settings import ProviderSettings
from sam_plugin.runtime.provider import probe
from sam_plugin.runtime.provider.probe import ServerInfo, detect, probe_server

LLAMA_PROPS = {"build_info": "b11434-unknown", "model_path": "/m/qwen2.5-coder-0.5b.gguf",
               "default_generation_settings": {"params": {}}}


@pytest.fixture(autouse=True)
def _fresh_cache():
    probe.clear_cache()
    yield
    probe.clear_cache()


def settings_for(fake, **extra) -> ProviderSettings:
    return ProviderSettings(base_url=fake.base_url, model="m", **extra)


@pytest.mark.parametrize(("routes", "kind", "version", "profile"), [
    ({"/props": LLAMA_PROPS}, "llamacpp", "b11434-unknown", "llamacpp"),
    ({"/api/version": {"version": "0.12.6"}}, "ollama", "0.12.6", "ollama"),
    ({"/version": {"version": "0.11.2"}}, "vllm", "0.11.2", "vllm"),
    ({"/v1/models": {"data": [{"id": "x", "owned_by": "vllm"}]}}, "vllm", "", "vllm"),
    ({"/v1/models": {"data": [{"id": "x", "owned_by": "library"}]}}, "ollama", "", "ollama"),
])
def test_the_profile_follows_what_answered(fake_provider, routes, kind, version, profile):
    fake_provider.get_routes.update(routes)
    found = asyncio.run(detect(settings_for(fake_provider)))
    assert (found.server.kind, found.server.version) == (kind, version)
    assert found.profile == profile and found.profile_from == "server"
    assert found.result_fields() == {"server": {"kind": kind, "version": version},
                                     "profile": profile}
    assert all(p.path.startswith(("/props", "/api/version", "/version", "/v1/models"))
               for p in fake_provider.probes)
    assert fake_provider.requests == []  # no chat request was spent on it


def test_llamacpp_names_its_build_and_model_file(fake_provider):
    fake_provider.get_routes["/props"] = LLAMA_PROPS
    found = asyncio.run(detect(settings_for(fake_provider)))
    assert found.server.detail == "qwen2.5-coder-0.5b.gguf"
    assert found.words() == "server llama.cpp b11434-unknown, profile llamacpp (from the server)"


def test_a_set_profile_wins_and_the_server_is_still_named(fake_provider):
    fake_provider.get_routes["/props"] = LLAMA_PROPS
    found = asyncio.run(detect(settings_for(fake_provider, profile="generic")))
    assert found.server.kind == "llamacpp" and found.profile == "generic"
    assert found.profile_from == "setting"
    assert "set in SAM_AGENT_PROFILE or Settings" in found.words()


def test_nothing_recognised_is_generic_said_plainly(fake_provider):
    found = asyncio.run(detect(settings_for(fake_provider)))  # the fake lists models, no owner
    assert found.server.kind == "unknown" and found.profile == "generic"
    assert found.profile_from == "default"
    assert found.words() == ("server unknown server, profile generic (the default); the server "
                             "did not say what it is; generic requests are sent")


def test_probed_once_per_base_url(fake_provider):
    fake_provider.get_routes["/props"] = LLAMA_PROPS
    asyncio.run(detect(settings_for(fake_provider)))
    asked = len(fake_provider.probes)
    again = asyncio.run(detect(settings_for(fake_provider, temperature=0.5)))
    assert again.server.kind == "llamacpp" and len(fake_provider.probes) == asked


def test_hosted_services_are_known_by_host_and_not_asked():
    found = asyncio.run(detect(ProviderSettings(base_url="https://api.deepseek.com/v1")))
    assert found.server == ServerInfo(kind="deepseek", how="host")
    assert found.profile == "deepseek"


class _Server:
    """A loopback TCP server answering every connection with ``reply`` (None: never)."""

    def __init__(self, reply: bytes | None):
        self.reply = reply
        self.hits = 0

    async def __aenter__(self) -> str:
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        port = self.server.sockets[0].getsockname()[1]
        return f"http://127.0.0.1:{port}/v1"

    async def __aexit__(self, *exc: object) -> None:
        self.server.close()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.hits += 1
        await reader.readuntil(b"\r\n\r\n")
        if self.reply is None:
            await asyncio.sleep(30)
        else:
            writer.write(self.reply)
            await writer.drain()
        writer.close()


def test_a_silent_server_is_given_up_within_the_bound():
    async def go() -> tuple[ServerInfo, float]:
        async with _Server(None) as url:
            started = time.perf_counter()
            info = await probe_server(ProviderSettings(base_url=url), timeout=0.5)
            return info, time.perf_counter() - started

    info, seconds = asyncio.run(go())
    assert seconds < 1.5
    assert info.kind == "unknown" and "within 0.5 s" in info.note
    assert probe.PROBE_SECONDS == 2.0


def test_a_redirect_to_another_host_is_not_followed(fake_provider):
    fake_provider.get_routes["/props"] = LLAMA_PROPS
    redirect = (b"HTTP/1.1 302 Found\r\nLocation: " + fake_provider.base_url.encode()
                + b"/../props\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")

    async def go() -> ServerInfo:
        async with _Server(redirect) as url:
            return await probe_server(ProviderSettings(base_url=url))

    assert asyncio.run(go()).kind == "unknown"
    assert fake_provider.probes == []
