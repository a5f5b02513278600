"""Which server answers at a base URL: asked, never guessed from the port
(docs/architecture.md §6 "The server").

Once per base URL (cached for the process), within :data:`PROBE_SECONDS` in all, and only on
the endpoint's own scheme, host and port (no redirect is followed):

- llama.cpp ``GET /props`` (its ``build_info`` and the model file);
- Ollama ``GET /api/version``;
- vLLM ``GET /version``;
- else ``GET {base}/models`` and the first model's ``owned_by``.

Hosted services known by their host name (``api.openai.com``, ``api.deepseek.com``) are not
probed. A probe that finds nothing says so in ``note`` and the profile is ``generic``. A
profile set in ``SAM_AGENT_PROFILE`` or Settings still wins (:func:`resolve`); the server is
reported either way.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Literal
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict

from sam_plugin.runtime.config.settings import Profile, ProviderSettings, hosted_profile

if TYPE_CHECKING:  # httpx loads when a server is probed: a run from a given spec never does
    import httpx

ServerKind = Literal["llamacpp", "ollama", "vllm", "openai", "deepseek", "replay", "unknown"]
How = Literal["probe", "host", "replay", "none"]
ProfileFrom = Literal["setting", "server", "default"]

PROBE_SECONDS = 2.0
FAILED_CACHE_SECONDS = 30.0  # a server not up yet is asked again after this long

_PROFILE_OF: dict[str, Profile] = {"llamacpp": "llamacpp", "ollama": "ollama", "vllm": "vllm",
                                   "openai": "openai", "deepseek": "deepseek"}
# ``owned_by`` of ``/v1/models`` per server (Ollama's OpenAI layer says "library")
_OWNED_BY: dict[str, ServerKind] = {"llamacpp": "llamacpp", "vllm": "vllm", "ollama": "ollama",
                                    "library": "ollama"}


class ServerInfo(BaseModel):
    """What answered at a base URL; ``result.json``'s ``server`` is ``kind`` and ``version``."""

    model_config = ConfigDict(frozen=True)

    kind: ServerKind
    version: str = ""
    detail: str = ""  # the model file llama.cpp serves, when it says
    how: How = "probe"
    note: str = ""  # why nothing was recognised, in words
    reachable: bool = True  # False: no connection could be made (nothing listens there)

    def words(self) -> str:
        """``llama.cpp b11434``, ``Ollama 0.12.6``, ``unknown server``."""
        name = {"llamacpp": "llama.cpp", "ollama": "Ollama", "vllm": "vLLM", "openai": "OpenAI",
                "deepseek": "DeepSeek", "replay": "Replay", "unknown": "unknown server"}[self.kind]
        return f"{name} {self.version}".strip()


class Detection(BaseModel):
    """The server, and the profile a run uses with where it came from."""

    model_config = ConfigDict(frozen=True)

    server: ServerInfo
    profile: Profile
    profile_from: ProfileFrom

    def words(self) -> str:
        """One line: ``server llama.cpp b11434, profile llamacpp (from the server)``; a failed
        probe says so plainly."""
        why = {"setting": "set in SAM_AGENT_PROFILE or Settings", "server": "from the server",
               "default": "the default"}[self.profile_from]
        if not self.server.reachable:  # the cause, not a server and profile it implies
            return self.server.note
        line = f"server {self.server.words()}, profile {self.profile} ({why})"
        if self.server.note:
            line += f"; {self.server.note}"
        return line

    def result_fields(self) -> dict[str, Any]:
        """``server {kind, version}`` and ``profile`` for ``result.json`` and ``meta.json``."""
        return {"server": {"kind": self.server.kind, "version": self.server.version},
                "profile": self.profile}


Probe = Callable[[ProviderSettings], Awaitable[ServerInfo]]

_cache: dict[str, tuple[float, ServerInfo]] = {}


def clear_cache() -> None:
    _cache.clear()


async def detect(settings: ProviderSettings, probe: Probe | None = None) -> Detection:
    """The server at ``settings.base_url`` (probed once, cached) and the profile to use."""
    server = await (probe or cached_probe)(settings)
    return resolve(settings, server)


def resolve(settings: ProviderSettings, server: ServerInfo) -> Detection:
    if not settings.profile_guessed:
        return Detection(server=server, profile=settings.profile, profile_from="setting")
    profile = _PROFILE_OF.get(server.kind)
    if profile is None:
        return Detection(server=server, profile="generic", profile_from="default")
    return Detection(server=server, profile=profile, profile_from="server")


def apply(settings: ProviderSettings, detection: Detection) -> ProviderSettings:
    """The settings with the detected profile (unchanged when the profile was set)."""
    if settings.profile == detection.profile:
        return settings
    return settings.model_copy(update={"profile": detection.profile})


async def cached_probe(settings: ProviderSettings) -> ServerInfo:
    key = _root(settings.base_url)
    now = time.monotonic()
    hit = _cache.get(key)
    if hit is not None and (hit[1].kind != "unknown" or now - hit[0] < FAILED_CACHE_SECONDS):
        return hit[1]
    info = await probe_server(settings)
    _cache[key] = (now, info)
    return info


def replay_probe(kind: ServerKind = "replay", version: str = "") -> Probe:
    """A probe that asks nothing: the bundled replay, or a cassette's recorded server."""
    return known_probe(ServerInfo(kind=kind, version=version, how="replay"))


def known_probe(info: ServerInfo) -> Probe:
    """A probe that answers ``info`` without asking (the server was asked already)."""

    async def known(settings: ProviderSettings) -> ServerInfo:
        return info

    return known


async def probe_server(settings: ProviderSettings, *, timeout: float = PROBE_SECONDS,
                       client: httpx.AsyncClient | None = None) -> ServerInfo:
    hosted = hosted_profile(settings.base_url)
    if hosted is not None:
        return ServerInfo(kind=hosted, how="host")
    root = _root(settings.base_url)
    if not root:
        return ServerInfo(kind="unknown", how="none", note="no base URL to probe")
    headers = {"Accept": "application/json"}
    key = settings.api_key.get_secret_value()
    if key:
        headers["Authorization"] = f"Bearer {key}"
    import httpx

    own = client is None
    http = client or httpx.AsyncClient(timeout=timeout, follow_redirects=False,
                                       mounts=dict.fromkeys(_LOOPBACK))
    try:
        async with asyncio.timeout(timeout):
            return await _ask_all(http, root, settings.base_url.rstrip("/"), headers)
    except TimeoutError:
        return ServerInfo(kind="unknown", how="none",
                          note=f"the server did not say what it is within {timeout:g} s")
    finally:
        if own:
            await http.aclose()


_LOOPBACK = ("all://127.0.0.1", "all://localhost", "all://[::1]")


async def _ask_all(http: httpx.AsyncClient, root: str, base: str,
                   headers: dict[str, str]) -> ServerInfo:
    props, ollama, vllm, models = await asyncio.gather(
        _get_json(http, f"{root}/props", headers),
        _get_json(http, f"{root}/api/version", headers),
        _get_json(http, f"{root}/version", headers),
        _get_json(http, f"{base.removesuffix('/chat/completions')}/models", headers),
    )
    if all(answer is _NO_CONNECTION for answer in (props, ollama, vllm, models)):
        return ServerInfo(kind="unknown", how="none", reachable=False,
                          note=f"nothing answers at {root}")
    props, ollama, vllm, models = (None if answer is _NO_CONNECTION else answer
                                   for answer in (props, ollama, vllm, models))
    if isinstance(props, dict) and ("build_info" in props
                                    or "default_generation_settings" in props):
        return ServerInfo(kind="llamacpp", version=str(props.get("build_info") or ""),
                          detail=os.path.basename(str(props.get("model_path") or "")))
    for kind, answer in (("ollama", ollama), ("vllm", vllm)):
        if isinstance(answer, dict) and isinstance(answer.get("version"), str):
            return ServerInfo(kind=kind, version=answer["version"])
    owned = _owned_by(models)
    if owned in _OWNED_BY:
        return ServerInfo(kind=_OWNED_BY[owned])
    said = f" (its models are owned by {owned!r})" if owned else ""
    return ServerInfo(kind="unknown", how="none",
                      note=f"the server did not say what it is{said}; generic requests are sent")


# what ``_get_json`` returns when no connection could be made at all
_NO_CONNECTION = object()


async def _get_json(http: httpx.AsyncClient, url: str, headers: dict[str, str]) -> Any:
    import httpx

    try:
        response = await http.get(url, headers=headers)
        if response.status_code != 200 or len(response.content) > 1024 * 1024:
            return None
        return response.json()
    except (httpx.ConnectError, httpx.ConnectTimeout):
        return _NO_CONNECTION
    except (httpx.HTTPError, ValueError):
        return None


def _owned_by(models: Any) -> str:
    data = models.get("data") if isinstance(models, dict) else None
    if isinstance(data, list) and data and isinstance(data[0], dict):
        return str(data[0].get("owned_by") or "")
    return ""


def _root(base_url: str) -> str:
    """``scheme://host:port`` plus any path before ``/v1``: where the servers' own routes are."""
    try:
        parts = urlsplit(base_url.strip())
    except ValueError:
        return ""
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return ""
    path = parts.path.rstrip("/").removesuffix("/chat/completions").rstrip("/")
    path = path.removesuffix("/v1")
    return f"{parts.scheme}://{parts.netloc}{path}"
