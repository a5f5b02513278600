"""Controller events → a Qt signal, so every widget update runs on the GUI thread.

The controller (no Qt) calls listeners on whatever thread emits; the bridge re-emits each
event as ``eventReceived``. Receivers are methods of widgets living on the GUI thread, so Qt
delivers directly when the emitter already is the GUI thread (the normal qasync case, keeping
order with the awaiting slot) and queues the call onto the GUI thread otherwise.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, Signal


class ControllerBridge(QObject):
    eventReceived = Signal(object)  # noqa: N815 (Qt naming): a RunEvent

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._unsubscribe: Callable[[], None] | None = None

    def attach(self, controller: Any) -> None:
        """Listen to ``controller`` (the previous one, if any, is detached first)."""
        self.detach()
        self._unsubscribe = controller.subscribe(self._forward)

    def detach(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None

    @property
    def attached(self) -> bool:
        return self._unsubscribe is not None

    def _forward(self, event: Any) -> None:
        self.eventReceived.emit(event)
