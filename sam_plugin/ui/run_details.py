"""History → Details… (objectName ``runDetailDialog``): one tab per thing the analyst reads
about a run, in the same words the Run tab uses, the raw file one click away.

The plan is the dock's own plan view (in words; the link under it shows ``plan.json``), the
result the dock's own result view (counts, checks, errors in words; a link shows
``result.json``); the spec versions, the generated script, its output and the events are shown
as written.
"""

from __future__ import annotations

import json

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QPlainTextEdit,
    QStackedWidget,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from sam_plugin.runtime.store.run_store import RunDir
from sam_plugin.ui.fitting import vertical_scroll
from sam_plugin.ui.i18n import tr
from sam_plugin.ui.plan_view import PlanView
from sam_plugin.ui.result_view import ResultView


def spec_versions(run: RunDir) -> list[tuple[str, str]]:
    """(title, text) of every spec version: design.1.txt, design.2.txt, … (with the remark that
    produced it), or design.txt alone when the spec was never revised."""
    try:
        remarks = {int(e["version"]): str(e["remark"]) for e in json.loads(
            run.file("revisions.json").read_text(encoding="utf-8"))}
    except (OSError, ValueError, KeyError, TypeError):
        remarks = {}
    versions = []
    number = 1
    while run.file(f"design.{number}.txt").exists():
        title = tr("Version {n}").format(n=number)
        if number in remarks:
            title += " — " + tr("asked: {remark}").format(remark=remarks[number])
        versions.append((title, run.file(f"design.{number}.txt").read_text(encoding="utf-8")))
        number += 1
    if not versions and run.file("design.txt").exists():
        versions.append((tr("Spec"), run.file("design.txt").read_text(encoding="utf-8")))
    return versions


class WordsOrRaw(QWidget):
    """A worded view with a link under it that swaps in the raw file (and back)."""

    def __init__(self, worded: QWidget, raw: str, file_name: str,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.raw_text = raw
        self.file_name = file_name
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.stack = QStackedWidget()
        self.stack.addWidget(worded)
        self.raw_view = _text_view(raw)
        self.stack.addWidget(self.raw_view)
        self.link = QLabel()
        self.link.setObjectName("rawLink")
        self.link.linkActivated.connect(lambda _: self.show_raw(self.stack.currentIndex() == 0))
        layout.addWidget(self.stack, 1)
        layout.addWidget(self.link)
        self.show_raw(False)

    def show_raw(self, raw: bool) -> None:
        self.stack.setCurrentIndex(1 if raw else 0)
        words = tr("Show it in words") if raw else tr("Show {file} as written").format(
            file=self.file_name)
        self.link.setText(f'<a href="#"><small>{words}</small></a>')

    def showing_raw(self) -> bool:
        return self.stack.currentIndex() == 1


class RunDetailDialog(QDialog):
    """objectName ``runDetailDialog``: one tab per artifact the analyst reads."""

    def __init__(self, run: RunDir, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("runDetailDialog")
        self.setWindowTitle(tr("Run {run_id}").format(run_id=run.run_id))
        self.resize(760, 560)
        self._raw: dict[str, str] = {}
        layout = QVBoxLayout(self)
        path = QLabel(str(run.path))
        path.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(path)
        self.tabs = QTabWidget()
        self.tabs.setObjectName("runDetailTabs")
        layout.addWidget(self.tabs, 1)
        specs = "\n\n".join(f"=== {title} ===\n{text}" for title, text in spec_versions(run))
        self._add(tr("Spec versions"), _text_view(specs or _absent()), specs)
        self.plan_view = PlanView()
        self._add(tr("Plan"), self._plan_tab(run), _read(run, "plan.json"))
        self.result_view = ResultView()
        self._add(tr("Result"), self._result_tab(run), _read(run, "result.json"))
        for title, name in ((tr("Generated script"), "generated_script.py"),
                            (tr("Script output"), "script_output.txt"),
                            (tr("Events"), "events.jsonl")):
            text = _read(run, name)
            self._add(title, _text_view(text or _absent()), text)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)

    def _add(self, title: str, widget: QWidget, raw: str) -> None:
        self._raw[title] = raw
        self.tabs.addTab(widget, title)

    def _plan_tab(self, run: RunDir) -> QWidget:
        from sam_plugin.compilers.plan import Plan

        raw = _read(run, "plan.json")
        try:
            plan = Plan.model_validate_json(raw)
        except ValueError:  # no plan (the run stopped before one), or not readable
            return _text_view(raw or _absent())
        self.plan_view.show_plan(plan, raw_text=raw)  # its link shows plan.json
        return self.plan_view

    def _result_tab(self, run: RunDir) -> QWidget:
        raw = _read(run, "result.json")
        try:
            result = run.read_result()
        except ValueError:
            return _text_view(raw or _absent())
        self.result_view.show_result(result, run.path)
        return WordsOrRaw(vertical_scroll(self.result_view, "detailResultScroll"), raw,
                          "result.json")

    def tab_text(self, title: str) -> str:
        """What the tab shows as text (the worded plan; a text tab's text)."""
        for index in range(self.tabs.count()):
            if self.tabs.tabText(index) == title:
                widget = self.tabs.widget(index)
                if isinstance(widget, (QPlainTextEdit, PlanView)):
                    return widget.toPlainText()
                raise TypeError(f"tab {title!r} shows widgets, not text: use raw_text")
        raise KeyError(title)

    def raw_text(self, title: str) -> str:
        """The file behind a tab, as written."""
        return self._raw[title]


def _text_view(text: str) -> QPlainTextEdit:
    view = QPlainTextEdit(text)
    view.setReadOnly(True)
    view.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
    return view


def _absent() -> str:
    return tr("(not in this run's directory)")


def _read(run: RunDir, name: str) -> str:
    try:
        return run.file(name).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return ""
