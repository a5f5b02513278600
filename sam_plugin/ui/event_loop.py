"""Attach qasync to the host's QApplication without taking over its event loop.

SAM (and the offline host) already runs ``app.exec()``; the plugin must not call
``run_forever``. qasync's ``QEventLoop(app, already_running=True)`` marks itself as the
thread's running asyncio loop and dispatches through Qt's own event processing (the host's
``exec()``, a nested dialog loop or pytest-qt's ``qtbot.wait``), so async slots work under any
of them. One loop per QApplication is kept for the life of the application (a running
qasync loop cannot be closed); a lease count decides when the plugin stops advertising it as
the running loop, so that code outside the plugin (e.g. ``asyncio.run`` in another test) is
not affected after the last unload.
"""

from __future__ import annotations

import asyncio
import sys
import threading
from dataclasses import dataclass
from typing import Any

import qasync
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

_LOOPS: dict[int, qasync.QEventLoop] = {}
_LEASES: dict[int, int] = {}
_SAVED_HOOKS: Any = None


@dataclass
class LoopLease:
    """A claim on the GUI thread's qasync loop; release it exactly once on unload."""

    loop: asyncio.AbstractEventLoop
    owned: bool
    released: bool = False


def attach_qasync(app: QApplication | None = None) -> LoopLease:
    """The qasync loop that drives the plugin's async slots on the GUI thread."""
    app = app or QApplication.instance()
    if app is None:
        raise RuntimeError("SAM Agent needs the host's QApplication; none exists yet")
    key = id(app)
    running = asyncio._get_running_loop()
    if isinstance(running, qasync.QEventLoop) and running is not _LOOPS.get(key):
        return LoopLease(loop=running, owned=False)  # the host's own qasync loop
    if running is not None and running is not _LOOPS.get(key):
        raise RuntimeError(
            f"another asyncio loop ({type(running).__name__}) runs on the GUI thread; "
            "SAM Agent needs a qasync loop there"
        )
    loop = _LOOPS.get(key)
    if loop is None:
        loop = qasync.QEventLoop(app, already_running=True)
        _LOOPS[key] = loop
    elif running is not loop:
        asyncio.events._set_running_loop(loop)
    _install_asyncgen_hooks(loop)
    _LEASES[key] = _LEASES.get(key, 0) + 1
    return LoopLease(loop=loop, owned=True)


def _install_asyncgen_hooks(loop: asyncio.AbstractEventLoop) -> None:
    # asyncio's run_forever installs these; qasync's already_running mode does not, and then
    # an abandoned async generator (an HTTP stream closed early) is finalized by the garbage
    # collector outside any task: "async generator ignored GeneratorExit" (measured with
    # httpcore). With the hooks, its aclose() is scheduled on the loop as asyncio does.
    global _SAVED_HOOKS
    if _SAVED_HOOKS is None:
        _SAVED_HOOKS = sys.get_asyncgen_hooks()
    def finalizer(agen: Any) -> None:
        try:
            loop._asyncgen_finalizer_hook(agen)  # type: ignore[attr-defined]  # asyncio private
        except RuntimeError:  # the loop's Qt signaller is gone (application shut down)
            pass

    sys.set_asyncgen_hooks(firstiter=loop._asyncgen_firstiter_hook,  # type: ignore[attr-defined]  # private
                           finalizer=finalizer)
    loop._thread_id = threading.get_ident()  # type: ignore[attr-defined]  # asyncio private


def _restore_asyncgen_hooks() -> None:
    global _SAVED_HOOKS
    if _SAVED_HOOKS is not None:
        sys.set_asyncgen_hooks(*_SAVED_HOOKS)
        _SAVED_HOOKS = None


def release_qasync(lease: LoopLease, app: QApplication | None = None) -> None:
    """Give the lease back; the last owner stops advertising the loop as running."""
    if lease.released:
        return
    lease.released = True
    if not lease.owned:
        return
    app = app or QApplication.instance()
    key = id(app)
    _LEASES[key] = max(0, _LEASES.get(key, 0) - 1)
    if _LEASES[key] == 0:
        _stop_advertising_when_idle(lease.loop, key)


def _stop_advertising_when_idle(
    loop: asyncio.AbstractEventLoop, key: int, tries: int = 200
) -> None:
    # Cancelled tasks still need the running loop to unwind (closing an HTTP stream awaits);
    # wait for them, then clear the running loop unless a new lease arrived meanwhile.
    if _LEASES.get(key, 0) != 0 or asyncio._get_running_loop() is not loop:
        return
    if tries > 0 and any(not task.done() for task in asyncio.all_tasks(loop)):
        QTimer.singleShot(25, lambda: _stop_advertising_when_idle(loop, key, tries - 1))
        return
    asyncio.events._set_running_loop(None)
    _restore_asyncgen_hooks()


def settle_after_unload(timeout: float = 2.0) -> bool:
    """Process Qt events until the last unload has cleared the running loop (tests, the demo
    exiting); True when it did within ``timeout`` seconds."""
    import time

    app = QApplication.instance()
    deadline = time.monotonic() + timeout
    while any(_LEASES.values()) is False and _is_advertised():
        if time.monotonic() > deadline:
            return False
        if app is not None:
            app.processEvents()
        time.sleep(0.005)
    return not _is_advertised() or any(_LEASES.values())


def _is_advertised() -> bool:
    return asyncio._get_running_loop() in _LOOPS.values()
