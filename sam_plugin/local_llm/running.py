"""An Ollama or llama-server already running on this computer, found on its usual loopback
port, so that the dock can offer it."""

from __future__ import annotations

import httpx
from pydantic import BaseModel

# (kind, port, the address that says the kind)
KNOWN = (("Ollama", 11434, "/api/version"), ("llama-server", 8080, "/props"))


class RunningServer(BaseModel):
    kind: str
    base_url: str
    models: list[str]


def find_running(timeout: float = 0.5) -> list[RunningServer]:
    """The servers that answer on 127.0.0.1 (a closed port answers at once)."""
    found = []
    with httpx.Client(timeout=timeout) as client:
        for kind, port, says in KNOWN:
            root = f"http://127.0.0.1:{port}"
            try:
                if client.get(root + says).status_code != 200:
                    continue
                listed = client.get(root + "/v1/models").json().get("data") or []
            except (httpx.HTTPError, ValueError, AttributeError):
                continue
            models = [str(entry.get("id")) for entry in listed if isinstance(entry, dict)]
            found.append(RunningServer(kind=kind, base_url=root + "/v1", models=models))
    return found
