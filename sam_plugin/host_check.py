"""Can this host carry the dock? Checked by ``load(host)`` before anything imports Qt widgets.

The dock is a PySide6 widget: it can only live in a main window of the same binding, in a
process whose running Qt is 6.6 or later, under a running ``QApplication``. A host built on
another binding (PyQt5, PyQt6, PySide2), one with an older Qt, or a host object without the
members ``host_api.PluginHost`` requires is refused with one sentence that says why and what
to do, instead of a traceback from deep inside Qt (docs/architecture.md §9, docs/install.md).
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

from sam_plugin.host_api import REQUIRED_MEMBERS

QT_BINDINGS = ("PySide6", "PySide2", "PySide", "PyQt6", "PyQt5", "PyQt4")
MIN_QT = (6, 6)
GUIDE = "docs/install.md"
PREFIX = "SAM Agent cannot load: "


def load_problem(host: Any) -> str | None:
    """``None`` when ``host`` can carry the dock, else one line saying why not."""
    for check in (_missing_members, _too_old_host, _foreign_binding, _sam_module_problem,
                  _qt_problem):
        problem = check(host)
        if problem:
            return PREFIX + problem
    return None


def _missing_members(host: Any) -> str | None:
    missing = [name for name in REQUIRED_MEMBERS if not hasattr(host, name)]
    if not missing:
        return None
    return (f"the host object has no {', '.join(missing)} (a host must offer "
            f"{', '.join(REQUIRED_MEMBERS)}: {GUIDE}, 'The host object').")


def _sam_module_problem(host: Any) -> str | None:
    """The dock reads the model database through ``sam_module.mdb.models`` from its first
    moment: a module without them is refused here, not by an AttributeError at load."""
    module = host.sam_module
    name = getattr(module, "__name__", type(module).__qualname__)
    mdb = getattr(module, "mdb", None)
    if mdb is None:
        return (f"host.sam_module ({name}) has no mdb: the dock reads the model database as "
                f"sam_module.mdb; pass the host's own sam module ({GUIDE}, 'The host object').")
    if not hasattr(mdb, "models"):
        return (f"host.sam_module.mdb ({type(mdb).__qualname__}) has no models: the dock "
                f"lists the models and parts of sam_module.mdb.models ({GUIDE}, 'The host "
                "object').")
    return None


def min_host_version() -> str:
    """The manifest's ``min_host_version`` (read from the package, as SAM reads it)."""
    text = resources.files("sam_plugin").joinpath("plugin.json").read_text(encoding="utf-8")
    return str(json.loads(text).get("min_host_version", "0"))


def version_tuple(text: str) -> tuple[int, ...]:
    """``"6.11.3"`` → ``(6, 11, 3)``; a non-numeric tail (``"1.2rc1"``) ends the tuple."""
    parts = []
    for piece in str(text).strip().split("."):
        digits = ""
        for char in piece:
            if not char.isdigit():
                break
            digits += char
        if not digits:
            break
        parts.append(int(digits))
        if len(digits) != len(piece):
            break
    return tuple(parts)


def _too_old_host(host: Any) -> str | None:
    reported = getattr(host, "host_version", None)
    if reported is None:
        return None
    needed = min_host_version()
    if version_tuple(str(reported)) >= version_tuple(needed):
        return None
    return f"it needs SAM {needed} or later (min_host_version) and this host is {reported}."


def binding_of(host: Any) -> str | None:
    """The Qt binding the host runs on: its ``qt_binding`` when it says, else the package
    that defines the class of its main window (``None`` when neither tells)."""
    declared = getattr(host, "qt_binding", None)
    if isinstance(declared, str) and declared.strip():
        return declared.strip()
    for cls in type(getattr(host, "main_window", None)).__mro__:
        root = cls.__module__.split(".")[0]
        if root in QT_BINDINGS:
            return root
    return None


def _foreign_binding(host: Any) -> str | None:
    binding = binding_of(host)
    if binding is None or binding.split()[0] == "PySide6":
        return None
    return (f"its dock is a PySide6 (Qt 6) widget and this host's GUI runs on {binding}; "
            f"a dock cannot cross Qt bindings. Use a host built on PySide6 6.6 to 6.11, or "
            f"the headless `sam-agent run` ({GUIDE}, 'Qt').")


def _qt_problem(host: Any) -> str | None:
    try:
        import PySide6
        from PySide6.QtCore import qVersion
        from PySide6.QtWidgets import QApplication, QMainWindow
    except ImportError as error:
        return (f"PySide6 is not importable in this Python ({error}); install the wheel with "
                f"its dependencies into the Python the host embeds ({GUIDE}).")
    running = qVersion()
    if version_tuple(running) < MIN_QT:
        return (f"the dock needs Qt {'.'.join(map(str, MIN_QT))} or later and this process "
                f"runs Qt {running} (PySide6 {PySide6.__version__}) ({GUIDE}, 'Qt').")
    window = host.main_window
    if not isinstance(window, QMainWindow):
        return (f"host.main_window is a {type(window).__module__}.{type(window).__qualname__}, "
                f"not a PySide6 QMainWindow ({GUIDE}, 'The host object').")
    if QApplication.instance() is None:
        return ("no PySide6 QApplication is running in this process; the host creates it "
                f"before it loads plugins ({GUIDE}, 'Qt').")
    return None
