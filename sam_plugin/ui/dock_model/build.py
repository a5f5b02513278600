"""The dock's widgets: built once, with their objectNames (docs/architecture.md §9), and the
room the run view gives the spec and the result.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QTabWidget,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from sam_plugin.compilers.registry import mode_title
from sam_plugin.ui.fitting import vertical_scroll, wrap_in_width
from sam_plugin.ui.history_view import HistoryPanel, HistoryView
from sam_plugin.ui.i18n import tr
from sam_plugin.ui.plan_preview import PlanPreview
from sam_plugin.ui.plan_text import language
from sam_plugin.ui.plan_view import PlanView
from sam_plugin.ui.result_view import ResultView
from sam_plugin.ui.selection_row import SelectionRow
from sam_plugin.ui.spec_editor import SpecEditor
from sam_plugin.ui.spec_extras import SpecExtras
from sam_plugin.ui.undo_control import UndoControl

if TYPE_CHECKING:
    from sam_plugin.ui.dock import SamAgentDock

REPLAY_STYLE = "background:#fff4ce; color:#5c4400; padding:4px; border:1px solid #e0c060;"


class DockWidgets:
    """Every child widget of the dock; the dock lays them out in itself (``setWidget``)."""

    def __init__(self, dock: SamAgentDock, modes: tuple[tuple[str, str], ...]) -> None:
        self.dock = dock
        self.modes = modes
        self.build()

    def build(self) -> None:
        dock = self.dock
        body = QWidget()
        layout = QVBoxLayout(body)
        self.replay_banner = QLabel()
        self.replay_banner.setObjectName("replayBanner")
        self.replay_banner.setWordWrap(True)
        self.replay_banner.setStyleSheet(REPLAY_STYLE)
        self.replay_banner.hide()
        layout.addWidget(self.replay_banner)
        self.font_notice = wrap_in_width(QLabel())  # a language no installed font can draw
        self.font_notice.setObjectName("fontNotice")
        self.font_notice.setStyleSheet(REPLAY_STYLE)
        self.font_notice.hide()
        layout.addWidget(self.font_notice)
        top = QHBoxLayout()
        self.provider_label = QLabel()
        self.provider_label.setObjectName("providerLabel")
        self.provider_label.setWordWrap(True)
        self.settings_button = QPushButton(tr("Settings…"))
        self.settings_button.setObjectName("settingsButton")
        top.addWidget(self.provider_label, 1)
        top.addWidget(self.settings_button)
        layout.addLayout(top)

        form = QGridLayout()  # three rows, not four: a 640-pixel screen needs the room
        self.mode_combo = QComboBox()
        self.mode_combo.setObjectName("modeCombo")
        for value, _ in self.modes:  # each title in the dock's language, from its domain
            self.mode_combo.addItem(mode_title(value, language()), value)
        self.model_combo = QComboBox()
        self.model_combo.setObjectName("modelCombo")
        self.part_combo = QComboBox()
        self.part_combo.setObjectName("partCombo")
        self.part_combo.setEditable(True)
        self.part_combo.setToolTip(tr("Pick a part, or type a new name to build one"))
        self.example_combo = QComboBox()
        self.example_combo.setObjectName("exampleCombo")
        self.unit_label = QLabel()
        self.unit_label.setObjectName("unitLabel")
        form.addWidget(QLabel(tr("Mode")), 0, 0)
        form.addWidget(self.mode_combo, 0, 1)
        form.addWidget(QLabel(tr("Model")), 0, 2)
        form.addWidget(self.model_combo, 0, 3)
        form.addWidget(self.unit_label, 0, 4)
        form.addWidget(QLabel(tr("Part")), 1, 0)
        form.addWidget(self.part_combo, 1, 1, 1, 4)
        self.example_label = QLabel(tr("Examples"))
        form.addWidget(self.example_label, 2, 0)
        form.addWidget(self.example_combo, 2, 1, 1, 4)
        form.setColumnStretch(1, 1)
        form.setColumnStretch(3, 1)
        layout.addLayout(form)

        self.request_edit = QPlainTextEdit()
        self.request_edit.setObjectName("requestEdit")
        self.request_edit.setPlaceholderText(
            tr("Describe the change, e.g. build a 60 x 100 plate meshed 6 x 10 with QUAD "
               "elements (Ctrl+Enter submits)"))
        self.request_edit.setMaximumHeight(60)
        layout.addWidget(self.request_edit)
        self.selection_row = SelectionRow()  # selectionLabel, selectionCheck
        layout.addWidget(self.selection_row)
        self.explore_check = QCheckBox(tr("Explore the part first (read-only questions)"))
        self.explore_check.setObjectName("exploreCheck")
        self.explore_check.setToolTip(tr(
            "Before writing the spec, the model may ask read-only questions about regions and "
            "entities of the part. On by default for large parts."))

        row = QHBoxLayout()
        self.submit_button = QPushButton(tr("Submit"))
        self.submit_button.setObjectName("submitButton")
        row.addWidget(self.submit_button)
        row.addWidget(self.explore_check, 1)
        layout.addLayout(row)

        self.status_label = wrap_in_width(QLabel())  # a long error never widens the dock
        self.status_label.setObjectName("statusLabel")
        self.status_label.setStyleSheet("font-weight: bold;")
        layout.addWidget(self.status_label)
        self.undo = UndoControl()  # undoButton (in the run tab) and restoreNotice
        layout.addWidget(self.undo.notice)

        self.tabs = QTabWidget()
        self.tabs.setObjectName("dockTabs")
        self.tabs.addTab(self._build_run_tab(), tr("Run"))
        self.history = HistoryView(dock.runs_dir)
        self.history_panel = HistoryPanel(self.history)
        self.tabs.addTab(self.history_panel, tr("History"))
        layout.addWidget(self.tabs, 1)
        # the dock scrolls rather than growing the host window past a small screen
        dock.setWidget(vertical_scroll(body, "dockScroll"))
        dock.setMinimumWidth(420)

    def _build_run_tab(self) -> QWidget:
        dock = self.dock
        spec_pane = QWidget()
        layout = QVBoxLayout(spec_pane)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(3)
        self.spec_title = QLabel(tr("Spec (proposed by the model; nothing runs until you "
                                    "confirm)"))
        layout.addWidget(self.spec_title)
        self.spec_view = QPlainTextEdit()
        self.spec_view.setObjectName("specView")
        self.spec_view.setReadOnly(True)
        # after the run the result takes the room: the spec keeps three lines in sight
        self.spec_view.setMinimumHeight(self.spec_view.fontMetrics().lineSpacing() * 3 + 12)
        layout.addWidget(self.spec_view, 3)
        self.spec_editor = SpecEditor(self.spec_view)  # editSpecButton, specForm, specJsonEdit
        self.spec_editor.pick_source = dock.run_actions.pick_for_editor
        self.spec_editor.units_source = lambda: getattr(dock.controller, "units", None)
        layout.addWidget(self.spec_editor, 3)
        self.route_label = QLabel()
        self.route_label.setObjectName("routeLabel")
        self.route_label.setWordWrap(True)
        self.route_label.hide()
        self.spec_extras = SpecExtras(self.spec_view)  # the JSON one click away, the notes
        self.reasoning_toggle = QToolButton()
        self.reasoning_toggle.setObjectName("reasoningToggle")
        self.reasoning_toggle.setCheckable(True)
        self.reasoning_toggle.setText(tr("Reasoning"))
        self.reasoning_toggle.setArrowType(Qt.ArrowType.RightArrow)
        self.reasoning_toggle.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.reasoning_toggle.hide()
        self.reasoning_view = QPlainTextEdit()
        self.reasoning_view.setObjectName("reasoningView")
        self.reasoning_view.setReadOnly(True)
        self.reasoning_view.hide()  # collapsed apart from the spec until asked for
        under_spec = QHBoxLayout()  # one row: the reasoning toggle and the operations in words
        under_spec.addWidget(self.reasoning_toggle)
        under_spec.addWidget(self.route_label, 1)
        under_spec.addWidget(self.spec_extras.json_button)
        under_spec.addWidget(self.spec_editor.edit_button)
        layout.addLayout(under_spec)
        layout.addWidget(self.spec_extras.notes)
        layout.addWidget(self.reasoning_view, 1)
        remark_row = QHBoxLayout()
        self.remark_edit = QLineEdit()
        self.remark_edit.setObjectName("remarkEdit")
        self.remark_edit.setPlaceholderText(tr("What should change in the spec?"))
        self.revise_button = QPushButton(tr("Ask for changes"))
        self.revise_button.setObjectName("reviseButton")
        self.revise_button.setToolTip(tr("The model rewrites the spec with your remark; nothing "
                                         "runs until you confirm"))
        remark_row.addWidget(self.remark_edit, 1)
        remark_row.addWidget(self.revise_button)
        layout.addLayout(remark_row)
        self._build_plan_widgets(layout)
        # the answers to a spec, the plan's Execute and Undo: one row under the scrolling
        # run view, so no plan or result can push them out of sight
        self.action_row = QHBoxLayout()
        self.confirm_button = QPushButton(tr("Confirm"))
        self.confirm_button.setObjectName("confirmButton")
        self.cancel_button = QPushButton(tr("Cancel"))
        self.cancel_button.setObjectName("cancelButton")
        self.action_row.addWidget(self.confirm_button)
        self.action_row.addWidget(self.execute_button)
        self.action_row.addWidget(self.cancel_button)
        self.action_row.addStretch(1)
        self.action_row.addWidget(self.undo.button)
        self.result_view = ResultView()
        self.spec_pane = spec_pane
        splitter = QSplitter(Qt.Orientation.Vertical)
        splitter.setObjectName("runSplitter")
        splitter.addWidget(spec_pane)
        # in a short dock the result scrolls instead of squeezing the counts table
        # (a QSplitter would keep a scroll area's 68-px minimum hint: 20 is set)
        result_scroll = vertical_scroll(self.result_view, "resultScroll", minimum_height=20)
        splitter.addWidget(result_scroll)
        self.run_splitter = splitter
        self._set_run_stretch()
        tab = QWidget()
        tab_layout = QVBoxLayout(tab)
        tab_layout.setContentsMargins(0, 0, 0, 0)
        tab_layout.addWidget(vertical_scroll(splitter, "runScroll"), 1)
        tab_layout.addLayout(self.action_row)
        return tab

    def _build_plan_widgets(self, layout: QVBoxLayout) -> None:
        """planView, its preview and executeButton (docs/architecture.md §9), hidden until a
        plan."""
        self.plan_view = PlanView()
        self.plan_preview = PlanPreview()
        layout.addWidget(self.plan_view, 3)
        layout.addWidget(self.plan_preview, 2)
        self.execute_button = QPushButton(tr("Execute"))
        self.execute_button.setObjectName("executeButton")
        self.execute_button.setEnabled(False)
        self.execute_button.hide()  # only while a plan waits: the room goes to the result

    def compact_spec(self, compact: bool) -> None:
        self.spec_view.setMaximumHeight(self.spec_view.minimumHeight() if compact else 16777215)
        self.spec_title.setVisible(not compact and not self.result_view.has_result())

    def _set_run_stretch(self) -> None:
        has_result = self.result_view.has_result()
        self.run_splitter.setStretchFactor(0, 2 if has_result else 1)
        self.run_splitter.setStretchFactor(1, 3 if has_result else 0)

    def fit_run_splitter(self) -> None:
        """While the spec is written and reviewed it gets the room (the result area keeps
        only the run-directory link); once there is a result, the result gets it, the spec
        its three lines."""
        self._set_run_stretch()
        total = sum(self.run_splitter.sizes())
        if total <= 0:
            return
        # the spec view steps aside while an MCP question is shown: its title with it
        self.spec_title.setVisible(not self.result_view.has_result() and
                                   not self.spec_view.isHidden())
        if self.result_view.has_result():
            # the result as tall as it needs (it scrolls beyond), the spec what is left,
            # never less than its three lines
            spec_min = self.spec_pane.minimumSizeHint().height()
            needed = self.result_view.sizeHint().height() + 8
            result_height = max(min(needed, total - spec_min), total // 2)
        else:
            result_height = min(self.result_view.sizeHint().height() + 4, total // 4)
            if self.result_view.error_label.isHidden():  # only the run-directory link
                result_height = self.result_view.link.sizeHint().height() + 6
        self.run_splitter.setSizes([total - result_height, result_height])

    def on_reasoning_toggled(self, shown: bool) -> None:
        self.reasoning_view.setVisible(shown)
        self.reasoning_toggle.setArrowType(
            Qt.ArrowType.DownArrow if shown else Qt.ArrowType.RightArrow)

    @staticmethod
    def append(view: QPlainTextEdit, text: str) -> None:
        if not text:
            return
        view.moveCursor(QTextCursor.MoveOperation.End)
        view.insertPlainText(text)
