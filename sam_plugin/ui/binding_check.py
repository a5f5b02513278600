"""A self-check of the Qt binding: does emitting a signal keep Python's reference counts?

PySide6 6.12.0 on Python 3.11 (measured here) drops one reference to ``True`` on every
``Signal.emit()`` and one to ``None`` on every Python slot call; ``None``/``True`` are not
immortal before Python 3.12, so the process aborts ("Fatal Python error: bool_dealloc") after
a few thousand signals: within seconds of streaming through qasync. 6.11.3 is correct. The
check emits a private signal a few times and compares the counts; a broken binding is named
in the dock and the log instead of crashing later without explanation.
"""

from __future__ import annotations

import sys

import PySide6
from PySide6.QtCore import QObject, Signal

EMISSIONS = 16


class _Probe(QObject):
    ping = Signal(object)


def _sink(value: object) -> None:
    pass


def binding_problem() -> str | None:
    """``None`` when signals keep reference counts, else a sentence saying what to install."""
    probe = _Probe()
    probe.ping.connect(_sink)
    before = (sys.getrefcount(True), sys.getrefcount(None))
    for _ in range(EMISSIONS):
        probe.ping.emit(1)
    after = (sys.getrefcount(True), sys.getrefcount(None))
    probe.ping.disconnect(_sink)
    lost = max(before[0] - after[0], before[1] - after[1])
    if lost < EMISSIONS // 2:
        return None
    python = ".".join(map(str, sys.version_info[:3]))
    return (f"PySide6 {PySide6.__version__} corrupts reference counts on Python {python} "
            f"(each signal drops a reference to True/None) and the application will abort "
            f"after a few thousand signals. Install PySide6-Essentials 6.11.3 (or use "
            f"Python 3.12+).")
