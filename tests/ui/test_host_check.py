"""``load(host)`` refuses a host that cannot carry the dock with one line, not a crash."""

from __future__ import annotations

import logging
import subprocess
import sys
import textwrap
from pathlib import Path
from types import SimpleNamespace

import pytest
from PySide6.QtWidgets import QMainWindow

import sam_plugin
from sam_plugin import host_api, host_check
from sam_plugin.ui.host_adapter import instance_for

ROOT = Path(__file__).resolve().parents[2]


class _Docking:
    """The four required members, docking nowhere (what a foreign host would offer)."""

    def __init__(self, window: object, **optional: str) -> None:
        import sam

        self.main_window = window
        self.sam_module = sam
        self.docked: list[object] = []
        for name, value in optional.items():
            setattr(self, name, value)

    def add_dock_widget(self, dock: object, area: str) -> None:
        self.docked.append(dock)

    def remove_dock_widget(self, dock: object) -> None:
        self.docked.remove(dock)


def _foreign_window(module: str) -> object:
    """An object whose class comes from another binding's widgets module."""
    cls = type("QMainWindow", (), {"__module__": module})
    return cls()


def _refused(host: object, caplog: pytest.LogCaptureFixture) -> str:
    caplog.clear()
    with caplog.at_level(logging.ERROR, logger="sam_plugin"):
        assert sam_plugin.load(host) is None
    lines = [record.getMessage() for record in caplog.records]
    assert len(lines) == 1, lines
    assert "\n" not in lines[0]
    assert lines[0].startswith("SAM Agent cannot load: ")
    assert instance_for(host) is None
    assert getattr(host, "docked", []) == []
    sam_plugin.unload(host)  # a refused load leaves nothing to unload; must not raise
    return lines[0]


def test_a_host_that_reports_another_binding_gets_one_line(qapp, caplog) -> None:
    host = _Docking(QMainWindow(), qt_binding="PyQt5 5.15.10")
    line = _refused(host, caplog)
    assert "PyQt5 5.15.10" in line and "PySide6" in line and "docs/install.md" in line


@pytest.mark.parametrize("module", ["PyQt6.QtWidgets", "PySide2.QtWidgets", "PyQt5.QtWidgets"])
def test_a_main_window_of_another_binding_is_named(qapp, caplog, module: str) -> None:
    line = _refused(_Docking(_foreign_window(module)), caplog)
    assert module.split(".")[0] in line and "cannot cross Qt bindings" in line


def test_a_main_window_that_is_no_qmainwindow_is_named(qapp, caplog) -> None:
    line = _refused(_Docking(SimpleNamespace()), caplog)
    assert "types.SimpleNamespace" in line and "not a PySide6 QMainWindow" in line


def test_missing_required_members_are_named(qapp, caplog) -> None:
    host = SimpleNamespace(main_window=QMainWindow(), sam_module=None)
    line = _refused(host, caplog)
    assert "no add_dock_widget, remove_dock_widget" in line


def test_a_host_older_than_min_host_version_is_refused(qapp, caplog) -> None:
    assert host_check.min_host_version() == "1.0"
    line = _refused(_Docking(QMainWindow(), host_version="0.9"), caplog)
    assert "SAM 1.0 or later" in line and "this host is 0.9" in line


def test_an_old_qt_is_refused(qapp, caplog, monkeypatch) -> None:
    import PySide6.QtCore

    monkeypatch.setattr(PySide6.QtCore, "qVersion", lambda: "6.4.2")
    line = _refused(_Docking(QMainWindow()), caplog)
    assert "Qt 6.6 or later" in line and "Qt 6.4.2" in line


def test_a_sam_module_without_mdb_is_refused_in_words(qapp, caplog) -> None:
    """It crashed ``load`` with an AttributeError traceback (issue 36 F)."""
    host = _Docking(QMainWindow())
    host.sam_module = SimpleNamespace(__name__="fake_sam", session=None)
    line = _refused(host, caplog)
    assert line == ("SAM Agent cannot load: host.sam_module (fake_sam) has no mdb: the dock "
                    "reads the model database as sam_module.mdb; pass the host's own sam "
                    "module (docs/install.md, 'The host object').")
    host.sam_module = SimpleNamespace(__name__="fake_sam", mdb=object())
    assert "host.sam_module.mdb (object) has no models" in _refused(host, caplog)


@pytest.mark.parametrize(("text", "expected"), [
    ("6.11.3", (6, 11, 3)), ("1.0", (1, 0)), ("1.2rc1", (1, 2)), ("", ()), ("2024.1-x", (2024, 1)),
])
def test_version_tuple(text: str, expected: tuple[int, ...]) -> None:
    assert host_check.version_tuple(text) == expected


def test_the_offline_host_passes_and_offers_every_member(host_window) -> None:
    host = host_window.host
    assert host_check.load_problem(host) is None
    for name in (*host_api.REQUIRED_MEMBERS, *host_api.OPTIONAL_DEFAULTS):
        assert hasattr(host, name), name


def test_the_member_lists_match_the_protocols() -> None:
    def members(protocol: type) -> set[str]:
        names = set(protocol.__dict__.get("__annotations__", {}))
        return names | {name for name, value in vars(protocol).items()
                        if callable(value) and not name.startswith("_")}

    assert members(host_api.PluginHost) == set(host_api.REQUIRED_MEMBERS)
    assert members(host_api.OptionalHostMembers) == set(host_api.OPTIONAL_DEFAULTS)


def test_a_pyqt_host_process_sees_one_line_and_no_pyside_import() -> None:
    """As in a host built on PyQt5: no QApplication of ours, a window of another binding."""
    probe = textwrap.dedent("""
        import sys
        import sam_plugin
        Window = type("QMainWindow", (), {"__module__": "PyQt5.QtWidgets"})
        class Host:
            main_window = Window()
            sam_module = None
            def add_dock_widget(self, dock, area): raise AssertionError("docked")
            def remove_dock_widget(self, dock): raise AssertionError("removed")
        host = Host()
        print(sam_plugin.load(host))
        sam_plugin.unload(host)
        print(sorted(name for name in sys.modules if name.startswith(("PySide6", "sam_plugin.ui"))))
    """)
    done = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["None", "[]"]
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("SAM Agent cannot load: "), lines
    assert "PyQt5" in lines[0]
