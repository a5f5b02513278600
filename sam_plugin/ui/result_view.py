"""The result of a run: before/after counts, each check (expected, actual, ok), the error with
the action to take, and a link that opens the run directory.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, QUrl, Signal
from PySide6.QtGui import QColor, QDesktopServices
from PySide6.QtWidgets import (
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from sam_plugin.compilers.evidence import ValueRow
from sam_plugin.compilers.registry import MODES, get_module
from sam_plugin.compilers.units import UnitSystem
from sam_plugin.errors import ProviderFailure
from sam_plugin.runtime.script_lines import ScriptLine, read_lines
from sam_plugin.ui.audit_findings import Finding, audit_findings
from sam_plugin.ui.check_words import CheckRow, check_row
from sam_plugin.ui.fitting import breakable, wrap_in_width
from sam_plugin.ui.i18n import tr
from sam_plugin.ui.output_words import output_words
from sam_plugin.ui.run_changes import PROPERTY_ROWS, is_property_check, property_changes
from sam_plugin.ui.status_words import error_action, layer_name
from sam_plugin.ui.undo_view import UndoOutcome, undo_checks, undo_headline
from sam_plugin.words.phrase import Phrase

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


def _with_unit(row: ValueRow, units: UnitSystem | None) -> str:
    """``Shell-2mm thickness (mm)``, ``Steel E (MPa)``: a value's name gets its unit."""
    unit = units.unit(row.quantity) if units is not None else ""
    return f"{row.name} ({unit})" if unit else row.name


def values_set(module: str, run_dir: Path | None) -> list[ValueRow]:
    """The values a finished run set, before and after, in the words of its mode's domain."""
    if run_dir is None or module not in MODES:
        return []
    return get_module(module).values_table(run_dir)


class ResultView(QWidget):
    """objectName ``resultView``; children ``resultTable``, ``checksTable``, ``errorLabel``,
    ``runDirLink``, ``propertyValuesTable`` (values a Property run defined, before/after),
    ``auditTable`` with ``highlightButton`` (what an audit found) and ``scriptOutputView``."""

    highlightRequested = Signal(list)  # noqa: N815 (Qt naming): element labels to highlight

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("resultView")
        self.run_dir: Path | None = None
        self.units: UnitSystem | None = None  # the model's, or the one chosen in Settings
        self._findings: list[Finding] = []
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.error_label = wrap_in_width(QLabel())  # a long message never widens the dock
        self.error_label.setObjectName("errorLabel")
        self.error_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.headline = wrap_in_width(QLabel())  # what the view shows, when not a run's result
        self.headline.setObjectName("resultHeadline")
        self.table = QTableWidget(len(ROW_KEYS), 2)
        self.table.setObjectName("resultTable")
        self.checks = QTableWidget(0, 4)
        self.checks.setObjectName("checksTable")
        self.link = QLabel()
        self.link.setObjectName("runDirLink")
        self.link.setTextFormat(Qt.TextFormat.RichText)
        self.link.linkActivated.connect(self.open_run_dir)
        self.link_note = wrap_in_width(QLabel())
        self.link_note.setObjectName("runDirNote")
        self.link_note.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.values = QTableWidget(0, 3)
        self.values.setObjectName("propertyValuesTable")
        self.audit = QTableWidget(0, 2)
        self.audit.setObjectName("auditTable")
        self.audit.setSelectionBehavior(QTableWidget.SelectionBehavior.SelectRows)
        self.highlight_button = QPushButton(tr("Highlight these elements in the viewport"))
        self.highlight_button.setObjectName("highlightButton")
        self.highlight_button.clicked.connect(self._on_highlight)
        self.audit.itemSelectionChanged.connect(self._update_highlight)
        self.output = QPlainTextEdit()
        self.output.setObjectName("scriptOutputView")
        self.output.setReadOnly(True)
        self.output.setMaximumHeight(90)
        self.output_title = self._output_header()
        self.printed = ""  # the script's output as printed (the view shows it in words)
        self.lines: list[ScriptLine] | None = None  # the same, as data
        # the link first: in a short dock the tables scroll, the run directory stays in sight
        for widget in (self.error_label, self.headline, self.link, self.link_note, self.table,
                       self.checks,
                       self.values, self.audit, self.highlight_button, self.output_title,
                       self.output):
            layout.addWidget(widget)
        layout.addStretch(1)  # packed at the top; the spare room stays below
        for table in (self.values, self.audit):
            table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
            table.verticalHeader().hide()
            table.verticalHeader().setDefaultSectionSize(ROW_HEIGHT)
            table.setWordWrap(True)
            table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
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
        # a check's name wraps rather than being cut off; its values are short words
        self.checks.setWordWrap(True)
        self.checks.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.checks.verticalHeader().hide()
        # several checks stay in sight; in a short dock the result scrolls instead
        self.checks.setMinimumHeight(ROW_HEIGHT * 5 + 28)
        self.retranslate()
        self.clear()

    def retranslate(self) -> None:
        self.table.setHorizontalHeaderLabels([tr("Before"), tr("After")])
        self.table.setVerticalHeaderLabels([_row_title(r) for r in ROW_KEYS])
        self.checks.setHorizontalHeaderLabels([tr("Check"), tr("Expected"), tr("Actual"),
                                               tr("OK")])
        self.values.setHorizontalHeaderLabels([tr("Value"), tr("Before"), tr("After (read "
                                                                            "back)")])
        self.audit.setHorizontalHeaderLabels([tr("Audit finding"), tr("Value")])

    def clear(self) -> None:
        self.error_label.hide()
        self.error_label.clear()
        self.headline.hide()
        self.headline.clear()
        self.table.setHorizontalHeaderLabels([tr("Before"), tr("After")])
        for row in range(len(ROW_KEYS)):
            for column in range(2):
                self.table.setItem(row, column, QTableWidgetItem("—"))
        self._show_rows(COUNT_ROWS)
        self.checks.setRowCount(0)
        self.link.clear()
        self.link_note.clear()
        self.link_note.hide()
        self.run_dir = None
        self.set_tables_shown(False)
        self.values.setRowCount(0)
        self.audit.setRowCount(0)
        self._findings = []
        self.output.clear()
        for widget in (self.values, self.audit, self.highlight_button, self.output_title,
                       self.output):
            widget.hide()

    def set_tables_shown(self, shown: bool) -> None:
        """The tables only once there is a result: until then the spec needs the room."""
        self.table.setVisible(shown)
        self.checks.setVisible(shown)

    def has_result(self) -> bool:
        return not self.table.isHidden()

    def show_result(self, result: Any, run_dir: Path | None, back_in_review: bool = False,
                    plain: str | None = None, said: str = "") -> None:
        """``said``: what the status line already says (the error is not said twice)."""
        self.clear()
        self.set_tables_shown(True)
        self._fill_counts(result, run_dir)
        # a check that failed is what the analyst must see first
        self._fill_checks([check_row(c, self.units) for c in _ordered_checks(result)])
        if result.error is not None:
            usage = getattr(result, "provider", None)
            self.show_error(result.error.layer, result.error.message, back_in_review, plain,
                            part=getattr(result.error, "part", None), said=said,
                            replay=getattr(usage, "name", "") == "Replay",
                            failure=getattr(result.error, "provider", None),
                            phrase=getattr(result.error, "phrase", None))
        self.set_run_dir(run_dir)
        self._fill_values(values_set(result.module, run_dir))
        self._fill_audit(run_dir)
        self.show_output(_read_output(run_dir), read_lines(run_dir))

    def show_undo(self, outcome: UndoOutcome, run_dir: Path | None) -> None:
        """After an undo: the part as the run left it → as read back now, and each check of
        the readback against the part before the run (not the undone run's own checks)."""
        self.clear()
        self.set_tables_shown(True)
        self.headline.setText(breakable(undo_headline(outcome)))
        self.headline.show()
        self.table.setHorizontalHeaderLabels([tr("Before the undo"),
                                              tr("After the undo (read back)")])
        for key in COUNT_ROWS:
            self._set_row(key, _count(outcome.left_by_run, key), _count(outcome.read_back, key))
        self._show_rows(COUNT_ROWS)
        self._fill_checks(sorted(undo_checks(outcome), key=lambda row: row.ok))
        self.set_run_dir(run_dir)

    def _fill_checks(self, rows: list[CheckRow]) -> None:
        self.checks.setRowCount(len(rows))
        for index, row in enumerate(rows):
            ok = QTableWidgetItem("—" if not row.compared else tr("yes") if row.ok
                                  else tr("NO"))
            ok.setForeground(QColor("#1a7f37") if row.ok else QColor("#cf222e"))
            cells = (QTableWidgetItem(row.name), QTableWidgetItem(row.expected),
                     QTableWidgetItem(row.actual), ok)
            raw = (*row.raw, ok.text())
            for column, item in enumerate(cells):
                item.setToolTip(raw[column])  # the words shown, the raw value on hover
                self.checks.setItem(index, column, item)
        self._fit_checks()

    def _fit_checks(self) -> None:
        """Rows as tall as their wrapped names; the table shows up to twelve of them."""
        table = self.checks
        table.resizeRowsToContents()
        count = table.rowCount()
        heights = [max(ROW_HEIGHT, table.rowHeight(r)) for r in range(min(count, 12))]
        heights += [ROW_HEIGHT] * max(0, 5 - len(heights))  # room for five, at least
        header = table.horizontalHeader().sizeHint().height()
        # the rows, the header and the frame, and no more: a value with its unit may take a
        # second line, and the table still ends in sight in the demo window
        table.setFixedHeight(sum(heights) + header + 2 * table.frameWidth() + 2)

    def resizeEvent(self, event: Any) -> None:  # noqa: N802 (Qt override)
        super().resizeEvent(event)
        if self.checks.rowCount():
            self._fit_checks()  # names wrap anew at the new width

    def _fill_values(self, rows: list[ValueRow]) -> None:
        self.values.setRowCount(len(rows))
        for row, value in enumerate(rows):
            for column, text in enumerate((_with_unit(value, self.units), value.before,
                                           value.after)):
                self.values.setItem(row, column, QTableWidgetItem(text))
        self._fit_height(self.values, len(rows))
        self.values.setVisible(bool(rows))

    def _fill_audit(self, run_dir: Path | None) -> None:
        self._findings = audit_findings(run_dir)
        self.audit.setRowCount(len(self._findings))
        for row, finding in enumerate(self._findings):
            name = finding.name
            if self.units is not None and self.units.length and finding.length:
                name = f"{name} ({self.units.length})"
            for column, text in enumerate((name, finding.value)):
                item = QTableWidgetItem(text)
                item.setToolTip(finding.detail or text)
                if finding.elements and column == 0:
                    item.setForeground(QColor("#9a6700"))
                self.audit.setItem(row, column, item)
        self.audit.resizeRowsToContents()
        self._fit_height(self.audit, len(self._findings), rows_shown=8)
        self.audit.setVisible(bool(self._findings))
        self.highlight_button.setVisible(any(f.elements for f in self._findings))
        self._update_highlight()

    @staticmethod
    def _fit_height(table: QTableWidget, rows: int, rows_shown: int = 12) -> None:
        header = table.horizontalHeader().sizeHint().height()
        table.setFixedHeight(ROW_HEIGHT * max(1, min(rows, rows_shown)) + header + 6)

    def _selected_elements(self) -> list[int]:
        rows = {index.row() for index in self.audit.selectedIndexes()}
        chosen = [self._findings[r] for r in sorted(rows) if r < len(self._findings)]
        if not chosen:  # nothing selected: every finding that names elements
            chosen = [f for f in self._findings if f.elements]
        return sorted({label for finding in chosen for label in finding.elements})

    def _update_highlight(self) -> None:
        self.highlight_button.setEnabled(bool(self._selected_elements()))

    def _on_highlight(self) -> None:
        labels = self._selected_elements()
        if labels:
            self.highlightRequested.emit(labels)

    def _output_header(self) -> QWidget:
        """"Script output" and the button that shows it as printed."""
        header = QWidget()
        row = QHBoxLayout(header)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(QLabel(tr("Script output")), 1)
        self.output_raw_button = QToolButton()
        self.output_raw_button.setObjectName("outputRawButton")
        self.output_raw_button.setText(tr("As printed"))
        self.output_raw_button.setCheckable(True)
        self.output_raw_button.setToolTip(tr("Show what the script printed, word for word "
                                             "(script_output.txt)"))
        self.output_raw_button.toggled.connect(self._show_printed)
        row.addWidget(self.output_raw_button)
        return header

    def _show_printed(self, printed: bool) -> None:
        said = self.printed.rstrip() if printed or self.lines is None else \
            output_words(self.lines)
        self.output.setPlainText(said)

    def show_output(self, text: str, lines: list[ScriptLine] | None = None) -> None:
        """What the script printed, in words from ``lines`` (its prints as data; a run
        written before them: as printed); as printed: one click (``script_output.txt``)."""
        self.printed, self.lines = text, lines
        self.output_raw_button.setChecked(False)
        self._show_printed(False)
        shown = bool(text.strip())
        self.output.setVisible(shown)
        self.output_title.setVisible(shown)

    def audit_rows(self) -> list[tuple[str, str]]:
        return [(f.name, f.value) for f in self._findings]

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

    def show_error(self, layer: str, message: str, back_in_review: bool,
                   plain: str | None = None, part: str | None = None, said: str = "",
                   replay: bool = False, failure: ProviderFailure | None = None,
                   phrase: Phrase | None = None) -> None:
        """The message in words (``plain`` when the dock knows better words), the raw one in
        the tooltip and the run directory; then what to do. When ``said`` (the status line)
        already holds the whole message, only what to do is added here."""
        from sam_plugin.ui.plain_words import error_words

        words = plain or error_words(message, failure, phrase)
        action = error_action(layer, back_in_review, part, message=message, replay=replay,
                              failure=failure)
        text = tr("Error in {layer}: {message}").format(layer=layer_name(layer), message=words)
        if said and _one_line(words) in _one_line(said):
            text = ""
        self.error_label.setToolTip(message)
        self.error_label.setText(breakable(f"{text}\n{action}" if text else action))
        self.error_label.setStyleSheet("color: #cf222e;")
        self.error_label.show()

    def show_notice(self, text: str) -> None:
        """A warning above the result (kept until the next result is shown)."""
        self.error_label.setText(breakable(text))
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
        """Open the run directory in the file manager; without one, say where it is."""
        if self.run_dir is None:
            return False
        opened = QDesktopServices.openUrl(QUrl.fromLocalFile(str(self.run_dir)))
        if not opened:
            self.link_note.setText(breakable(tr(
                "No file manager could open the run directory; it is {path} (History → "
                "Details… shows its files here).").format(path=self.run_dir)))
            self.link_note.show()
        return bool(opened)

    def value_rows(self) -> list[tuple[str, str, str]]:
        return [tuple(self.values.item(r, c).text() for c in range(3))  # type: ignore[misc]  # 3 columns
                for r in range(self.values.rowCount())]

    def cell(self, row_key: str, column: str) -> str:
        """Text of a before/after cell, e.g. ``cell("QUAD", "after")`` (tests, automation)."""
        item = self.table.item(ROW_KEYS.index(row_key), 0 if column == "before" else 1)
        return item.text() if item else ""

    def check_rows(self) -> list[tuple[str, str, str, str]]:
        return [tuple(self.checks.item(r, c).text() for c in range(4))  # type: ignore[misc]  # 4 columns
                for r in range(self.checks.rowCount())]


OUTPUT_FILE = "script_output.txt"


def _one_line(text: str) -> str:
    """``text`` as the status line joins it (bullets and line breaks as " — ")."""
    parts = [line.strip().lstrip("- ").strip() for line in text.splitlines()]
    return " ".join(" — ".join(p for p in parts if p).split())


def _read_output(run_dir: Path | None) -> str:
    if run_dir is None:
        return ""
    try:
        return (Path(run_dir) / OUTPUT_FILE).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return ""
