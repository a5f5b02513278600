"""Run history read from the runs directory: started, status, mode, target and request."""

from __future__ import annotations

import json
from pathlib import Path

from PySide6.QtCore import Qt, QUrl, Signal
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import QTreeWidget, QTreeWidgetItem, QWidget

from sam_plugin.runtime.run_store import RunDir, list_runs
from sam_plugin.ui.i18n import tr

RUN_ID_ROLE = Qt.ItemDataRole.UserRole + 1
COLUMNS = 5
REQUEST_COLUMN = 4


def run_target(run: RunDir) -> str:
    """``model/part`` from ``result.json``, else from the observation (``workspace.json``) of a
    run without a result; ``""`` when the run recorded neither."""
    try:
        result = run.read_result()
    except ValueError:
        result = None
    if result is not None:
        return f"{result.target.model_name}/{result.target.part_name}"
    try:
        target = json.loads(run.file("workspace.json").read_text(encoding="utf-8"))["target"]
        return f"{target['model_name']}/{target['part_name']}"
    except (OSError, ValueError, KeyError, TypeError):
        return ""


class HistoryView(QTreeWidget):
    """objectName ``historyView``; double-click opens the run's directory."""

    runActivated = Signal(str)  # noqa: N815 (Qt naming): run id

    def __init__(self, runs_dir: Path, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("historyView")
        self.runs_dir = Path(runs_dir)
        self.setColumnCount(COLUMNS)
        self.setRootIsDecorated(False)
        self.setHeaderLabels([tr("Started"), tr("Status"), tr("Mode"), tr("Target"),
                              tr("Request")])
        self.itemDoubleClicked.connect(self._open)

    def refresh(self) -> None:
        self.clear()
        if not self.runs_dir.exists():
            return
        for summary in list_runs(self.runs_dir):
            request = summary.request.strip().replace("\n", " ")
            target = run_target(RunDir(self.runs_dir, summary.run_id))
            item = QTreeWidgetItem(self, [summary.started, summary.status, summary.module,
                                          target, request])
            item.setToolTip(REQUEST_COLUMN, summary.request)
            item.setData(0, RUN_ID_ROLE, summary.run_id)
        for column in range(REQUEST_COLUMN):
            self.resizeColumnToContents(column)

    def rows(self) -> list[tuple[str, ...]]:
        return [tuple(self.topLevelItem(i).text(c) for c in range(COLUMNS))
                for i in range(self.topLevelItemCount())]

    def _open(self, item: QTreeWidgetItem, column: int) -> None:
        run_id = item.data(0, RUN_ID_ROLE)
        if run_id:
            self.runActivated.emit(run_id)
            QDesktopServices.openUrl(QUrl.fromLocalFile(str(self.runs_dir / run_id)))
