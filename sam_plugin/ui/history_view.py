"""Run history read from the runs directory: started, status, mode and request."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, QUrl, Signal
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import QTreeWidget, QTreeWidgetItem, QWidget

from sam_plugin.runtime.run_store import list_runs
from sam_plugin.ui.i18n import tr

RUN_ID_ROLE = Qt.ItemDataRole.UserRole + 1


class HistoryView(QTreeWidget):
    """objectName ``historyView``; double-click opens the run's directory."""

    runActivated = Signal(str)  # noqa: N815 (Qt naming): run id

    def __init__(self, runs_dir: Path, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("historyView")
        self.runs_dir = Path(runs_dir)
        self.setColumnCount(4)
        self.setRootIsDecorated(False)
        self.setHeaderLabels([tr("Started"), tr("Status"), tr("Mode"), tr("Request")])
        self.itemDoubleClicked.connect(self._open)

    def refresh(self) -> None:
        self.clear()
        if not self.runs_dir.exists():
            return
        for summary in list_runs(self.runs_dir):
            request = summary.request.strip().replace("\n", " ")
            item = QTreeWidgetItem(self, [summary.started, summary.status, summary.module,
                                          request])
            item.setToolTip(3, summary.request)
            item.setData(0, RUN_ID_ROLE, summary.run_id)
        for column in range(3):
            self.resizeColumnToContents(column)

    def rows(self) -> list[tuple[str, str, str, str]]:
        return [tuple(self.topLevelItem(i).text(c) for c in range(4))  # type: ignore[misc]
                for i in range(self.topLevelItemCount())]

    def _open(self, item: QTreeWidgetItem, column: int) -> None:
        run_id = item.data(0, RUN_ID_ROLE)
        if run_id:
            self.runActivated.emit(run_id)
            QDesktopServices.openUrl(QUrl.fromLocalFile(str(self.runs_dir / run_id)))
