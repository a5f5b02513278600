"""Test connection: whether the endpoint typed in Settings answers, in words (docs/ui.md).

``check_connection`` GETs ``<base_url>/models`` and says whether the endpoint answers, and
whether the model typed is among those it lists. Settings runs it on Test connection and
before saving a live provider.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlsplit

import httpx

from sam_plugin.runtime.config.settings import ProviderSettings
from sam_plugin.ui.i18n import tr


@dataclass(frozen=True)
class ConnectionVerdict:
    ok: bool  # the endpoint answered and lists the model (or lists none)
    words: str


async def test_connection(settings: ProviderSettings) -> str:
    """A short sentence saying whether the endpoint answers."""
    return (await check_connection(settings)).words


async def check_connection(settings: ProviderSettings) -> ConnectionVerdict:
    """GET ``<base_url>/models``: whether the endpoint answers, and the words saying so."""
    if not settings.base_url.strip():
        return ConnectionVerdict(False, tr("Enter a base URL first."))
    url = settings.base_url.strip().rstrip("/") + "/models"
    headers = {}
    key = settings.api_key.get_secret_value()
    if key:
        headers["Authorization"] = f"Bearer {key}"
    timeout = httpx.Timeout(settings.connect_timeout, read=min(settings.idle_read_timeout, 15.0))
    try:
        async with httpx.AsyncClient(timeout=timeout) as client:
            response = await client.get(url, headers=headers)
    except httpx.HTTPError as error:
        return ConnectionVerdict(False, connection_failure(error, settings))
    if response.status_code in (401, 403):
        return ConnectionVerdict(False, tr("The endpoint answered {status}: check the API "
                                           "key.").format(status=response.status_code))
    if response.status_code >= 400:
        return ConnectionVerdict(False, tr("The endpoint answered {status} at {url}.").format(
            status=response.status_code, url=url))
    try:
        names = [m.get("id", "") for m in response.json().get("data", [])]
    except (ValueError, AttributeError):
        names = []
    if settings.model and names and settings.model not in names:
        return ConnectionVerdict(False, tr("Connected, but model {model} is not listed ({count} "
                                           "models available).").format(
            model=settings.model, count=len(names)))
    return ConnectionVerdict(True, tr("Connected ({count} models listed).").format(
        count=len(names)))


def connection_failure(error: httpx.HTTPError, settings: ProviderSettings) -> str:
    """Why Test connection got no answer, in words (httpx's own names are in the log)."""
    from sam_plugin.runtime.provider.transport import transport_cause

    host = urlsplit(settings.base_url.strip()).netloc or settings.base_url.strip()
    if isinstance(error, httpx.ConnectTimeout):
        return tr("No answer from {host} within {seconds:g} s: check the base URL, and that "
                  "the server is running and reachable from here.").format(
            host=host, seconds=settings.connect_timeout)
    if isinstance(error, httpx.ConnectError):
        if transport_cause(error) == "unknown_host":
            return tr("{host} is not a host name this computer knows: check the base "
                      "URL.").format(host=host)
        return tr("Nothing answers at {host}: check the base URL, and that the server is "
                  "running.").format(host=host)
    if isinstance(error, httpx.TimeoutException):
        return tr("{host} took the connection but did not answer in time.").format(host=host)
    return tr("Could not talk to {host}: {error}").format(
        host=host, error=str(error) or type(error).__name__)
