"""Slow first-time work done off the GUI thread at plugin load, so the first run never stalls.

Measured on the 2-core CI machine (bench/ui_latency.py): importing the controller and the
domain modules took 0.7 s + 0.5 s, and every new ``httpx.AsyncClient`` 0.1 s (its TLS context
loads the CA bundle). Done in the first submit, that froze the GUI for about a second. A
daemon thread now imports them and builds one HTTP client that the dock's providers share
(timeouts are passed per request, so one client serves any settings). Importing the domain
modules registers their plan words (``sam_plugin/words/phrase.py``) too.
"""

from __future__ import annotations

import asyncio
import importlib
import logging
import threading
from typing import Any

log = logging.getLogger(__name__)

MODULES = (
    "sam_plugin.runtime.run.controller",
    "sam_plugin.runtime.provider.client",
    "sam_plugin.runtime.host_gateway",
    "sam_plugin.runtime.verify.verifier",
    "sam_plugin.compilers.composer",
    # imported lazily by httpx/httpcore on the first request (measured 0.3 s on the GUI thread)
    "anyio._backends._asyncio",
    "anyio.streams.tls",
    "anyio.to_thread",
    "encodings.idna",
    "sniffio",
)
WAIT_LIMIT_S = 60.0


def _new_http_client() -> Any:
    from sam_plugin.runtime.provider.client import new_http_client

    return new_http_client()


class Prewarm:
    """Started once per plugin load; ``await wait()`` before the first run."""

    def __init__(self) -> None:
        self.done = threading.Event()
        self.http_client: Any = None
        self.failures: list[str] = []
        self._thread = threading.Thread(target=self._run, name="sam-agent-prewarm", daemon=True)

    def start(self) -> Prewarm:
        self._thread.start()
        return self

    def _run(self) -> None:
        try:
            for name in MODULES:
                self._try(importlib.import_module, name)
            from sam_plugin.compilers.registry import MODES, get_module

            for mode in MODES:
                self._try(get_module, mode)
            self.http_client = self._try(_new_http_client)
        finally:
            self.done.set()

    def _try(self, action: Any, *args: Any) -> Any:
        try:
            return action(*args)
        except Exception as error:  # the run itself will report it where it matters
            self.failures.append(f"{getattr(action, '__name__', action)}{args}: {error}")
            log.debug("prewarm step failed", exc_info=True)
            return None

    async def wait(self) -> None:
        """Wait without blocking the GUI: poll the event every 20 ms (no executor threads,
        which qasync would leave running at exit)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + WAIT_LIMIT_S
        while not self.done.is_set() and loop.time() < deadline:
            await asyncio.sleep(0.02)

    def close(self) -> None:
        """Close the shared client (on unload); scheduled on the loop when one runs."""
        client, self.http_client = self.http_client, None
        if client is None:
            return
        try:
            asyncio.get_running_loop().create_task(client.aclose())
        except RuntimeError:
            pass  # no loop any more: the sockets close with the process
