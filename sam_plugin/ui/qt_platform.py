"""Say in one line why the Qt window cannot open, instead of Qt's abort.

A Qt platform plugin that cannot load (a fresh Debian desktop without ``libxcb-cursor0``, or
no display at all) makes Qt abort the process with a core dump; nothing in-process can catch
it. So before the first QApplication the demo asks a throw-away subprocess to create one.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Mapping

HEADLESS_PLATFORMS = frozenset({"offscreen", "minimal", "vnc"})
# the Debian packages of the libraries PySide6's QtGui, QtDBus and xcb platform plugin link
# (their NEEDED entries, read with readelf; ICU ships inside PySide6), docs/install.md §5
DESKTOP_PACKAGES = ("libegl1 libgl1 libfontconfig1 libfreetype6 libglib2.0-0 libdbus-1-3 "
                    "libx11-6 libx11-xcb1 libxkbcommon0 libxkbcommon-x11-0 libxcb1 "
                    "libxcb-cursor0 libxcb-icccm4 libxcb-image0 libxcb-keysyms1 libxcb-randr0 "
                    "libxcb-render0 libxcb-render-util0 libxcb-shape0 libxcb-shm0 libxcb-sync1 "
                    "libxcb-util1 libxcb-xfixes0 libxcb-xkb1")
PROBE = "from PySide6.QtGui import QGuiApplication; QGuiApplication([])"
PROBE_TIMEOUT_S = 20


OFFSCREEN = ("QT_QPA_PLATFORM=offscreen sam-agent demo --replay --auto-run plate "
             "--size 1400x900 --screenshot demo.png")


def remedies() -> str:
    return ("install the desktop libraries Qt needs (Debian/Ubuntu: sudo apt-get install "
            f"{DESKTOP_PACKAGES}), or run without a display: {OFFSCREEN}")


def platform_problem(env: Mapping[str, str] | None = None) -> str | None:
    """``None`` when a QApplication can start here, else one line saying why and what to do."""
    env = dict(os.environ if env is None else env)
    platform = env.get("QT_QPA_PLATFORM", "").split(":")[0].strip()
    if platform in HEADLESS_PLATFORMS:
        return None
    if not platform and sys.platform.startswith("linux") and not (
            env.get("DISPLAY") or env.get("WAYLAND_DISPLAY")):
        return ("sam-agent demo: no display to open a window on (DISPLAY and WAYLAND_DISPLAY "
                "are unset): start the demo from a desktop session (or with ssh -X), or run "
                f"it without a display: {OFFSCREEN}")
    try:
        probe = subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True,
                               text=True, timeout=PROBE_TIMEOUT_S, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None  # cannot tell: let Qt try
    if probe.returncode == 0:
        return None
    name = platform or "xcb"
    if "could not connect to display" in probe.stderr:
        return (f"sam-agent demo: cannot connect to the display {env.get('DISPLAY', '')!r} "
                "(is an X server running there?): open the demo on a desktop, or run without "
                f"a display: {OFFSCREEN}")
    return (f"sam-agent demo: the Qt platform plugin {name!r} could not be loaded: "
            + remedies())
