"""The SAM Agent dock: mode and target, the request, the streamed spec, Confirm/Cancel in
Review, true progress words, the verified result and the run history (docs/architecture.md §9).

The dock talks to the runtime through the controller's public API and its events (re-emitted
as a Qt signal by :class:`ControllerBridge`). Async work runs as tasks on the qasync loop that
the host adapter attached: network waits never block the GUI; the one script execution runs
inside ``confirm`` on the GUI thread, as SAM requires.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import warnings
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any, assert_never

from PySide6.QtCore import QEvent, Qt, QThread, QTimer, Signal
from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDockWidget,
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

from sam_plugin.compilers import registry
from sam_plugin.compilers.protocol import Target
from sam_plugin.compilers.units import UnitSystem, declared_units, unit_system
from sam_plugin.runtime import event_types as ev
from sam_plugin.runtime.events import ControllerEvent
from sam_plugin.runtime.run.phases import Phase
from sam_plugin.ui.bridge import ControllerBridge
from sam_plugin.ui.dock_model import (
    DockController,
    cancellable,
    collecting_expected,
    ended,
    locked,
    panel,
    previous_spec_stands,
    status_kind,
)
from sam_plugin.ui.examples_picker import select_example
from sam_plugin.ui.fitting import breakable, vertical_scroll, wrap_in_width
from sam_plugin.ui.history_view import HistoryPanel, HistoryView, RunRequest
from sam_plugin.ui.i18n import tr
from sam_plugin.ui.local_model_words import local_model_note
from sam_plugin.ui.plain_words import (
    build_became_edit,
    existing_target_message,
    operations_text,
)
from sam_plugin.ui.plan_preview import PlanPreview
from sam_plugin.ui.plan_view import PlanView
from sam_plugin.ui.result_view import ResultView
from sam_plugin.ui.selection_row import SelectionRow, selection_words
from sam_plugin.ui.spec_editor import SpecEditor
from sam_plugin.ui.spec_extras import SpecExtras
from sam_plugin.ui.status_words import (
    event_words,
    final_words,
    layer_name,
    phase_words,
    plan_words,
    waiting_words,
)
from sam_plugin.ui.undo_control import UndoControl
from sam_plugin.ui.unit_words import units_words
from sam_plugin.ui.viewport_link import ViewportLink

log = logging.getLogger(__name__)
script_log = logging.getLogger("sam_plugin.script")  # what the composed script prints

# (mode, title): the registry's modes; a title is its module's ``title`` (Part, Property,
# Mesh), spelled here so that the dock opens without importing every domain
MODES = tuple((mode, mode.capitalize()) for mode in registry.MODES)
VIEWPORT_NAME = "Viewport: 1"
CANCEL_GRACE_S = 1.0  # Cancel closes the stream within a second

ControllerFactory = Callable[[], DockController]


def controller_target(controller: DockController | None) -> Target:
    target = controller.target if controller is not None else None
    return target if target is not None else Target(model_name="", part_name="")


def reasoning_placeholder() -> str:
    """What ``specView`` says while only reasoning has arrived (translated when shown)."""
    return tr("The model is reasoning… (expand Reasoning to follow)")


REPLAY_STYLE = "background:#fff4ce; color:#5c4400; padding:4px; border:1px solid #e0c060;"


def lock_tooltip() -> str:
    return tr("Locked: the spec was written for this mode and target. Cancel the run to "
              "change them.")


# by dock_model.status_kind; the other kinds keep the label's own colour
STATUS_COLOURS = {"verified": "#1a7f37", "failed": "#cf222e", "review": "#9a6700",
                  "plan": "#9a6700", "cancelled": "#57606a"}


class SamAgentDock(QDockWidget):
    """objectName ``samAgentDock``; see docs/architecture.md §9 for the child objectNames."""

    runFinished = Signal(object)  # noqa: N815 (Qt naming): the RunResult (or None)

    def __init__(
        self,
        *,
        sam_module: Any,
        controller_factory: ControllerFactory,
        runs_dir: Path,
        open_settings: Callable[[SamAgentDock], None] | None = None,
        prewarm: Any = None,
        provider_choice: Callable[[], Any] | None = None,
        settings_store: Any = None,
        highlight: Callable[[str, str, list[int]], int] | None = None,
        viewport: ViewportLink | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(tr("SAM Agent"), parent)
        self.setObjectName("samAgentDock")
        self.sam = sam_module
        self.runs_dir = Path(runs_dir)
        self._controller_factory = controller_factory
        self._open_settings = open_settings
        self._prewarm = prewarm
        self._provider_choice = provider_choice
        self.settings_store = settings_store
        self._highlight = highlight
        # the host's viewport: its pick and the plan drawn there (viewport_link.py)
        self.viewport_link = viewport if viewport is not None else ViewportLink(None)
        self._run_selection: Any = None  # the Selection the run was submitted with
        self._last_run: tuple[str, Target] | None = None  # mode and target of the last run
        self._observed: dict[str, Any] = {}  # the last observation_completed event's data
        self._run_provider: str | None = None  # providerLabel's text when the shown run began
        self._waiting_for_words = False  # designing, and nothing streamed yet
        self.controller: DockController | None = None
        self.bridge = ControllerBridge(self)
        self.offthread_updates = 0  # widget updates attempted off the GUI thread (must stay 0)
        self._task: asyncio.Future[Any] | None = None
        self._progress: tuple[int, int] | None = None
        self._reset_pending = False
        self._populating = False
        self._connections: list[tuple[Any, Any]] = []
        self._build()
        self._wire()
        self.refresh_targets()
        self.history.refresh()
        self._show_panel(Phase.IDLE)
        self.set_status(phase_words("idle"))
        self.undo.show_capability(self.sam)
        self.refresh_provider()

    # ------------------------------------------------------------------ build
    def _build(self) -> None:
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
        for value, title in MODES:
            self.mode_combo.addItem(tr(title), value)
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
        self._explore_chosen = False  # the analyst's own choice wins over the size default

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
        self.history = HistoryView(self.runs_dir)
        self.history_panel = HistoryPanel(self.history)
        self.tabs.addTab(self.history_panel, tr("History"))
        layout.addWidget(self.tabs, 1)
        # the dock scrolls rather than growing the host window past a small screen
        self.setWidget(vertical_scroll(body, "dockScroll"))
        self.setMinimumWidth(420)

    def _build_run_tab(self) -> QWidget:
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
        self.spec_editor.pick_source = self._pick_for_editor
        self.spec_editor.units_source = lambda: getattr(self.controller, "units", None)
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

    def _show_plan(self, controller: DockController) -> None:
        """The run waits at its plan: show it (and its preview), Execute or Cancel."""
        plan = controller.plan
        self.spec_extras.refresh_words(controller)
        if plan is not None and plan.warnings:  # said once: the plan's own, first in it
            self.spec_extras.notes.hide()
        self.plan_view.show_plan(plan)
        if plan is not None and plan.preview is not None:
            self.plan_preview.show_preview(self._live_part(), plan.preview)
            self.viewport_link.show_preview(self.target(), self.plan_preview.layers)
        self._compact_spec(True)  # the plan gets the room; the spec keeps three lines
        self._show_panel(Phase.PLAN)
        self.set_status(plan_words(plan))

    def _clear_plan(self) -> None:
        self.plan_view.clear_plan()
        self.plan_preview.clear_preview()
        self.viewport_link.clear_preview()
        self.execute_button.setEnabled(False)
        self.execute_button.hide()
        self._compact_spec(False)

    def _compact_spec(self, compact: bool) -> None:
        self.spec_view.setMaximumHeight(self.spec_view.minimumHeight() if compact else 16777215)
        self.spec_title.setVisible(not compact and not self.result_view.has_result())

    def _live_part(self) -> Any:
        target = self.target()
        try:
            return self.sam.mdb.models[target.model_name].parts[target.part_name]
        except (AttributeError, KeyError):
            return None

    def _set_run_stretch(self) -> None:
        has_result = self.result_view.has_result()
        self.run_splitter.setStretchFactor(0, 2 if has_result else 1)
        self.run_splitter.setStretchFactor(1, 3 if has_result else 0)

    def _fit_run_splitter(self) -> None:
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

    def _connect(self, signal: Any, slot: Any) -> None:
        signal.connect(slot)
        self._connections.append((signal, slot))

    def _wire(self) -> None:
        self._connect(self.submit_button.clicked, self._on_submit_clicked)
        self._connect(self.confirm_button.clicked, self._on_confirm_clicked)
        self._connect(self.cancel_button.clicked, self._on_cancel_clicked)
        self._connect(self.revise_button.clicked, self._on_revise_clicked)
        self._connect(self.spec_editor.editingChanged, self._on_editing_changed)
        self._connect(self.remark_edit.returnPressed, self._on_revise_clicked)
        self._connect(self.execute_button.clicked, self._on_execute_clicked)
        self._connect(self.settings_button.clicked, self._on_settings_clicked)
        self._connect(self.undo.button.clicked, self._on_undo_clicked)
        self._connect(self.mode_combo.currentIndexChanged, self._on_target_changed)
        self._connect(self.model_combo.currentIndexChanged, self._on_model_changed)
        self._connect(self.part_combo.currentTextChanged, self._on_target_changed)
        self._connect(self.example_combo.activated, self._on_example_chosen)
        self._connect(self.reasoning_toggle.toggled, self._on_reasoning_toggled)
        self._connect(self.explore_check.clicked, self._on_explore_clicked)
        self._connect(self.bridge.eventReceived, self._on_event)
        self._connect(self.history_panel.runAgainRequested, self.run_again)
        self._connect(self.history_panel.applyToPartsRequested, self.apply_to_parts)
        self._connect(self.result_view.highlightRequested, self.highlight_elements)
        self._connect(self.viewport_link.selectionChanged, self._show_selection)
        # An event filter rather than a QShortcut: it works whether or not the host window is
        # the active window (SAM may keep focus in a floating dock).
        self.request_edit.installEventFilter(self)

    def resizeEvent(self, event: Any) -> None:  # noqa: N802 (Qt override)
        super().resizeEvent(event)
        QTimer.singleShot(0, self._fit_run_splitter)  # the room follows the phase, any size

    def eventFilter(self, watched: Any, event: Any) -> bool:  # noqa: N802 (Qt override)
        if (watched is self.request_edit and event.type() == QEvent.Type.KeyPress
                and event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter)
                and event.modifiers() & Qt.KeyboardModifier.ControlModifier):
            self._on_submit_clicked()
            return True
        return super().eventFilter(watched, event)

    # --------------------------------------------------------------- targets
    def mode(self) -> str:
        return str(self.mode_combo.currentData())

    def target(self) -> Target:
        return Target(model_name=self.model_combo.currentText().strip(),
                      part_name=self.part_combo.currentText().strip())

    def refresh_targets(self) -> None:
        """Models and parts of the live database (L0), keeping the current choice if it exists."""
        self._populating = True
        try:
            mdb = self.sam.mdb
            current_model = self.model_combo.currentText()
            models = list(mdb.models.keys())
            self.model_combo.clear()
            self.model_combo.addItems(models)
            if current_model in models:
                self.model_combo.setCurrentText(current_model)
            self._fill_parts()
        finally:
            self._populating = False
        self._update_explore_default()
        self._update_unit()

    def _missing_part(self) -> str:
        """Property and Mesh change an existing part: a typed name that is not there is said
        at once, before a provider is asked for a spec that cannot compile."""
        from sam_plugin.compilers.registry import get_module
        from sam_plugin.runtime.run.target_check import parts_by_model, target_problem

        target = self.target()
        if not target.part_name:
            return ""
        try:
            problem = target_problem(parts_by_model(self.sam.mdb), target, get_module(self.mode()))
        except Exception:  # no database open: the controller's observation says so
            return ""
        if problem is None or problem.missing == "model":  # the observation names the models
            return ""
        return tr("Not submitted — there is no part {part} in {model}; {mode} mode changes an "
                  "existing part: pick one, or build it in Part mode first").format(
            part=target.part_name, model=target.model_name, mode=self.mode_combo.currentText())

    def _on_explore_clicked(self, checked: bool) -> None:
        self._explore_chosen = True

    def _update_explore_default(self) -> None:
        """Exploration defaults to on for parts above the size threshold."""
        from sam_plugin.runtime.observe.exploration import explore_by_default

        if self._explore_chosen:
            return
        target = self.target()
        models = self.sam.mdb.models
        part = None
        if target.model_name in models.keys():
            parts = models[target.model_name].parts
            if target.part_name in parts.keys():
                part = parts[target.part_name]
        large = part is not None and explore_by_default(len(part.nodes), len(part.elements))
        self.explore_check.setChecked(large)

    def _fill_parts(self) -> None:
        current_part = self.part_combo.currentText()
        model_name = self.model_combo.currentText()
        models = self.sam.mdb.models
        parts = list(models[model_name].parts.keys()) if model_name in models.keys() else []
        self.part_combo.clear()
        self.part_combo.addItems(parts)
        if current_part:
            self.part_combo.setCurrentText(current_part)

    def set_target(self, mode: str, model_name: str, part_name: str) -> None:
        """Select a mode and target as the user would (triggers the drift rule in Review)."""
        self.mode_combo.setCurrentIndex(self.mode_combo.findData(mode))
        self.model_combo.setCurrentText(model_name)
        self.part_combo.setCurrentText(part_name)

    def set_examples(self, examples: list[dict[str, str]]) -> None:
        """Bundled example requests ``{title, mode, model, part, request}`` for the picker."""
        self.example_combo.clear()
        self.example_combo.addItem(tr("(choose an example request)"), None)
        for example in examples:
            self.example_combo.addItem(example["title"], example)

    def _on_example_chosen(self, index: int) -> None:
        example = self.example_combo.itemData(index)
        if not example or locked(self._phase()):
            return
        self.set_target(example["mode"], example["model"], example["part"])
        self.request_edit.setPlainText(example["request"])
        self.clear_run_view()

    def _on_model_changed(self, index: int) -> None:
        if self._populating:
            return
        self._populating = True
        try:
            self._fill_parts()
        finally:
            self._populating = False
        self._on_target_changed()

    def _on_target_changed(self, *args: Any) -> None:
        if self._populating:
            return
        self._update_explore_default()
        self._update_unit()
        if not locked(self._phase()):
            self._display_target()
            self._show_selection()
        if self.controller is None:
            return
        if ended(self._phase()) and self._last_run != (self.mode(), self.target()):
            self.clear_run_view()  # what is shown belongs to another target
            return
        if self._phase() not in (Phase.REVIEW, Phase.PLAN):
            return
        target = self.target()
        reason = tr("the dock now shows {mode} {model}/{part}").format(
            mode=self.mode(), model=target.model_name, part=target.part_name)
        self.controller.invalidate(reason)
        self._finish_ui(self.controller.result, back_in_review=False)
        # No "Review" in this text: automation tells a failed run from one back in Review
        # by the words Failed / Review (docs/architecture.md §9).
        self.set_status(tr("Failed — the mode or target changed after the spec was written, so "
                           "it no longer applies; submit again ({reason})").format(reason=reason))

    # ---------------------------------------------------------------- status
    def set_status(self, text: str, kind: str | None = None) -> None:
        """``kind``: the colour's kind when not the run's (a view cleared of a failed run)."""
        self._check_thread()
        self.status_label.setText(breakable(text))
        result = self.controller.result if self.controller is not None else None
        kind = kind or status_kind(self._phase(), result)
        colour = STATUS_COLOURS.get(kind, "#24292f")
        self.status_label.setStyleSheet(f"font-weight: bold; color: {colour};")

    def show_replay_notice(self, text: str) -> None:
        self.replay_banner.setText(text)
        self.replay_banner.show()

    def _check_thread(self) -> None:
        if QThread.currentThread() is not self.thread():
            self.offthread_updates += 1

    def _phase(self) -> Phase:
        return self.controller.phase if self.controller is not None else Phase.IDLE

    def _show_panel(self, phase: Phase) -> None:
        """The buttons for ``phase`` (``dock_model.panel``): the run's phase, or the one the
        action being started enters."""
        shown = panel(phase)
        self._offer_edit(shown.answers.visible)
        for widget, button in ((self.submit_button, shown.submit),
                               (self.confirm_button, shown.confirm),
                               (self.cancel_button, shown.cancel),
                               (self.execute_button, shown.execute),
                               (self.remark_edit, shown.answers),
                               (self.revise_button, shown.answers)):
            widget.setEnabled(button.enabled)
            widget.setVisible(button.visible)
        # in Review the request may be edited and submitted anew (the spec is dropped)
        self.submit_button.setToolTip(tr("Submit the request anew: the spec in review is "
                                         "dropped, nothing was executed")
                                      if shown.submit_drops_spec else "")
        if shown.undo_waits:
            self.undo.disable(tr("A run is in progress; undo waits until it ends"))
        self._lock_target(shown.target_locked)

    def _offer_edit(self, in_review: bool) -> None:
        """editSpecButton offers the spec in review (docs/ui.md "Editing the spec")."""
        spec = self.controller.spec if in_review and self.controller is not None else None
        vocabulary = registry.get_module(self.mode()).vocabulary if spec is not None else None
        self.spec_editor.offer(spec, vocabulary)

    def _on_editing_changed(self, editing: bool) -> None:
        """While the spec is edited, Ask for changes waits (it would drop the edit)."""
        answers = panel(self._phase()).answers.enabled
        for widget in (self.remark_edit, self.revise_button):
            widget.setEnabled(answers and not editing)
        self.spec_extras.json_button.setEnabled(not editing)  # the JSON is in the editor
        self._fit_run_splitter()

    def _lock_target(self, lock: bool) -> None:
        """Mode and target cannot change under a spec: in Review and later they are locked."""
        tip = lock_tooltip() if lock else ""
        for combo in (self.mode_combo, self.model_combo, self.part_combo, self.example_combo):
            combo.setEnabled(not lock)
            combo.setToolTip(tip)
        self.selection_row.set_locked(lock)
        if not lock:
            self.part_combo.setToolTip(tr("Pick a part, or type a new name to build one"))

    def clear_run_view(self) -> None:
        """A new choice of example or target: nothing of the last run stays on screen."""
        self.spec_view.clear()
        self.spec_view.setPlaceholderText("")
        self.spec_extras.clear()
        self.reasoning_view.clear()
        self.reasoning_toggle.hide()
        self.route_label.clear()
        self.route_label.setToolTip("")
        self.route_label.hide()
        self._clear_plan()
        self.result_view.clear()
        self.remark_edit.clear()
        self.status_label.setToolTip("")
        self._run_provider = None
        self._fit_run_splitter()
        self.set_status(phase_words("idle"), kind="idle")  # the last run's colour goes too

    # -------------------------------------------------------------- provider
    def refresh_provider(self) -> None:
        """``providerLabel`` says who answers; the replay banner shows only for the replay."""
        choice, problem = None, ""
        if self._provider_choice is not None:
            try:
                choice = self._provider_choice()
            except ValueError as error:
                problem = str(error)
        if choice is None:
            text = tr("Answering: no provider ({problem}) — open Settings…").format(
                problem=problem or tr("not configured"))
            replay = False
        elif choice.is_replay:
            text = tr("Answering: Replay — recorded responses, not a live model")
            replay = True
        elif choice.reason == "nothing configured":  # a real host: no Replay unless chosen
            text = tr("Answering: no model configured — open Settings… (or set "
                      "SAM_AGENT_BASE_URL and SAM_AGENT_MODEL)")
            replay = False
        else:
            text = tr("Answering: {provider}").format(provider=choice.describe())
            text += local_model_note(choice)
            missing = choice.live.missing_fields() if choice.live is not None else []
            if missing:
                text += " " + tr("(incomplete: {fields})").format(fields=", ".join(missing))
            else:
                self._ask_server(choice)
            replay = False
        self.provider_label.setText(text)
        # the examples are the Replay's requests on the demo's sample workspace
        self.example_label.setVisible(replay)
        self.example_combo.setVisible(replay)
        if self._run_provider not in (None, text) and not locked(self._phase()):
            self.clear_run_view()  # what is shown was answered by another provider
        reason = self._provider_reason(choice)
        if replay:  # the label is the replay notice; how to go live is one hover away
            reason += "\n" + tr("The replay answers only the bundled example requests: pick "
                                "one under Examples, or choose a live provider (DeepSeek, "
                                "OpenAI, a local Ollama or vLLM URL) in Settings…")
        self.provider_label.setToolTip(reason)
        self.provider_label.setStyleSheet(REPLAY_STYLE if replay else "padding:2px;")

    def _ask_server(self, choice: Any) -> None:
        """Which server answers (probed once per URL, within 2 s): named in ``providerLabel``
        when it says; a run's ``server_detected`` names it too."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return  # no event loop yet: the first run's server_detected says it

        async def ask() -> None:
            from sam_plugin.runtime.provider.probe import detect

            detection = await detect(choice.live)
            self._show_detection(choice, detection)

        loop.create_task(ask())

    def _show_server(self, data: dict[str, Any]) -> None:
        from sam_plugin.runtime.provider.probe import Detection, ServerInfo

        choice = self._provider_choice() if self._provider_choice is not None else None
        server = data.get("server") or {}
        try:
            detection = Detection(
                server=ServerInfo(kind=server.get("kind", "unknown"),
                                  version=str(server.get("version", "")),
                                  note=str(data.get("note", ""))),
                profile=data.get("profile", "generic"),
                profile_from=data.get("profile_from", "setting"))
        except ValueError:
            return
        self._show_detection(choice, detection)

    def _show_detection(self, choice: Any, detection: Any) -> None:
        if choice is None or choice.is_replay or choice.live is None:
            return
        self.provider_label.setText(
            tr("Answering: {provider}").format(provider=choice.describe(detection))
            + local_model_note(choice))
        if detection.server.note:
            self.provider_label.setToolTip(detection.words())

    @staticmethod
    def _provider_reason(choice: Any) -> str:
        if choice is None:
            return ""
        reasons: dict[str, str] = {
            "--replay": tr("Chosen by --replay for this session; Settings… can change it"),
            "environment": tr("From your environment: {names}").format(
                names=", ".join(choice.env_names)),
            "saved": tr("Saved in Settings…"),
            "nothing configured": tr("No provider is configured: the bundled replay answers"),
        }
        return reasons.get(choice.reason, str(choice.reason))

    def show_binding_problem(self, text: str) -> None:
        self.show_replay_notice(text)

    def show_font_problem(self, text: str) -> None:
        self.font_notice.setText(text)
        self.font_notice.show()

    def _display_target(self) -> None:
        """The viewport shows the part the dock now targets (host API ``setValues``), or
        nothing for a new part, so it never keeps showing the previous run's part."""
        target = self.target()
        try:
            models = self.sam.mdb.models
            parts = models[target.model_name].parts if target.model_name in models.keys() \
                else {}
            # a part not built yet shows nothing rather than the part shown before
            part = parts[target.part_name] if target.part_name in parts.keys() else None
            viewport = self.sam.session.viewports[VIEWPORT_NAME]
            if getattr(viewport, "displayedObject", None) is not part:
                viewport.setValues(displayedObject=part)
        except (AttributeError, KeyError):  # a host without a session or viewport
            return

    def unit_system(self) -> tuple[UnitSystem, bool]:
        """(the target model's unit system, whether the model declares it); a model without
        one gets the units chosen in Settings (mm-N-t-s by default)."""
        models = self.sam.mdb.models
        name = self.model_combo.currentText()
        declared = declared_units(models[name] if name in models.keys() else None)
        if declared is not None:
            return declared, True
        saved = self.settings_store.load() if self.settings_store is not None else {}
        return unit_system(str(saved.get("length_unit") or "mm")), False

    def length_unit(self) -> tuple[str, bool]:
        units, declared = self.unit_system()
        return units.length, declared

    def _update_unit(self) -> None:
        units, declared = self.unit_system()
        self.unit_label.setText(tr("units: {unit}").format(unit=units.name))
        said = units_words(units)
        self.unit_label.setToolTip(tr("Units of the model: {units}").format(units=said)
                                   if declared else tr(
            "The model declares no units: {units}, the ones chosen in Settings…").format(
            units=said))
        self.result_view.units = units
        if self.controller is not None and not locked(self._phase()):
            self.controller.units = units

    def highlight_elements(self, labels: list[int]) -> int:
        """Ask the host to show these elements of the run's part highlighted."""
        target = controller_target(self.controller) if self.controller else self.target()
        if self._highlight is None:
            shown = ", ".join(str(label) for label in labels[:40])
            self.result_view.show_notice(tr("This host cannot highlight elements; their "
                                            "labels: {labels}").format(labels=shown))
            return 0
        try:
            return int(self._highlight(target.model_name, target.part_name, list(labels)))
        except Exception as error:  # a part renamed or deleted since the run
            self.result_view.show_notice(tr("Could not highlight: {error}").format(error=error))
            return 0

    # ---------------------------------------------------------------- events
    def _on_event(self, event: ControllerEvent) -> None:
        self._check_thread()
        typed = event.typed
        match typed:
            case ev.DesignDelta(text=text, reset=reset):
                self._model_writes()
                if reset:
                    self.spec_view.clear()
                self.spec_view.setPlaceholderText("")
                self._append(self.spec_view, text)
            case ev.ReasoningDelta(text=text):
                self._model_writes()
                self.reasoning_toggle.show()
                if not self.spec_view.toPlainText():
                    # a placeholder, never text: Review shows only what the model wrote as spec
                    self.spec_view.setPlaceholderText(reasoning_placeholder())
                self._append(self.reasoning_view, text)
            case ev.ObservationCompleted():
                self._observed = dict(event.data)
            case ev.CollectionProgress(collected=collected, expected=expected):
                self._progress = (collected, expected)
                self.set_status(phase_words("collecting", self._progress))
            case ev.PhaseChanged(phase=phase):
                self._on_phase(phase)
            case ev.ServerDetected():
                self._show_server(dict(event.data))
            case (ev.ProviderRetry() | ev.RepairRequested() | ev.ToolCallRejected()
                  | ev.ExecutionSubmitted() | ev.ExecutionCompleted() | ev.RunCancelled()
                  | ev.ExplorationStarted() | ev.ExplorationQuery() | ev.ExplorationTurn()
                  | ev.ExplorationCompleted() | ev.DesignReceived()
                  | ev.RevisionRequested() | ev.DesignConfirmed() | ev.ToolCallReconstructed()
                  | ev.ToolCallCollected() | ev.ConstraintDropped() | ev.ToolCallCompiled()
                  | ev.ScriptComposed() | ev.PlanShown() | ev.ApprovalRequested()
                  | ev.DecisionForged() | ev.PlanApproved() | ev.PlanDeclined() | ev.SnapshotTaken()
                  | ev.ReadbackVerified() | ev.RestoreCompleted() | ev.RestoreFailed()
                  | ev.RunUndone() | ev.ReturnedToReview() | ev.RunFailed()):
                words = event_words(typed)
                if words:
                    self.set_status(words)
            case _:
                assert_never(typed)

    def _model_writes(self) -> None:
        """The first word of the model's answer: the status says it is writing now."""
        if self._waiting_for_words:
            self._waiting_for_words = False
            self.set_status(phase_words("designing"))

    def _on_phase(self, name: str) -> None:
        phase = Phase(name)
        controller = self.controller
        if phase is Phase.COLLECTING and self._progress is None:
            self._progress = (0, collecting_expected(controller.route if controller else None))
        self._waiting_for_words = phase is Phase.DESIGNING
        plan = controller.plan if controller is not None else None
        if phase is Phase.PLAN and plan is not None:
            self.set_status(plan_words(plan))
        elif phase is Phase.DESIGNING:
            self.set_status(waiting_words())
        elif not ended(phase) and phase is not Phase.REVIEW:
            self.set_status(phase_words(phase, self._progress))

    def _on_reasoning_toggled(self, shown: bool) -> None:
        self.reasoning_view.setVisible(shown)
        self.reasoning_toggle.setArrowType(
            Qt.ArrowType.DownArrow if shown else Qt.ArrowType.RightArrow)

    @staticmethod
    def _append(view: QPlainTextEdit, text: str) -> None:
        if not text:
            return
        view.moveCursor(QTextCursor.MoveOperation.End)
        view.insertPlainText(text)

    # ------------------------------------------------------------- actions
    def _ensure_controller(self) -> DockController:
        if self.controller is None:
            self.controller = self._controller_factory()
            self.controller.units = self.unit_system()[0]  # the words for people say them
            self.bridge.attach(self.controller)
            # said once per run: only the runs this start found (History keeps them all)
            unknown = list(self.controller.recovered_runs)
            if unknown:  # a crash between submission and its outcome (invariant I8)
                self.result_view.show_notice(tr(
                    "{count} earlier run(s) were submitted to SAM but their outcome was never "
                    "recorded: re-observe the part before the next run (see History).").format(
                        count=len(unknown)))
        return self.controller

    def reset_controller(self) -> None:
        """Drop the controller (settings changed); the next submit builds a new one. During a
        run or a Review the change waits for the next submit."""
        if locked(self._phase()):
            self._reset_pending = True
            return
        self._reset_pending = False
        self.bridge.detach()
        self.controller = None

    def _start(self, coro: Coroutine[Any, Any, Any]) -> asyncio.Future[Any]:
        task = asyncio.ensure_future(coro)
        self._task = task
        task.add_done_callback(self._task_done)
        return task

    def _task_done(self, task: asyncio.Future[Any]) -> None:
        if task.cancelled():
            return
        error = task.exception()
        if error is not None:
            log.error("SAM Agent task failed", exc_info=error)
            self.set_status(tr("Failed — internal error: {error}").format(error=error))
            self._show_panel(Phase.IDLE)

    @property
    def busy(self) -> bool:
        return self._task is not None and not self._task.done()

    def _on_submit_clicked(self, *args: Any) -> None:
        if self.busy or self._phase() is Phase.PLAN:
            return
        self._start(self.submit())

    def run_again(self, request: RunRequest) -> bool:
        """History's Run again: a new run with the same request, mode and target."""
        if self.busy or locked(self._phase()):
            self.history_panel.note.setText(tr("A run is in progress or in review: finish or "
                                               "cancel it first."))
            return False
        self.set_target(request.mode, request.model_name, request.part_name)
        self.request_edit.setPlainText(request.request)
        self.tabs.setCurrentIndex(0)
        self._start(self.submit())
        return True

    def apply_to_parts(self, run_id: str) -> Any:
        """History's Apply to other parts…: the rerun dialog (ui/rerun_dialog.py)."""
        from sam_plugin.ui.rerun_dialog import open_rerun_dialog

        if self.busy or locked(self._phase()):
            self.history_panel.note.setText(tr("A run is in progress or in review: finish or "
                                               "cancel it first."))
            return None
        dialog = open_rerun_dialog(self, run_id)
        if dialog is not None:
            dialog.rerunFinished.connect(self._after_rerun)
            dialog.partUndone.connect(self._after_rerun)
        return dialog

    def _after_rerun(self, *args: Any) -> None:
        self.refresh_targets()
        QTimer.singleShot(0, self.history.refresh)

    def _on_revise_clicked(self, *args: Any) -> None:
        if self.busy or self._phase() is not Phase.REVIEW:
            return
        self._start(self.revise())

    def _on_confirm_clicked(self, *args: Any) -> None:
        if self.busy or self._phase() is not Phase.REVIEW:
            return
        self._start(self.confirm())

    def _on_execute_clicked(self, *args: Any) -> None:
        if self.busy or self._phase() is not Phase.PLAN:
            return
        self._start(self.execute())

    def _on_cancel_clicked(self, *args: Any) -> None:
        self._start_cancel()

    def _start_cancel(self) -> asyncio.Future[Any] | None:
        if self.controller is None:
            return None
        return asyncio.ensure_future(self.cancel())

    def _on_settings_clicked(self, *args: Any) -> None:
        if self._open_settings is not None:
            self._open_settings(self)

    async def submit(self) -> str:
        """Observing → Designing → Review (or Failed); the spec streams into ``specView``."""
        from sam_plugin.errors import SubmitRefused

        request = self.request_edit.toPlainText().strip()
        if not request:
            self.set_status(tr("Type a request first"))
            return "idle"
        missing = self._missing_part()
        if missing:
            self.set_status(missing)
            return "idle"
        if self.controller is not None and self._phase() is Phase.REVIEW:
            await self.controller.cancel()  # submit anew: the spec in review is dropped
        self.tabs.setCurrentIndex(0)  # the spec and the outcome are on the Run tab
        self._show_panel(Phase.OBSERVING)
        select_example(self.example_combo, self.mode(), self.target(), request)
        if self._prewarm is not None:
            await self._prewarm.wait()
        if self._reset_pending:
            self.reset_controller()
        self.spec_view.clear()
        self.spec_view.setPlaceholderText("")
        self.spec_extras.clear()
        self.reasoning_view.clear()
        self.reasoning_toggle.hide()
        self.reasoning_toggle.setChecked(False)
        self.route_label.clear()  # the last run's operations are not this request's
        self.route_label.setToolTip("")
        self.route_label.hide()
        self.result_view.clear()
        self._clear_plan()
        self._fit_run_splitter()
        self._progress = None
        try:
            controller = self._ensure_controller()
        except Exception as error:  # settings that do not validate, a missing module, ...
            self._show_panel(Phase.IDLE)
            self.set_status(tr("Not submitted — {error}").format(error=error))
            return "idle"
        self._show_panel(Phase.OBSERVING)
        picked = self._run_selection = self.selection_row.chosen()
        try:  # the selection keyword only with one: a controller without picking still works
            phase = await controller.submit(
                request, self.mode(), self.target(), explore=self.explore_check.isChecked(),
                **({"selection": picked} if picked is not None else {}))
        except SubmitRefused as refused:
            self._show_panel(Phase.IDLE)
            self.set_status(tr("Not submitted — {error}").format(error=refused))
            return "idle"
        self._last_run = (self.mode(), self.target())
        self._run_provider = self.provider_label.text()
        self.spec_view.setPlaceholderText("")
        if phase is Phase.REVIEW:
            self._show_spec(controller)
            self._show_panel(Phase.REVIEW)
            self.set_status(phase_words("review"))
            self.result_view.set_run_dir(self._run_dir())
        else:
            self._finish_ui(controller.result, back_in_review=False)
        return str(phase)

    def _show_spec(self, controller: DockController, *, revised: bool = False) -> None:
        """The spec in words (what is confirmed; its JSON one click away), the operations
        it routes to in words under it, and its warnings and changed fields."""
        self.spec_extras.show_spec(controller, revised=revised,
                                   notes=self._replay_ignores_pick(controller))
        self.spec_view.moveCursor(QTextCursor.MoveOperation.Start)  # read from the top
        route = controller.route
        words = operations_text(route)
        if build_became_edit(route):
            words += " — " + tr("{message} (this spec edits it)").format(
                message=existing_target_message(controller_target(controller).part_name,
                                                int(self._observed.get("node_count", 0))))
        self.route_label.setText(words)
        self.route_label.setToolTip(route.detail if route is not None else "")
        self.route_label.setVisible(bool(words))
        self._fit_run_splitter()

    def _plain_reason(self, result: Any) -> str | None:
        """Better words than the error's own for a known situation, or None."""
        error = result.error
        route = self.controller.route if self.controller is not None else None
        if error is not None and error.layer in ("tool_call", "compile") and \
                build_became_edit(route):
            return existing_target_message(controller_target(self.controller).part_name,
                                           int(self._observed.get("node_count", 0)))
        return None

    async def revise(self) -> str:
        """Ask for changes: the model rewrites the spec with the remark (no tools); the new
        spec replaces the one shown. A refused remark leaves the spec in review."""
        from sam_plugin.errors import RevisionRefused

        controller = self._ensure_controller()
        remark = self.remark_edit.text().strip()
        if not remark:
            self.set_status(tr("Type what should change in the spec, then Ask for changes"))
            return str(controller.phase)
        if self._answers_from_replay():
            self.set_status(tr("Replay cannot revise a spec: it answers with its recording, "
                               "unchanged. Confirm or Cancel, or choose a live model in "
                               "Settings to ask for changes"))
            return str(controller.phase)
        self._show_panel(Phase.DESIGNING)
        previous = self.spec_view.toPlainText()
        self.spec_view.clear()
        self.reasoning_view.clear()
        try:
            phase = await controller.revise(remark)
        except RevisionRefused as refused:
            self.spec_view.setPlainText(previous)
            self._show_panel(Phase.REVIEW)
            self.set_status(tr("Not sent — {error}").format(error=refused))
            return "review"
        if phase is not Phase.REVIEW:
            self._finish_ui(controller.result, back_in_review=False)
            return str(phase)
        self._show_spec(controller, revised=True)
        result = controller.result
        if previous_spec_stands(phase, result):
            self._finish_ui(result, back_in_review=True)
            return str(phase)
        self.remark_edit.clear()
        self.result_view.clear()
        self.result_view.set_run_dir(self._run_dir())
        self._fit_run_splitter()
        self._show_panel(Phase.REVIEW)
        if controller.spec_changes:
            self.set_status(tr("Review — the spec was revised with your remark ({count} "
                               "field(s) changed); Confirm, ask for more changes, or Cancel")
                            .format(count=len(controller.spec_changes)))
        else:
            self.set_status(tr("Review — the model answered with the same spec: nothing "
                               "changed; Confirm, ask again, or Cancel"))
        return str(phase)

    def _pick_for_editor(self) -> Any:
        """What is picked on the target part now, small enough for a scope (else None)."""
        picked = self.selection_row.selection
        return None if picked is None or picked.too_large else picked

    def _replay_ignores_pick(self, controller: DockController) -> list[str]:
        """The Replay answers with a recorded spec: when the analyst acts on a pick that no
        step's scope names, it says so (a live model is sent the pick)."""
        picked = self._run_selection
        spec = controller.spec
        if picked is None or spec is None or not self._answers_from_replay():
            return []
        if any(step.scope is not None and getattr(step.scope, "by", "") == "labels"
               and tuple(sorted(getattr(step.scope, "labels", ()))) == picked.labels
               for step in spec.steps):
            return []
        return [tr("Replay answered with the recorded example, which does not act on your "
                   "pick ({picked}): its steps' scopes are the recorded ones. Edit a step's "
                   "scope to act on the pick, or use a live model.").format(
                       picked=selection_words(picked))]

    def _answers_from_replay(self) -> bool:
        """Whether the recorded replay answers this dock (it cannot revise a spec)."""
        if self._provider_choice is None:
            return False
        try:
            return bool(getattr(self._provider_choice(), "is_replay", False))
        except ValueError:
            return False

    async def confirm(self) -> Any:
        """Collect → compile → execute once → verify; or back to Review, nothing executed."""
        controller = self._ensure_controller()
        adoption = self.spec_editor.adopt(controller)  # an edited spec is read first
        if adoption.refused:
            self.set_status(adoption.refused)
            return None
        if adoption.adopted:
            self._show_spec(controller, revised=bool(controller.spec_changes))
        self._progress = None
        self._show_panel(Phase.COLLECTING)
        output = _Tee()
        with contextlib.redirect_stdout(output):  # the script's prints go to the run view
            result = await controller.confirm(self.mode(), self.target(),
                                              **self._picked_now())
        output.flush()
        self._keep_output(output.text())
        if controller.phase is Phase.PLAN:
            controller.approval_requested("dock")
            self._show_plan(controller)
            return None
        return await self._after_run(controller, result)

    async def execute(self) -> Any:
        """The analyst approved the plan: the one submission, then verification."""
        controller = self._ensure_controller()
        self._show_panel(Phase.EXECUTING)
        output = _Tee()
        with contextlib.redirect_stdout(output):  # the script's prints go to the run view
            result = await controller.execute(self.mode(), self.target(),
                                              **self._picked_now())
        output.flush()
        self._keep_output(output.text())
        return await self._after_run(controller, result)

    async def _after_run(self, controller: DockController, result: Any) -> Any:
        back_in_review = controller.phase is Phase.REVIEW
        # Give Qt a turn between the controller's synchronous tail (compile → execute →
        # verify) and the result widgets, so the two never add up to one long stall.
        await asyncio.sleep(0)
        self._finish_ui(result, back_in_review=back_in_review)
        if result is not None and result.submissions:
            await asyncio.sleep(0)
            self.refresh_targets()
        return result

    async def cancel(self) -> None:
        """Close the stream within a second; a submitted script cannot be called back."""
        from sam_plugin.errors import ControllerStateError

        controller = self.controller
        if controller is None or not cancellable(controller.phase):
            return
        try:
            await asyncio.wait_for(controller.cancel(), timeout=CANCEL_GRACE_S)
        except ControllerStateError as refused:
            self.set_status(str(refused))
            return
        except TimeoutError:
            pass
        task = self._task
        if task is not None and not task.done():
            try:
                await asyncio.wait_for(asyncio.shield(task), timeout=CANCEL_GRACE_S)
            except (TimeoutError, asyncio.CancelledError):
                task.cancel()
        self._finish_ui(controller.result, back_in_review=False)

    def _show_selection(self, *args: Any) -> None:
        """The selection row follows what is picked on the target part."""
        self.selection_row.show_selection(self.viewport_link.selection_for(self.target()))

    def _picked_now(self) -> dict[str, Any]:
        """For a run submitted with a selection: what is picked now (the controller calls a
        difference drift); nothing for a run without one."""
        if self._run_selection is None:
            return {}
        return {"selection": self.viewport_link.selection_for(self.target())}

    def _keep_output(self, text: str) -> None:
        run_dir = self._run_dir()
        if text.strip() and run_dir is not None and run_dir.is_dir():
            (run_dir / "script_output.txt").write_text(text, encoding="utf-8")

    def _run_dir(self) -> Path | None:
        run_id = self.controller.run_id if self.controller is not None else None
        return self.runs_dir / run_id if run_id else None

    def _finish_ui(self, result: Any, back_in_review: bool) -> None:
        self._check_thread()
        self._clear_plan()  # the run left its plan (plan.json keeps it); the result gets the room
        self.spec_view.setPlaceholderText("")
        if result is not None:
            plain = self._plain_reason(result)
            status = final_words(result, back_in_review, plain=plain)
            self.result_view.show_result(result, self._run_dir(), back_in_review, plain=plain,
                                         said=status)
            self._fit_run_splitter()
            self.set_status(status)
            error = result.error
            self.status_label.setToolTip(error.message if error is not None else "")
        if back_in_review:
            self._show_panel(Phase.REVIEW)
        else:
            self._show_panel(Phase.IDLE)
            self.undo.refresh(self.controller, result)
        QTimer.singleShot(0, self.history.refresh)  # reads the runs directory: not in this turn
        self.runFinished.emit(result)

    def _on_undo_clicked(self, *args: Any) -> None:
        if self.busy or self.undo.run_id is None:
            return
        self.undo.ask(self, self.undoer(), self.undo_now)

    def undo_now(self) -> None:
        """The analyst confirmed the undo: put the part back, then show what was put back,
        read back and checked (docs/ui.md "Undo")."""
        if self.busy:
            return
        self.viewport_link.clear_preview()
        result, words, outcome = self.undo.undo(self.undoer(), self.sam)
        self.set_status(words)
        if result is not None:
            self.result_view.show_undo(outcome, self.runs_dir / result.run_id)
            self._fit_run_splitter()
            self.refresh_targets()
        QTimer.singleShot(0, self.history.refresh)

    # -------------------------------------------- runs the dock did not start (MCP)
    def undoer(self) -> Any:
        """Who undoes a run: the dock's controller, or before the analyst's first run (an MCP
        client's run shown) the runs directory's own undo (``run_undo.py``)."""
        if self.controller is not None:
            return self.controller
        from sam_plugin.runtime.host_gateway import HostGateway
        from sam_plugin.ui.run_undo import RunsUndo

        return RunsUndo(HostGateway(self.sam), self.runs_dir)

    def give_room_to_question(self, asked: bool) -> None:
        """While an MCP client's question is shown (``mcp_approver.py``) it has the run tab:
        the spec view steps aside and the result area keeps only its link."""
        self.spec_view.setVisible(not asked)
        self.spec_title.setVisible(not asked and not self.result_view.has_result())
        self._fit_run_splitter()

    def show_outside_run(self, result: Any, status: str) -> None:
        """A run an MCP client made: its result, checks, Undo and History entry as for the
        analyst's own run (docs/mcp.md "Inside SAM")."""
        self._clear_plan()
        self.result_view.show_result(result, self.runs_dir / result.run_id, said=status)
        self._fit_run_splitter()
        self.set_status(status)
        self.status_label.setToolTip(result.error.message if result.error is not None else "")
        self.undo.refresh(self.undoer(), result)
        if result.submissions:
            self.refresh_targets()
        QTimer.singleShot(0, self.history.refresh)

    def show_outside_undo(self, outcome: Any, status: str) -> None:
        """An MCP client's undo: what was put back, read back and checked, as after the
        analyst's own undo."""
        self.set_status(status)
        self.result_view.show_undo(outcome, self.runs_dir / outcome.run.run_id)
        self._fit_run_splitter()
        self.undo.refresh(self.undoer())
        self.refresh_targets()
        QTimer.singleShot(0, self.history.refresh)

    def describe_error(self) -> str:
        result = self.controller.result if self.controller is not None else None
        if result is None or result.error is None:
            return ""
        return f"{layer_name(result.error.layer)}: {result.error.message}"

    # -------------------------------------------------------------- shutdown
    def shutdown(self) -> None:
        """Stop running work and disconnect every signal (the adapter then deletes the dock)."""
        task = self._task
        if task is not None and not task.done():
            task.cancel()
        self._task = None
        self.bridge.detach()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # PySide warns on a gone connection
            for signal, slot in self._connections:
                try:
                    signal.disconnect(slot)
                except (RuntimeError, TypeError):  # already gone with its sender
                    pass
        self._connections.clear()
        self.viewport_link.detach()
        self.request_edit.removeEventFilter(self)


class _Tee(io.TextIOBase):
    """Keeps what the script prints (the run view shows it) and passes each line to the
    ``sam_plugin.script`` logger, never to the host's stdout: the host's logging decides
    where the script's output goes (docs/install.md "Where the plugin's output goes")."""

    def __init__(self) -> None:
        super().__init__()
        self._kept = io.StringIO()
        self._line = ""

    def write(self, text: str) -> int:
        self._kept.write(text)
        self._line += text
        *lines, self._line = self._line.split("\n")
        for line in lines:
            script_log.info("%s", line)
        return len(text)

    def flush(self) -> None:
        if self._line:
            script_log.info("%s", self._line)
            self._line = ""

    def text(self) -> str:
        return self._kept.getvalue()
