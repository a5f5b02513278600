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
from sam_plugin.ui.run_changes import PROPERTY_ROWS, is_property_check, property_changes
from sam_plugin.ui.status_words import error_action, layer_name

COUNT_ROWS = ("nodes", "elements", "QUAD", "TRI", "BEAM", "sets")
# "unchanged" stands for the six count rows when none of them changed (a Property run, an
# audit): the rows that did change, and the checks, get the room
ROW_KEYS = ("unchanged", *COUNT_ROWS, *PROPERTY_ROWS)
ROW_HEIGHT = 22
CHECK_VALUE_MAX_WIDTH = 90  # px for Expected / Actual; the Check column takes the rest


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


def _counts_unchanged(result: Any) -> bool:
    if result.before is None or result.after is None:
        return False
    return all(_count(result.before, r) == _count(result.after, r) for r in COUNT_ROWS)


def _in_short(summary: Any) -> str:
    return f"{summary.node_count} / {summary.element_count}"


def _in_full(summary: Any) -> str:
    shapes = ", ".join(f"{s} {_count(summary, s)}" for s in ("QUAD", "TRI", "BEAM"))
    return tr("Unchanged: {nodes} nodes, {elements} elements; {shapes}; sets: {sets}").format(
        nodes=summary.node_count, elements=summary.element_count, shapes=shapes,
        sets=_count(summary, "sets"))


def _row_title(row: str) -> str:
    return {"nodes": tr("Nodes"), "elements": tr("Elements"), "sets": tr("Sets"),
            "unchanged": tr("Nodes / elements"), "materials": tr("Materials"),
            "sections": tr("Sections"), "assigned": tr("Elements with a section"),
            "oriented": tr("Oriented beams")}.get(row, row)


def _ordered_checks(result: Any) -> list[Any]:
    """Failed checks first; in a Property run, then what it is about; the rest in order."""
    by_module = result.module == "property"
    return sorted(result.checks,
                  key=lambda c: (c.ok, by_module and not is_property_check(c.name)))


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
        self.table = QTableWidget(len(ROW_KEYS), 2)
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
            table.verticalHeader().setDefaultSectionSize(ROW_HEIGHT)
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
        self.table.setVerticalHeaderLabels([_row_title(r) for r in ROW_KEYS])
        self.checks.setHorizontalHeaderLabels([tr("Check"), tr("Expected"), tr("Actual"),
                                               tr("OK")])

    def clear(self) -> None:
        self.error_label.hide()
        self.error_label.clear()
        for row in range(len(ROW_KEYS)):
            for column in range(2):
                self.table.setItem(row, column, QTableWidgetItem("—"))
        self._show_rows(COUNT_ROWS)
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
        self._fill_counts(result, run_dir)
        self.checks.setRowCount(len(result.checks))
        # a check that failed is what the analyst must see first
        for row, check in enumerate(_ordered_checks(result)):
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

    def _fill_counts(self, result: Any, run_dir: Path | None) -> None:
        for key in COUNT_ROWS:
            self._set_row(key, _count(result.before, key), _count(result.after, key))
        shown: list[str] = list(COUNT_ROWS)
        if _counts_unchanged(result):
            self._set_row("unchanged", _in_short(result.before), _in_short(result.after))
            self.table.item(ROW_KEYS.index("unchanged"), 0).setToolTip(_in_full(result.before))
            self.table.item(ROW_KEYS.index("unchanged"), 1).setToolTip(_in_full(result.after))
            shown = ["unchanged"]
        changes = property_changes(result, run_dir)
        for key, (before, after) in changes.items():
            self._set_row(key, before, after)
            self.table.item(ROW_KEYS.index(key), 0).setToolTip(
                tr("Observed before the run: {value}").format(value=before))
            self.table.item(ROW_KEYS.index(key), 1).setToolTip(
                tr("Read back after the run (only what this run checked): {value}").format(
                    value=after))
        self._show_rows((*shown, *changes))

    def _set_row(self, key: str, before: str, after: str) -> None:
        row = ROW_KEYS.index(key)
        self.table.setItem(row, 0, QTableWidgetItem(before))
        self.table.setItem(row, 1, QTableWidgetItem(after))

    def _show_rows(self, keys: Any) -> None:
        """Show exactly ``keys``; the table is as tall as its rows (it never scrolls)."""
        wanted = set(keys)
        for row, key in enumerate(ROW_KEYS):
            self.table.setRowHidden(row, key not in wanted)
        header = self.table.horizontalHeader().sizeHint().height()
        self.table.setFixedHeight(ROW_HEIGHT * len(wanted) + header + 4)

    def row_keys(self) -> tuple[str, ...]:
        return ROW_KEYS

    def row_shown(self, key: str) -> bool:
        return not self.table.isRowHidden(ROW_KEYS.index(key))

    def show_error(self, layer: str, message: str, back_in_review: bool) -> None:
        text = tr("Error in {layer}: {message}").format(layer=layer_name(layer), message=message)
        self.error_label.setText(f"{text}\n{error_action(layer, back_in_review, text)}")
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
        item = self.table.item(ROW_KEYS.index(row_key), 0 if column == "before" else 1)
        return item.text() if item else ""

    def check_rows(self) -> list[tuple[str, str, str, str]]:
        return [tuple(self.checks.item(r, c).text() for c in range(4))  # type: ignore[misc]
                for r in range(self.checks.rowCount())]
