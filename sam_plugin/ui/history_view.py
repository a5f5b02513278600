"""Run history read from the runs directory: started (local time), status, mode, target, who
answered and what it cost, and the request (whole, on hover). A run opens in a detail view
(run_details.py); **Run again** starts a new run with
the same request and target; a double-click opens its directory, or says why it cannot.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, QUrl, Signal
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from sam_plugin.runtime.store.run_history import list_runs
from sam_plugin.runtime.store.run_store import RunDir, RunResult
from sam_plugin.ui.i18n import tr

RUN_ID_ROLE = Qt.ItemDataRole.UserRole + 1
SOURCE_RUN_ROLE = Qt.ItemDataRole.UserRole + 2  # a rerun's source run
RERUNNABLE_ROLE = Qt.ItemDataRole.UserRole + 3  # verified (or verified and undone)
COLUMNS = 8
REQUEST_COLUMN = 7


def run_target(run: RunDir) -> str:
    """``model/part`` from ``result.json``, else from the observation (``workspace.json``) of a
    run without a result; ``""`` when the run recorded neither."""
    target = _run_target(run, _read_result(run))
    return f"{target[0]}/{target[1]}" if target else ""


def _read_result(run: RunDir) -> RunResult | None:
    try:
        return run.read_result()
    except ValueError:
        return None


def _run_target(run: RunDir, result: RunResult | None) -> tuple[str, str] | None:
    if result is not None:
        return result.target.model_name, result.target.part_name
    try:
        target = json.loads(run.file("workspace.json").read_text(encoding="utf-8"))["target"]
        return str(target["model_name"]), str(target["part_name"])
    except (OSError, ValueError, KeyError, TypeError):
        return None


def local_time(started: str) -> str:
    """``2026-11-29T19:30:00Z`` in the machine's time zone, ``2026-11-29 20:30:00``."""
    try:
        moment = datetime.fromisoformat(started.replace("Z", "+00:00"))
    except ValueError:
        return started
    return moment.astimezone().strftime("%Y-%m-%d %H:%M:%S")


def _provider_cells(result: RunResult | None) -> tuple[str, str, str]:
    usage = getattr(result, "provider", None)
    if usage is None:
        return "—", "—", "—"
    tokens = "—"
    if usage.prompt_tokens is not None or usage.completion_tokens is not None:
        tokens = f"{usage.prompt_tokens or 0} / {usage.completion_tokens or 0}"
    name = tr("Replay") if usage.name == "Replay" else usage.name
    who = name if usage.name == "Replay" else f"{name} · {usage.model}"
    return who, tokens, f"{usage.seconds:.1f}"


def status_words(status: str) -> str:
    """A run's status as History shows it (translated; result.json keeps the raw word)."""
    return {"verified": tr("verified"), "failed": tr("failed"), "rejected": tr("rejected"),
            "cancelled": tr("cancelled"), "unknown": tr("unknown"),
            "incomplete": tr("incomplete"), "undone": tr("undone")}.get(status, status)


@dataclass(frozen=True)
class RunRequest:
    """What Run again starts: the same request, mode and target."""

    run_id: str
    request: str
    mode: str
    model_name: str
    part_name: str


def run_request_of(runs_dir: Path, run_id: str) -> RunRequest | None:
    run = RunDir(runs_dir, run_id)
    try:
        request = run.file("request.txt").read_text(encoding="utf-8")
    except OSError:
        return None
    result = _read_result(run)
    target = _run_target(run, result)
    mode = result.module if result is not None else ""
    if not mode:
        try:
            mode = str(json.loads(run.file("workspace.json").read_text(encoding="utf-8"))
                       .get("mode", ""))
        except (OSError, ValueError):
            mode = ""
    if target is None or not mode or not request.strip():
        return None
    return RunRequest(run_id=run_id, request=request, mode=mode, model_name=target[0],
                      part_name=target[1])


class HistoryView(QTreeWidget):
    """objectName ``historyView``; double-click opens the run's directory (``openFailed``
    says so when no file manager could)."""

    runActivated = Signal(str)  # noqa: N815 (Qt naming): run id
    openFailed = Signal(str)  # noqa: N815 -- the directory that could not be opened

    def __init__(self, runs_dir: Path, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("historyView")
        self.runs_dir = Path(runs_dir)
        self.setColumnCount(COLUMNS)
        self.setRootIsDecorated(False)
        self.setHeaderLabels([tr("Started"), tr("Status"), tr("Mode"), tr("Target"),
                              tr("Provider"), tr("Tokens in / out"), tr("Seconds"),
                              tr("Request")])
        self.itemDoubleClicked.connect(self._open)

    def refresh(self) -> None:
        self.clear()
        if not self.runs_dir.exists():
            return
        for summary in list_runs(self.runs_dir):
            run = RunDir(self.runs_dir, summary.run_id)
            result = _read_result(run)
            target = _run_target(run, result)
            request = summary.request.strip().replace("\n", " ")
            item = QTreeWidgetItem(self, [
                local_time(summary.started), status_words(summary.status), summary.module,
                f"{target[0]}/{target[1]}" if target else "", *_provider_cells(result), request])
            tip = tr("{request}\n\nrun {run_id}, started {started} (UTC)").format(
                request=summary.request.strip(), run_id=summary.run_id, started=summary.started)
            if result is not None and result.source == "rerun" and result.source_run:
                item.setText(REQUEST_COLUMN, tr("↻ rerun: ") + request)
                tip += "\n" + tr("A rerun of run {source_run} (its calls, no model)").format(
                    source_run=result.source_run)
                item.setData(0, SOURCE_RUN_ROLE, result.source_run)
            item.setData(0, RERUNNABLE_ROLE, summary.status in ("verified", "undone"))
            for column in range(COLUMNS):
                item.setToolTip(column, tip)
            item.setData(0, RUN_ID_ROLE, summary.run_id)
        for column in range(REQUEST_COLUMN):
            self.resizeColumnToContents(column)

    def rows(self) -> list[tuple[str, ...]]:
        return [tuple(self.topLevelItem(i).text(c) for c in range(COLUMNS))
                for i in range(self.topLevelItemCount())]

    def selected_run(self) -> str | None:
        item = self.currentItem()
        return item.data(0, RUN_ID_ROLE) if item is not None else None

    def selected_role(self, role: int) -> object:
        item = self.currentItem()
        return item.data(0, role) if item is not None else None

    def select_run(self, run_id: str) -> bool:
        """Make ``run_id``'s row the current one (False when it is not listed)."""
        for index in range(self.topLevelItemCount()):
            item = self.topLevelItem(index)
            if item.data(0, RUN_ID_ROLE) == run_id:
                self.setCurrentItem(item)
                self.scrollToItem(item)
                return True
        return False

    def _open(self, item: QTreeWidgetItem, column: int) -> None:
        run_id = item.data(0, RUN_ID_ROLE)
        if run_id:
            self.runActivated.emit(run_id)
            path = self.runs_dir / run_id
            if not QDesktopServices.openUrl(QUrl.fromLocalFile(str(path))):
                self.openFailed.emit(str(path))


class HistoryPanel(QWidget):
    """The History tab: the list, Details… and Run again, and a note line."""

    runAgainRequested = Signal(object)  # noqa: N815 -- a RunRequest
    applyToPartsRequested = Signal(str)  # noqa: N815 -- the run to rerun on other parts

    def __init__(self, view: HistoryView, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("historyPanel")
        self.view = view
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(view, 1)
        row = QHBoxLayout()
        self.details_button = QPushButton(tr("Details…"))
        self.details_button.setObjectName("historyDetailsButton")
        self.run_again_button = QPushButton(tr("Run again"))
        self.run_again_button.setObjectName("runAgainButton")
        self.run_again_button.setToolTip(tr("A new run with the same request, mode and target"))
        self.apply_button = QPushButton(tr("Apply to other parts…"))
        self.apply_button.setObjectName("applyToPartsButton")
        self.apply_button.setToolTip(tr("Run this verified run's calls again on other parts, "
                                        "without the model"))
        self.source_button = QPushButton(tr("Source run"))
        self.source_button.setObjectName("historySourceButton")
        self.source_button.setToolTip(tr("Go to the run this rerun repeats"))
        row.addWidget(self.details_button)
        row.addWidget(self.run_again_button)
        row.addWidget(self.apply_button)
        row.addWidget(self.source_button)
        row.addStretch(1)
        layout.addLayout(row)
        self.note = QLabel()
        self.note.setObjectName("historyNote")
        self.note.setWordWrap(True)
        self.note.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.note)
        self.details_button.clicked.connect(self.show_details)
        self.run_again_button.clicked.connect(self._run_again)
        self.apply_button.clicked.connect(self._apply_to_parts)
        self.source_button.clicked.connect(self._go_to_source)
        view.openFailed.connect(self._say_open_failed)
        view.itemSelectionChanged.connect(self._update_buttons)
        self._update_buttons()
        self.dialog: Any = None  # the open RunDetailDialog

    def _update_buttons(self) -> None:
        selected = self.view.selected_run() is not None
        self.details_button.setEnabled(selected)
        self.run_again_button.setEnabled(selected)
        self.apply_button.setEnabled(bool(self.view.selected_role(RERUNNABLE_ROLE)))
        self.source_button.setEnabled(bool(self.view.selected_role(SOURCE_RUN_ROLE)))

    def _apply_to_parts(self) -> None:
        run_id = self.view.selected_run()
        if run_id:
            self.note.clear()
            self.applyToPartsRequested.emit(run_id)

    def _go_to_source(self) -> None:
        source = self.view.selected_role(SOURCE_RUN_ROLE)
        if source and not self.view.select_run(str(source)):
            self.note.setText(tr("Run {run_id} is no longer in the runs directory.").format(
                run_id=source))

    def _say_open_failed(self, path: str) -> None:
        self.note.setText(tr("No file manager could open the run directory; it is {path} "
                             "(Details… shows its files here).").format(path=path))

    def show_details(self) -> Any:
        from sam_plugin.ui.run_details import RunDetailDialog

        run_id = self.view.selected_run()
        if not run_id:
            return None
        self.dialog = RunDetailDialog(RunDir(self.view.runs_dir, run_id), self)
        self.dialog.finished.connect(self.dialog.deleteLater)
        self.dialog.open()
        return self.dialog

    def _run_again(self) -> None:
        run_id = self.view.selected_run()
        request = run_request_of(self.view.runs_dir, run_id) if run_id else None
        if request is None:
            self.note.setText(tr("This run recorded no request and target to run again."))
            return
        self.note.clear()
        self.runAgainRequested.emit(request)
