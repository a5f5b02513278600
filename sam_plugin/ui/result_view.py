"""The result of a run: before/after counts, each check (expected, actual, ok), the error with
the action to take, and a link that opens the run directory.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, QUrl
from PySide6.QtGui import QColor, QDesktopServices
from PySide6.QtWidgets import (
    QHeaderView,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from sam_plugin.ui.i18n import tr
from sam_plugin.ui.status_words import error_action, layer_name

COUNT_ROWS = ("nodes", "elements", "QUAD", "TRI", "BEAM", "sets")
CHECK_VALUE_MAX_WIDTH = 110  # px for Expected / Actual; the Check column takes the rest


def _count(summary: Any, row: str) -> str:
    if summary is None:
        return "—"
    if row == "nodes":
        return str(summary.node_count)
    if row == "elements":
        return str(summary.element_count)
    if row == "sets":
        return ", ".join(summary.sets) if summary.sets else "—"
    return str(summary.shape_counts.get(row, 0))


def _row_title(row: str) -> str:
    return {"nodes": tr("Nodes"), "elements": tr("Elements"), "sets": tr("Sets")}.get(row, row)


class ResultView(QWidget):
    """objectName ``resultView``; children ``resultTable``, ``checksTable``, ``errorLabel``,
    ``runDirLink``."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("resultView")
        self.run_dir: Path | None = None
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.error_label = QLabel()
        self.error_label.setObjectName("errorLabel")
        self.error_label.setWordWrap(True)
        self.error_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.table = QTableWidget(len(COUNT_ROWS), 2)
        self.table.setObjectName("resultTable")
        self.checks = QTableWidget(0, 4)
        self.checks.setObjectName("checksTable")
        self.link = QLabel()
        self.link.setObjectName("runDirLink")
        self.link.setTextFormat(Qt.TextFormat.RichText)
        self.link.linkActivated.connect(self.open_run_dir)
        # the link first: in a short dock the tables scroll, the run directory stays in sight
        for widget in (self.error_label, self.link, self.table, self.checks):
            layout.addWidget(widget)
        for table in (self.table, self.checks):
            table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
            table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
            table.verticalHeader().setDefaultSectionSize(22)
        rows_height = 22 * len(COUNT_ROWS) + self.table.horizontalHeader().sizeHint().height() + 4
        self.table.setFixedHeight(rows_height)
        header = self.checks.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for column in (1, 2, 3):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        # a fingerprint or a long list must not push Actual and OK out of sight: long values
        # are elided in the middle (the whole value is the cell's tooltip)
        header.setMaximumSectionSize(CHECK_VALUE_MAX_WIDTH)
        self.checks.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        self.checks.setWordWrap(False)
        self.checks.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.checks.verticalHeader().hide()
        self.retranslate()
        self.clear()

    def retranslate(self) -> None:
        self.table.setHorizontalHeaderLabels([tr("Before"), tr("After")])
        self.table.setVerticalHeaderLabels([_row_title(r) for r in COUNT_ROWS])
        self.checks.setHorizontalHeaderLabels([tr("Check"), tr("Expected"), tr("Actual"),
                                               tr("OK")])

    def clear(self) -> None:
        self.error_label.hide()
        self.error_label.clear()
        for row in range(len(COUNT_ROWS)):
            for column in range(2):
                self.table.setItem(row, column, QTableWidgetItem("—"))
        self.checks.setRowCount(0)
        self.link.clear()
        self.run_dir = None
        self.set_tables_shown(False)

    def set_tables_shown(self, shown: bool) -> None:
        """The tables only once there is a result: until then the spec needs the room."""
        self.table.setVisible(shown)
        self.checks.setVisible(shown)

    def has_result(self) -> bool:
        return not self.table.isHidden()

    def show_result(self, result: Any, run_dir: Path | None, back_in_review: bool = False) -> None:
        self.clear()
        self.set_tables_shown(True)
        for row, key in enumerate(COUNT_ROWS):
            self.table.setItem(row, 0, QTableWidgetItem(_count(result.before, key)))
            self.table.setItem(row, 1, QTableWidgetItem(_count(result.after, key)))
        self.checks.setRowCount(len(result.checks))
        # a check that failed is what the analyst must see first
        for row, check in enumerate(sorted(result.checks, key=lambda c: c.ok)):
            ok = QTableWidgetItem(tr("yes") if check.ok else tr("NO"))
            ok.setForeground(QColor("#1a7f37") if check.ok else QColor("#cf222e"))
            for column, item in enumerate((QTableWidgetItem(check.name),
                                           QTableWidgetItem(check.expected),
                                           QTableWidgetItem(check.actual), ok)):
                item.setToolTip(item.text())
                self.checks.setItem(row, column, item)
        if result.error is not None:
            self.show_error(result.error.layer, result.error.message, back_in_review)
        self.set_run_dir(run_dir)

    def show_error(self, layer: str, message: str, back_in_review: bool) -> None:
        text = tr("Error in {layer}: {message}").format(layer=layer_name(layer), message=message)
        self.error_label.setText(f"{text}\n{error_action(layer, back_in_review)}")
        self.error_label.setStyleSheet("color: #cf222e;")
        self.error_label.show()

    def show_notice(self, text: str) -> None:
        """A warning above the result (kept until the next result is shown)."""
        self.error_label.setText(text)
        self.error_label.setStyleSheet("color: #9a6700;")
        self.error_label.show()

    def set_run_dir(self, run_dir: Path | None) -> None:
        self.run_dir = run_dir
        if run_dir is None:
            self.link.clear()
            return
        url = QUrl.fromLocalFile(str(run_dir)).toString()
        self.link.setText(f'<a href="{url}">{tr("Open the run directory")}</a> '
                          f"<small>{run_dir.name}</small>")

    def open_run_dir(self, url: str = "") -> bool:
        if self.run_dir is None:
            return False
        return QDesktopServices.openUrl(QUrl.fromLocalFile(str(self.run_dir)))

    def cell(self, row_key: str, column: str) -> str:
        """Text of a before/after cell, e.g. ``cell("QUAD", "after")`` (tests, automation)."""
        item = self.table.item(COUNT_ROWS.index(row_key), 0 if column == "before" else 1)
        return item.text() if item else ""

    def check_rows(self) -> list[tuple[str, str, str, str]]:
        return [tuple(self.checks.item(r, c).text() for c in range(4))  # type: ignore[misc]
                for r in range(self.checks.rowCount())]
