"""The replay server as a service the dock and the CLI start only when the replay is chosen.

One loopback server per process, started on first use (``base_url()``) and closed by
``close_replay()``; ``SAM_AGENT_REPLAY_DELAY`` (seconds between streamed pieces) paces it.
"""

from __future__ import annotations

import threading
from typing import Any

from sam_plugin.runtime.config import env as environment


class ReplayService:
    def __init__(self, delay: float | None = None) -> None:
        self.delay = delay
        self._provider: Any = None
        self.responder: Any = None
        self._lock = threading.Lock()

    def _pace(self) -> float:
        if self.delay is not None:
            return self.delay
        return environment.replay_delay()

    def base_url(self) -> str:
        """The running server's ``/v1`` URL (started now if needed)."""
        from sam_plugin.demo.replay import start_replay_provider

        with self._lock:
            if self._provider is None:
                self._provider, self.responder = start_replay_provider(delay=self._pace())
            return str(self._provider.base_url)

    @property
    def running(self) -> bool:
        return self._provider is not None

    def close(self) -> None:
        with self._lock:
            if self._provider is not None:
                self._provider.close()
            self._provider = self.responder = None


_SHARED = ReplayService()


def shared_replay() -> ReplayService:
    return _SHARED


def replay_url() -> str:
    return _SHARED.base_url()


def close_replay() -> None:
    _SHARED.close()
