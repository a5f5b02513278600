"""``session.viewports['Viewport: 1']``: what the host window shows.

``addListener``/``removeListener`` exist only in the offline SAM: the host window redraws
when a script calls ``setValues``.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from sam._checks import reject_keywords
from sam.part import Part
from sam.repository import Repository

_log = logging.getLogger(__name__)

Listener = Callable[["Viewport"], Any]


class Viewport:
    """A viewport; ``displayedObject`` is a Part or ``None``."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.displayedObject: Part | None = None
        self._listeners: list[Listener] = []

    def setValues(self, displayedObject: Any = None, **extra: Any) -> None:  # noqa: N802,N803
        reject_keywords(extra)
        if displayedObject is not None and not isinstance(displayedObject, Part):
            raise TypeError(f"displayedObject must be a Part or None; got "
                            f"{type(displayedObject).__name__}")
        self.displayedObject = displayedObject
        self._notify()

    def addListener(self, callback: Listener) -> None:  # noqa: N802 - stub-only API
        """Call ``callback(viewport)`` after every ``setValues`` (offline host only)."""
        if not callable(callback):
            raise TypeError("callback must be callable")
        if callback not in self._listeners:
            self._listeners.append(callback)

    def removeListener(self, callback: Listener) -> None:  # noqa: N802 - stub-only API
        if callback in self._listeners:
            self._listeners.remove(callback)

    def _notify(self) -> None:
        for callback in list(self._listeners):
            try:
                callback(self)
            except Exception:
                # a failing redraw must not fail the script that changed the model
                _log.exception("viewport listener %r failed", callback)

    def _rename(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"session.viewports[{self.name!r}]"


class Session:
    """``session``: one viewport, ``'Viewport: 1'``."""

    def __init__(self) -> None:
        self.viewports: Repository[Viewport] = Repository("viewport", "the session")
        self.viewports._store("Viewport: 1", Viewport("Viewport: 1"))

    def _reset(self) -> None:
        for viewport in self.viewports.values():
            viewport.displayedObject = None
            viewport._notify()
