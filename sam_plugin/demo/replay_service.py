"""The replay server as a service the dock and the CLI start only when the replay is chosen.

One loopback server per process, started on first use (``base_url()``) and closed by
``close_replay()``; the delay it is started with (the demo's ``--delay``), else
``SAM_AGENT_REPLAY_DELAY``, is the seconds between streamed pieces.
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

    def _pace(self, delay: float | None) -> float:
        for given in (delay, self.delay):
            if given is not None:
                return given
        return environment.replay_delay()

    def base_url(self, delay: float | None = None) -> str:
        """The running server's ``/v1`` URL (started now if needed, ``delay`` seconds between
        its streamed pieces when given)."""
        from sam_plugin.demo.replay import start_replay_provider

        with self._lock:
            if self._provider is None:
                self._provider, self.responder = start_replay_provider(delay=self._pace(delay))
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


def replay_url(delay: float | None = None) -> str:
    return _SHARED.base_url(delay)


def close_replay() -> None:
    _SHARED.close()
