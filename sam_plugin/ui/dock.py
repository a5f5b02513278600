"""The SAM Agent dock: mode and target, the request, the streamed spec, Confirm/Cancel in
Review, true progress words, the verified result and the run history (docs/architecture.md §9).

The dock talks to the runtime through the controller's public API and its events (re-emitted
as a Qt signal by :class:`ControllerBridge`). Async work runs as tasks on the qasync loop that
the host adapter attached: network waits never block the GUI; the one script execution runs
inside ``confirm`` on the GUI thread, as SAM requires.
"""

from __future__ import annotations

import asyncio
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any, Generic, TypeVar, assert_never

from PySide6.QtCore import QEvent, Qt, QThread, QTimer, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDockWidget,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QTabWidget,
    QToolButton,
    QWidget,
)

from sam_plugin.compilers import registry
from sam_plugin.compilers.protocol import Target
from sam_plugin.runtime import event_types as ev
from sam_plugin.runtime.run.phases import Phase
from sam_plugin.ui.bridge import ControllerBridge
from sam_plugin.ui.dock_model import (
    DockController,
    collecting_expected,
    ended,
    panel,
    status_kind,
)
from sam_plugin.ui.dock_model.actions import ControllerFactory, RunActions
from sam_plugin.ui.dock_model.build import DockWidgets
from sam_plugin.ui.dock_model.past_runs import PastRuns
from sam_plugin.ui.dock_model.provider import ProviderSection
from sam_plugin.ui.dock_model.targets import TargetSection
from sam_plugin.ui.fitting import breakable
from sam_plugin.ui.history_view import HistoryPanel, HistoryView
from sam_plugin.ui.i18n import tr
from sam_plugin.ui.plan_preview import PlanPreview
from sam_plugin.ui.plan_view import PlanView
from sam_plugin.ui.result_view import ResultView
from sam_plugin.ui.selection_row import SelectionRow
from sam_plugin.ui.spec_editor import SpecEditor
from sam_plugin.ui.spec_extras import SpecExtras
from sam_plugin.ui.status_words import (
    event_words,
    phase_words,
    plan_words,
    waiting_words,
)
from sam_plugin.ui.undo_control import UndoControl
from sam_plugin.ui.viewport_link import ViewportLink

# (mode, title): the registry's modes, each with its module's English ``title``, read from
# its package's data so that the dock opens without importing every domain
MODES = tuple((mode, registry.mode_title(mode)) for mode in registry.MODES)


def reasoning_placeholder() -> str:
    """What ``specView`` says while only reasoning has arrived (translated when shown)."""
    return tr("The model is reasoning… (expand Reasoning to follow)")


# by dock_model.status_kind; the other kinds keep the label's own colour
STATUS_COLOURS = {"verified": "#1a7f37", "failed": "#cf222e", "review": "#9a6700",
                  "plan": "#9a6700", "cancelled": "#57606a"}

W = TypeVar("W")


class _Widget(Generic[W]):
    """A child widget of the dock, kept by its ``DockWidgets`` under the same name."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, dock: SamAgentDock, owner: type | None = None) -> W:
        widget: W = getattr(dock.widgets, self.name)
        return widget


class SamAgentDock(QDockWidget):
    """objectName ``samAgentDock``; see docs/architecture.md §9 for the child objectNames.

    The dock wires its sections (``dock_model/``): its widgets, the target, the provider, the
    run actions and the past runs; it keeps the run's phase, its events and the status line.
    """

    runFinished = Signal(object)  # noqa: N815 (Qt naming): the RunResult (or None)

    replay_banner = _Widget[QLabel]()
    font_notice = _Widget[QLabel]()
    provider_label = _Widget[QLabel]()
    settings_button = _Widget[QPushButton]()
    mode_combo = _Widget[QComboBox]()
    model_combo = _Widget[QComboBox]()
    part_combo = _Widget[QComboBox]()
    example_combo = _Widget[QComboBox]()
    unit_label = _Widget[QLabel]()
    example_label = _Widget[QLabel]()
    request_edit = _Widget[QPlainTextEdit]()
    selection_row = _Widget[SelectionRow]()
    explore_check = _Widget[QCheckBox]()
    submit_button = _Widget[QPushButton]()
    status_label = _Widget[QLabel]()
    undo = _Widget[UndoControl]()
    tabs = _Widget[QTabWidget]()
    history = _Widget[HistoryView]()
    history_panel = _Widget[HistoryPanel]()
    spec_title = _Widget[QLabel]()
    spec_view = _Widget[QPlainTextEdit]()
    spec_editor = _Widget[SpecEditor]()
    route_label = _Widget[QLabel]()
    spec_extras = _Widget[SpecExtras]()
    reasoning_toggle = _Widget[QToolButton]()
    reasoning_view = _Widget[QPlainTextEdit]()
    remark_edit = _Widget[QLineEdit]()
    revise_button = _Widget[QPushButton]()
    action_row = _Widget[QHBoxLayout]()
    confirm_button = _Widget[QPushButton]()
    cancel_button = _Widget[QPushButton]()
    result_view = _Widget[ResultView]()
    spec_pane = _Widget[QWidget]()
    run_splitter = _Widget[QSplitter]()
    plan_view = _Widget[PlanView]()
    plan_preview = _Widget[PlanPreview]()
    execute_button = _Widget[QPushButton]()

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
        self.settings_store = settings_store
        # the host's viewport: its pick and the plan drawn there (viewport_link.py)
        self.viewport_link = viewport if viewport is not None else ViewportLink(None)
        self.run_selection: Any = None  # the Selection the run was submitted with
        self._last_run: tuple[str, Target] | None = None  # mode and target of the last run
        self._observed: ev.ObservationCompleted | None = None  # the last observation
        self._waiting_for_words = False  # designing, and nothing streamed yet
        self.controller: DockController | None = None
        self.bridge = ControllerBridge(self)
        self.offthread_updates = 0  # widget updates attempted off the GUI thread (must stay 0)
        self._task: asyncio.Future[Any] | None = None
        self.progress: tuple[int, int] | None = None
        self._connections: list[tuple[Any, Any]] = []
        self.targets = TargetSection(self, highlight)
        self.provider = ProviderSection(self, provider_choice)
        self.run_actions = RunActions(self, controller_factory, open_settings, prewarm)
        self.past_runs = PastRuns(self)
        self.widgets = DockWidgets(self, MODES)
        self._wire()
        self.refresh_targets()
        self.history.refresh()
        self.show_panel(Phase.IDLE)
        self.set_status(phase_words("idle"))
        self.undo.show_capability(self.sam)
        self.refresh_provider()

    def _connect(self, signal: Any, slot: Any) -> None:
        signal.connect(slot)
        self._connections.append((signal, slot))

    def _wire(self) -> None:
        self._connect(self.submit_button.clicked, self.run_actions.on_submit_clicked)
        self._connect(self.confirm_button.clicked, self.run_actions.on_confirm_clicked)
        self._connect(self.cancel_button.clicked, self.run_actions.on_cancel_clicked)
        self._connect(self.revise_button.clicked, self.run_actions.on_revise_clicked)
        self._connect(self.spec_editor.editingChanged, self._on_editing_changed)
        self._connect(self.remark_edit.returnPressed, self.run_actions.on_revise_clicked)
        self._connect(self.execute_button.clicked, self.run_actions.on_execute_clicked)
        self._connect(self.settings_button.clicked, self.run_actions.on_settings_clicked)
        self._connect(self.undo.button.clicked, self.past_runs.on_undo_clicked)
        self._connect(self.mode_combo.currentIndexChanged, self.targets.on_target_changed)
        self._connect(self.model_combo.currentIndexChanged, self.targets.on_model_changed)
        self._connect(self.part_combo.currentTextChanged, self.targets.on_target_changed)
        self._connect(self.example_combo.activated, self.targets.on_example_chosen)
        self._connect(self.reasoning_toggle.toggled, self.widgets.on_reasoning_toggled)
        self._connect(self.explore_check.clicked, self.targets.on_explore_clicked)
        self._connect(self.bridge.eventReceived, self._on_event)
        self._connect(self.history_panel.runAgainRequested, self.past_runs.run_again)
        self._connect(self.history_panel.applyToPartsRequested, self.past_runs.apply_to_parts)
        self._connect(self.result_view.highlightRequested, self.targets.highlight_elements)
        self._connect(self.viewport_link.selectionChanged, self.targets.show_selection)
        # An event filter rather than a QShortcut: it works whether or not the host window is
        # the active window (SAM may keep focus in a floating dock).
        self.request_edit.installEventFilter(self)

    def resizeEvent(self, event: Any) -> None:  # noqa: N802 (Qt override)
        super().resizeEvent(event)
        QTimer.singleShot(0, self.widgets.fit_run_splitter)  # the room follows the phase, any size

    def eventFilter(self, watched: Any, event: Any) -> bool:  # noqa: N802 (Qt override)
        if (watched is self.request_edit and event.type() == QEvent.Type.KeyPress
                and event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter)
                and event.modifiers() & Qt.KeyboardModifier.ControlModifier):
            self.run_actions.on_submit_clicked()
            return True
        return super().eventFilter(watched, event)

    def set_status(self, text: str, kind: str | None = None) -> None:
        """``kind``: the colour's kind when not the run's (a view cleared of a failed run)."""
        self.check_thread()
        self.status_label.setText(breakable(text))
        result = self.controller.result if self.controller is not None else None
        kind = kind or status_kind(self.phase(), result)
        colour = STATUS_COLOURS.get(kind, "#24292f")
        self.status_label.setStyleSheet(f"font-weight: bold; color: {colour};")

    def check_thread(self) -> None:
        if QThread.currentThread() is not self.thread():
            self.offthread_updates += 1

    def phase(self) -> Phase:
        return self.controller.phase if self.controller is not None else Phase.IDLE

    def show_panel(self, phase: Phase) -> None:
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
        self.targets.lock_target(shown.target_locked)

    def _offer_edit(self, in_review: bool) -> None:
        """editSpecButton offers the spec in review (docs/ui.md "Editing the spec")."""
        spec = self.controller.spec if in_review and self.controller is not None else None
        vocabulary = registry.get_module(self.mode()).vocabulary if spec is not None else None
        self.spec_editor.offer(spec, vocabulary)

    def _on_editing_changed(self, editing: bool) -> None:
        """While the spec is edited, Ask for changes waits (it would drop the edit)."""
        answers = panel(self.phase()).answers.enabled
        for widget in (self.remark_edit, self.revise_button):
            widget.setEnabled(answers and not editing)
        self.spec_extras.json_button.setEnabled(not editing)  # the JSON is in the editor
        self.widgets.fit_run_splitter()

    def _on_event(self, event: ev.RunEvent) -> None:
        self.check_thread()
        match event:
            case ev.DesignDelta(text=text, reset=reset):
                self._model_writes()
                if reset:
                    self.spec_view.clear()
                self.spec_view.setPlaceholderText("")
                self.widgets.append(self.spec_view, text)
            case ev.ReasoningDelta(text=text):
                self._model_writes()
                self.reasoning_toggle.show()
                if not self.spec_view.toPlainText():
                    # a placeholder, never text: Review shows only what the model wrote as spec
                    self.spec_view.setPlaceholderText(reasoning_placeholder())
                self.widgets.append(self.reasoning_view, text)
            case ev.ObservationCompleted():
                self._observed = event
            case ev.CollectionProgress(collected=collected, expected=expected):
                self.progress = (collected, expected)
                self.set_status(phase_words("collecting", self.progress))
            case ev.PhaseChanged(phase=phase):
                self._on_phase(phase)
            case ev.ServerDetected():
                self.provider.show_server(event)
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
                words = event_words(event)
                if words:
                    self.set_status(words)
            case _:
                assert_never(event)

    def observed_nodes(self) -> int:
        """The nodes of the target part the run's observation counted (0 before one)."""
        return self._observed.node_count if self._observed is not None else 0

    def _model_writes(self) -> None:
        """The first word of the model's answer: the status says it is writing now."""
        if self._waiting_for_words:
            self._waiting_for_words = False
            self.set_status(phase_words("designing"))

    def _on_phase(self, name: str) -> None:
        phase = Phase(name)
        controller = self.controller
        if phase is Phase.COLLECTING and self.progress is None:
            self.progress = (0, collecting_expected(controller.route if controller else None))
        self._waiting_for_words = phase is Phase.DESIGNING
        plan = controller.plan if controller is not None else None
        if phase is Phase.PLAN and plan is not None:
            self.set_status(plan_words(plan))
        elif phase is Phase.DESIGNING:
            self.set_status(waiting_words())
        elif not ended(phase) and phase is not Phase.REVIEW:
            self.set_status(phase_words(phase, self.progress))

    @property
    def busy(self) -> bool:
        return self._task is not None and not self._task.done()

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

    # ------------------------------------------- the sections' calls others make on the dock
    def mode(self) -> str:
        return self.targets.mode()

    def target(self) -> Target:
        return self.targets.target()

    def set_target(self, mode: str, model_name: str, part_name: str) -> None:
        self.targets.set_target(mode, model_name, part_name)

    def refresh_targets(self) -> None:
        self.targets.refresh_targets()

    def set_examples(self, examples: list[dict[str, str]]) -> None:
        self.targets.set_examples(examples)

    def refresh_provider(self) -> None:
        self.provider.refresh_provider()

    def show_binding_problem(self, text: str) -> None:
        self.provider.show_binding_problem(text)

    def show_font_problem(self, text: str) -> None:
        self.provider.show_font_problem(text)

    def reset_controller(self) -> None:
        self.run_actions.reset_controller()

    def _ensure_controller(self) -> DockController:
        return self.run_actions._ensure_controller()

    def _finish_ui(self, result: Any, back_in_review: bool) -> None:
        self.run_actions.finish_ui(result, back_in_review)

    def apply_to_parts(self, run_id: str) -> Any:
        return self.past_runs.apply_to_parts(run_id)

    def undoer(self) -> Any:
        return self.past_runs.undoer()

    def give_room_to_question(self, asked: bool) -> None:
        self.past_runs.give_room_to_question(asked)

    def show_outside_run(self, result: Any, status: str) -> None:
        self.past_runs.show_outside_run(result, status)

    def show_outside_undo(self, outcome: Any, status: str) -> None:
        self.past_runs.show_outside_undo(outcome, status)

    def describe_error(self) -> str:
        return self.past_runs.describe_error()
