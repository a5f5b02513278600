"""docs/install.md is enough to load the dock into a host that is not the offline one.

The minimal host is the page's own code block, run as written; it then carries a replayed run
to Verified and unloads cleanly. The page's example refusal is the line the check prints.
"""

from __future__ import annotations

import logging
import re
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QEvent
from PySide6.QtWidgets import QDockWidget

import sam_plugin

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "install.md"


def _python_blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", GUIDE.read_text(encoding="utf-8"), re.S)


def _minimal_host_blocks() -> tuple[str, str]:
    blocks = _python_blocks()
    load = next(block for block in blocks if "class Host:" in block)
    unload = blocks[blocks.index(load) + 1]
    assert unload.strip() == "sam_plugin.unload(host)"
    return load, unload


def test_the_minimal_host_of_the_guide_runs_a_request_to_verified(qtbot, replay, workspace):
    import sam

    from sam_plugin.ui.automation import run_request
    from sam_plugin.ui.event_loop import settle_after_unload

    sam.openMdb(str(workspace))
    load, unload = _minimal_host_blocks()
    namespace: dict[str, object] = {}
    exec(compile(load, str(GUIDE), "exec"), namespace)  # noqa: S102 - the page's own code
    window, handle = namespace["window"], namespace["handle"]
    qtbot.addWidget(window)
    assert handle is not None
    dock = window.findChild(QDockWidget, "samAgentDock")
    assert dock is not None and dock.parent() is window
    status = run_request(dock, "part", "Model-1", "Plate",
                         "build a 60 x 100 plate meshed 6 x 10 with QUAD elements")
    assert "Verified" in status
    assert len(sam.mdb.models["Model-1"].parts["Plate"].elements) == 60

    exec(compile(unload, str(GUIDE), "exec"), namespace)  # noqa: S102
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    assert window.findChild(QDockWidget, "samAgentDock") is None
    assert settle_after_unload(), "the qasync loop stayed the running loop after unload"


def test_the_guide_shows_the_line_a_pyqt_host_gets(qapp, caplog):
    from PySide6.QtWidgets import QMainWindow

    class PyQtHost:
        main_window = QMainWindow()
        sam_module = None
        qt_binding = "PyQt5 5.15.10"

        def add_dock_widget(self, dock, area): ...
        def remove_dock_widget(self, dock): ...

    with caplog.at_level(logging.ERROR, logger="sam_plugin"):
        assert sam_plugin.load(PyQtHost()) is None
    (line,) = [record.getMessage() for record in caplog.records]
    assert f"\n{line}\n" in GUIDE.read_text(encoding="utf-8")


def test_the_guide_lists_every_member_of_the_protocols():
    from sam_plugin.host_api import OPTIONAL_DEFAULTS, REQUIRED_MEMBERS

    text = GUIDE.read_text(encoding="utf-8")
    for name in REQUIRED_MEMBERS:
        assert re.search(rf"\| `{name}[`(].*\| yes \|", text), name
    for name in OPTIONAL_DEFAULTS:
        assert re.search(rf"\| `{name}[`(].*\| no \|", text), name


def test_the_guide_gives_a_test_host_its_sam_by_a_supported_call(workspace, tmp_path,
                                                                  monkeypatch):
    import shutil

    import sam

    from sam_plugin.offline_sam import is_offline

    (block,) = [b for b in _python_blocks() if "use_offline_sam()" in b]
    shutil.copy(workspace, tmp_path / "W.sam.json")
    monkeypatch.chdir(tmp_path)
    before = sam.mdb
    try:
        namespace: dict[str, object] = {}
        exec(compile(block, str(GUIDE), "exec"), namespace)  # noqa: S102 - the page's own code
        module = namespace["sam"]
        assert is_offline(Path(module.__file__).resolve())
        assert "Model-1" in module.mdb.models.keys()
        assert module.mdb.pathName == "W.sam.json"
    finally:
        sam.mdb = before


def test_the_guide_and_the_readme_name_the_libraries_the_demo_checks_for():
    from sam_plugin.ui.qt_platform import DESKTOP_PACKAGES

    readme = (GUIDE.parents[1] / "README.md").read_text(encoding="utf-8")
    for page in (GUIDE.read_text(encoding="utf-8"), readme):
        block = re.search(r"sudo apt-get install (libegl1.*?)\n(?!    )", page, re.S)
        assert block is not None
        assert " ".join(block.group(1).replace("\\", " ").split()) == DESKTOP_PACKAGES


def test_the_scripts_output_goes_to_a_named_logger_not_the_hosts_stdout(
        qtbot, replay, dock, capfd, caplog):
    """docs/install.md "Where the plugin's output goes": the host's logging decides."""
    import logging

    from plan_steps import approve_plan, to_plan

    caplog.set_level(logging.INFO, logger="sam_plugin.script")
    to_plan(qtbot, dock, "refine")
    approve_plan(qtbot, dock)
    assert "Verified" in dock.status_label.text()
    said = [r.getMessage() for r in caplog.records if r.name == "sam_plugin.script"]
    assert any(line.startswith("refine_mesh: {'levels': 1") for line in said), said
    assert "refine_mesh:" not in capfd.readouterr().out


def test_the_guide_says_the_site_defaults_and_where_output_goes():
    from pathlib import Path

    guide = (Path(__file__).resolve().parents[2] / "docs" / "install.md").read_text("utf-8")
    for heading in ("## 7. Site defaults", "## 8. Where the plugin's output goes",
                    "## 9. The MCP server inside a real host"):
        assert heading in guide
    assert "`QTimer.singleShot(0, hook)`" in guide
    assert 'logging.getLogger("sam_plugin")' in guide
