"""History → *Apply to other parts…* (``applyToPartsButton``): a verified run's calls on the
parts the analyst picks, with no model (docs/architecture.md §6 "rerun", §9).

The dialog (objectName ``rerunDialog``) says what will run, lists the model's other parts to
pick (``rerunPartsList``), and then drives ``runtime/rerun/session.py`` part by part: each
plan shown (``rerunPlanView``) and approved with ``rerunExecuteButton`` or declined with
``rerunSkipButton``; ``rerunApproveAllButton`` approves this plan and every later one without
warnings (a plan with warnings always waits). Each part's outcome is a row of
``rerunOutcomes``; ``rerunUndoButton`` undoes the selected part's run. Its controller has no
provider (``rerun_controller``).
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

import shiboken6
from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from sam_plugin.compilers.protocol import Target
from sam_plugin.runtime.rerun.expected import Restated
from sam_plugin.runtime.rerun.outcome import TargetOutcome
from sam_plugin.runtime.rerun.session import RerunSession, TargetPlan
from sam_plugin.runtime.rerun.source import RerunSource
from sam_plugin.ui.i18n import tr
from sam_plugin.ui.plain_words import tool_words
from sam_plugin.ui.plan_view import PlanView

log = logging.getLogger(__name__)
RUN_ID_ROLE = Qt.ItemDataRole.UserRole + 1


def outcome_words(outcome: str) -> str:
    return {"verified": tr("verified"), "restored": tr("failed and restored"),
            "failed": tr("failed, not restored"), "refused": tr("refused"),
            "skipped": tr("skipped"), "undone": tr("undone")}.get(outcome, outcome)


def source_words(source: RerunSource) -> str:
    """The dialog's first line: the run, its request and how many calls it repeats."""
    words = {"run_id": source.run_id, "model": source.target.model_name,
             "part": source.target.part_name, "request": source.request,
             "operations": tr(", ").join(tool_words(tool) for tool, _ in source.calls)}
    return tr("Run {run_id} on {model}/{part}: “{request}”. Its operations ({operations}) "
              "are planned again for each part you pick, each shown as a plan before it "
              "runs; no model is asked.").format(**words)


def expected_line(count: Restated, source_part: str, target_part: str) -> str:
    """One expected count of the source spec as this part's plan compares it."""
    noun = {"nodes": tr("nodes"), "elements": tr("elements")}.get(
        count.what, tr("{shape} elements").format(shape=count.what))
    names = {"source": source_part, "target": target_part, "count": count.source_count,
             "noun": noun}
    if count.why == "selected":
        return tr("The spec's {count} acted on counted what its scope picks on {source}: not "
                  "compared on {target}.").format(**names)
    if count.why == "no_before":
        return tr("The spec's {count} {noun} were counted on {source}, whose count before its "
                  "run was not kept: not compared on {target}.").format(**names)
    if count.why == "unchanged":
        return tr("The spec's {count} {noun} on {source} are its count before the run: on "
                  "{target} that is {now}.").format(**names, now=count.target_before)
    return tr("The spec's {count} {noun} on {source} ({before} before, {change}) are compared "
              "as a change on {target}: {now} before, {after} after these operations.").format(
        **names, before=count.source_before, change=f"{count.change:+d}",
        now=count.target_before, after=count.target_after or "?")


class RerunDialog(QDialog):
    """Pick parts, then approve each plan (or all); the outcome of each part in a row."""

    rerunFinished = Signal(object)  # noqa: N815 (Qt naming): the RerunSummary
    partUndone = Signal(str)  # noqa: N815 (Qt naming): the run id undone

    def __init__(self, source: RerunSource, parts: list[str], controller_factory: Callable[
            [], Any], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("rerunDialog")
        self.setWindowTitle(tr("Apply to other parts"))
        self.resize(720, 620)
        self.source = source
        self._controller_factory = controller_factory
        self.controller: Any = None
        self.session: RerunSession | None = None
        self.task: asyncio.Future[Any] | None = None
        self._waiting: asyncio.Future[bool | str] | None = None
        self._approve_all = False
        self._finished = False  # the rerun is over (its task ends a moment later)
        self._rows: dict[str, QTreeWidgetItem] = {}
        self._build(parts)
        # deleted with its parent (the plugin unloaded) while a plan waits: decline it and
        # skip the rest, from a plain object (this one is gone by then)
        self.destroyed.connect(functools.partial(_abandon, self._abandonment()))

    def _abandonment(self) -> list[Any]:
        """What ``_abandon`` needs once the dialog is gone: [the session, the waiting plan]."""
        self._left: list[Any] = [None, None]
        return self._left

    # ------------------------------------------------------------------ build
    def _build(self, parts: list[str]) -> None:
        layout = QVBoxLayout(self)
        source = self.source
        self.source_label = QLabel(source_words(source))
        self.source_label.setObjectName("rerunSourceLabel")
        self.source_label.setWordWrap(True)
        layout.addWidget(self.source_label)
        self.parts_list = QListWidget()
        self.parts_list.setObjectName("rerunPartsList")
        for name in parts:
            item = QListWidgetItem(name)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Unchecked)
            self.parts_list.addItem(item)
        self.parts_list.itemChanged.connect(self._update_buttons)
        layout.addWidget(QLabel(tr("Parts of {model} (in this order):").format(
            model=source.target.model_name)))
        layout.addWidget(self.parts_list, 1)
        self.stop_check = QCheckBox(tr("Stop at the first part that does not verify"))
        self.stop_check.setObjectName("rerunStopCheck")
        layout.addWidget(self.stop_check)
        self.expected_label = QLabel()
        self.expected_label.setObjectName("rerunExpectedLabel")
        self.expected_label.setWordWrap(True)
        self.expected_label.setStyleSheet("color: #57606a;")
        self.expected_label.hide()
        layout.addWidget(self.expected_label)
        self.plan_view = PlanView()
        self.plan_view.setObjectName("rerunPlanView")
        layout.addWidget(self.plan_view, 2)
        self.status_label = QLabel(tr("Pick the parts, then Start (a plan for each) or "
                                      "Approve all"))
        self.status_label.setObjectName("rerunStatusLabel")
        self.status_label.setWordWrap(True)
        layout.addWidget(self.status_label)
        self.outcomes = QTreeWidget()
        self.outcomes.setObjectName("rerunOutcomes")
        self.outcomes.setRootIsDecorated(False)
        self.outcomes.setHeaderLabels([tr("Part"), tr("Outcome"), tr("Run")])
        self.outcomes.itemSelectionChanged.connect(self._update_buttons)
        layout.addWidget(self.outcomes, 1)
        layout.addLayout(self._buttons())
        self._update_buttons()

    def _buttons(self) -> QHBoxLayout:
        row = QHBoxLayout()
        self.start_button = self._button(tr("Start"), "rerunStartButton", row,
                                         tr("A plan for each part, in order; each waits for "
                                            "Execute or Skip"))
        self.execute_button = self._button(tr("Execute"), "rerunExecuteButton", row,
                                           tr("Run this plan on this part"))
        self.skip_button = self._button(tr("Skip this part"), "rerunSkipButton", row,
                                        tr("Decline this plan: nothing runs on this part"))
        self.approve_all_button = self._button(
            tr("Approve all"), "rerunApproveAllButton", row,
            tr("Approve every plan without warnings, this one included; a plan with warnings "
               "still waits for you"))
        row.addStretch(1)
        self.undo_button = self._button(tr("Undo selected"), "rerunUndoButton", row,
                                        tr("Put the selected part back as it was before its "
                                           "run"))
        self.close_button = self._button(tr("Close"), "rerunCloseButton", row, "")
        self.start_button.clicked.connect(lambda: self.start(approve_all=False))
        self.execute_button.clicked.connect(lambda: self._answer(True))
        self.skip_button.clicked.connect(
            lambda: self._answer(tr("skipped by you; nothing was executed")))
        self.approve_all_button.clicked.connect(self._on_approve_all)
        self.undo_button.clicked.connect(self.undo_selected)
        self.close_button.clicked.connect(self.close)
        return row

    @staticmethod
    def _button(text: str, name: str, row: QHBoxLayout, tip: str) -> QPushButton:
        button = QPushButton(text)
        button.setObjectName(name)
        button.setToolTip(tip)
        row.addWidget(button)
        return button

    # ------------------------------------------------------------------ state
    @property
    def running(self) -> bool:
        return self.task is not None and not self.task.done() and not self._finished

    def checked_parts(self) -> list[str]:
        return [self.parts_list.item(i).text() for i in range(self.parts_list.count())
                if self.parts_list.item(i).checkState() == Qt.CheckState.Checked]

    def set_checked(self, names: list[str]) -> None:
        for i in range(self.parts_list.count()):
            item = self.parts_list.item(i)
            item.setCheckState(Qt.CheckState.Checked if item.text() in names
                               else Qt.CheckState.Unchecked)

    def _update_buttons(self, *args: Any) -> None:
        waiting = self._waiting is not None and not self._waiting.done()
        idle = not self.running
        self.start_button.setEnabled(idle and self.session is None
                                     and bool(self.checked_parts()))
        self.approve_all_button.setEnabled(waiting or self.start_button.isEnabled())
        self.execute_button.setEnabled(waiting)
        self.skip_button.setEnabled(waiting)
        self.parts_list.setEnabled(idle and self.session is None)
        self.stop_check.setEnabled(idle and self.session is None)
        self.undo_button.setEnabled(idle and self._selected_undoable() is not None)
        self.close_button.setEnabled(not self.running or waiting)

    def _selected_undoable(self) -> str | None:
        item = self.outcomes.currentItem()
        if item is None or self.controller is None:
            return None
        run_id = item.data(0, RUN_ID_ROLE)
        if not run_id or self.controller.undo_refusal(run_id) is not None:
            return None
        return str(run_id)

    # ------------------------------------------------------------------ run
    def start(self, *, approve_all: bool) -> asyncio.Future[Any] | None:
        """Begin with the checked parts, in list order."""
        parts = self.checked_parts()
        if self.running or self.session is not None or not parts:
            return None
        self._approve_all = approve_all
        self.controller = self._controller_factory()
        targets = [Target(model_name=self.source.target.model_name, part_name=p) for p in parts]
        self.session = RerunSession(self.controller, self.source, targets,
                                    stop_on_failure=self.stop_check.isChecked(),
                                    progress=self._progress)
        self._left[0] = self.session
        for target in targets:
            row = QTreeWidgetItem(self.outcomes, [target.part_name, tr("waiting"), ""])
            self._rows[target.part_name] = row
        self.task = asyncio.ensure_future(self._run())
        self._update_buttons()
        return self.task

    def _gone(self) -> bool:
        """The dialog was deleted with its parent (the plugin unloaded) while a part ran:
        the rerun ends without a widget to update."""
        if shiboken6.isValid(self.status_label):
            return False
        if self.session is not None:
            self.session.stop("the dialog was closed")
        return True

    async def _run(self) -> Any:
        assert self.session is not None
        try:
            summary = await self.session.run(self._approve)
        except Exception as error:  # a bug: say it, never leave the dialog busy
            log.exception("rerun failed")
            self._finished = True
            if not self._gone():
                self.status_label.setText(tr("Failed — internal error: {error}").format(
                    error=error))
                self._update_buttons()
            return None
        if self._gone():
            return summary
        self._finished = True
        self.plan_view.clear_plan()
        self.expected_label.hide()
        self.status_label.setText(tr("Done: {verified} of {total} part(s) verified").format(
            verified=summary.counts()["verified"], total=len(summary.targets)))
        self._select_undoable()
        self._update_buttons()
        self.rerunFinished.emit(summary)
        return summary

    async def _approve(self, waiting: TargetPlan) -> bool | str:
        if self._gone():
            return "the dialog was closed; nothing was executed"
        plan = waiting.plan
        self.plan_view.show_plan(plan)
        self._show_expected(waiting)
        part = waiting.target.part_name
        row = self._rows.get(part)
        if self._approve_all and not plan.warnings:
            self.status_label.setText(tr("{part} ({index} of {total}): approved with Approve "
                                         "all").format(part=part, index=waiting.index,
                                                       total=waiting.total))
            _say(row, tr("approved, running"))
            return True
        if self.session is not None:
            self.session.controller.approval_requested("dock")
        self.status_label.setText(tr("{part} ({index} of {total}): the plan waits — Execute or "
                                     "Skip this part").format(part=part, index=waiting.index,
                                                              total=waiting.total))
        _say(row, tr("plan waits for you"))
        self._waiting = self._left[1] = asyncio.get_running_loop().create_future()
        self._update_buttons()
        try:
            decision = await self._waiting
            if decision is True and not self._gone():
                _say(row, tr("approved, running"))
            return decision
        finally:
            self._waiting = None
            if not self._gone():
                self._update_buttons()

    def _show_expected(self, waiting: TargetPlan) -> None:
        """How this plan compares the source spec's expected counts (restated or left out)."""
        lines = [expected_line(count, *waiting.names) for count in waiting.expected]
        self.expected_label.setText("\n".join(lines))
        self.expected_label.setVisible(bool(lines))

    def _answer(self, decision: bool | str) -> None:
        if self._waiting is not None and not self._waiting.done():
            self._waiting.set_result(decision)

    def _on_approve_all(self) -> None:
        if self.session is None:
            self.start(approve_all=True)
            return
        self._approve_all = True
        self._answer(True)

    def _progress(self, index: int, target: Target, outcome: TargetOutcome | None) -> None:
        row = self._rows.get(target.part_name)
        if row is None or self._gone():
            return
        if outcome is None:
            row.setText(1, tr("planning"))
            self.status_label.setText(tr("{part} ({index} of {total}): observing and "
                                         "compiling").format(part=target.part_name, index=index,
                                                             total=len(self._rows)))
            return
        row.setText(1, outcome_words(outcome.outcome))
        row.setText(2, outcome.run_id or "")
        row.setData(0, RUN_ID_ROLE, outcome.run_id)
        for column in range(3):
            row.setToolTip(column, outcome.message)

    # ------------------------------------------------------------------ undo
    def _select_undoable(self) -> None:
        """Once done, the last part that can be undone is selected (Undo selected is ready)."""
        for index in reversed(range(self.outcomes.topLevelItemCount())):
            item = self.outcomes.topLevelItem(index)
            run_id = item.data(0, RUN_ID_ROLE)
            if run_id and self.controller is not None \
                    and self.controller.undo_refusal(run_id) is None:
                self.outcomes.setCurrentItem(item)
                return

    def undo_selected(self) -> Any:
        """Ask, as the dock's Undo does, then undo the selected part's run (each part is its
        own run); returns the question."""
        run_id = self._selected_undoable()
        if run_id is None or self.controller is None:
            return None
        from sam_plugin.ui.undo_control import ask_undo

        return ask_undo(self, self.controller.runs_dir, run_id,
                        functools.partial(self.undo_now, run_id))

    def undo_now(self, run_id: str) -> Any:
        """The analyst confirmed: undo ``run_id``, say so in its row."""
        from sam_plugin.errors import UndoRefused

        if self.running or self.controller is None:
            return None
        try:
            result = self.controller.undo(run_id)
        except UndoRefused as refused:
            self.status_label.setText(tr("Undo refused — {reason}").format(reason=str(refused)))
            return None
        for index in range(self.outcomes.topLevelItemCount()):
            item = self.outcomes.topLevelItem(index)
            if item.data(0, RUN_ID_ROLE) == run_id:
                item.setText(1, outcome_words("undone"))
        self.status_label.setText(tr("Undone — the part is back as it was before run "
                                     "{run_id}").format(run_id=run_id))
        self.partUndone.emit(run_id)
        self._update_buttons()
        return result

    # ------------------------------------------------------------------ close
    def dispose(self, *args: Any) -> None:
        """Deleted once closed and its rerun over (a closed dialog's run still ends)."""
        if self.task is not None and not self.task.done():
            self.task.add_done_callback(lambda _: self.deleteLater())
        else:
            self.deleteLater()

    def closeEvent(self, event: Any) -> None:  # noqa: N802 (Qt override)
        """A plan waiting is declined and the parts not begun are skipped; a part executing
        finishes first (SAM has no way back once a script runs)."""
        if self.running and (self._waiting is None or self._waiting.done()):
            event.ignore()
            return
        if self.session is not None:
            self.session.stop(tr("the dialog was closed"))
        self._answer(tr("the dialog was closed; nothing was executed"))
        super().closeEvent(event)


def _say(row: QTreeWidgetItem | None, outcome: str) -> None:
    """A part's Outcome cell while its run is under way."""
    if row is not None:
        row.setText(1, outcome)
        tree = row.treeWidget()
        if tree is not None:
            tree.resizeColumnToContents(1)  # the words whole, not "plan waits for…"


def _abandon(left: list[Any], *args: Any) -> None:
    session, waiting = left
    if session is not None:
        session.stop("the dialog was closed")
    if waiting is not None and not waiting.done():
        waiting.set_result("the dialog was closed; nothing was executed")


def open_rerun_dialog(dock: Any, run_id: str) -> RerunDialog | None:
    """The dialog for ``run_id`` over ``dock`` (its host, runs directory and run policy); None
    when the run cannot be rerun (``dock.history_panel.note`` says why)."""
    from sam_plugin.errors import RerunRefused
    from sam_plugin.runtime.host_gateway import HostGateway
    from sam_plugin.runtime.rerun.session import rerun_controller
    from sam_plugin.runtime.rerun.source import load_source

    runs_dir = Path(dock.runs_dir)
    try:
        source = load_source(runs_dir, run_id)
    except RerunRefused as refused:
        dock.history_panel.note.setText(str(refused))
        return None
    model = dock.sam.mdb.models[source.target.model_name] \
        if source.target.model_name in dock.sam.mdb.models.keys() else None
    if model is None:
        dock.history_panel.note.setText(tr("Model {model} of run {run_id} is not in this "
                                           "database.").format(model=source.target.model_name,
                                                               run_id=run_id))
        return None
    parts = [p for p in model.parts.keys() if p != source.target.part_name]
    store = getattr(dock, "settings_store", None)
    policy = store.policy() if store is not None else None
    language = getattr(getattr(dock, "controller", None), "language", "en")

    def controller() -> Any:
        return rerun_controller(runs_dir=runs_dir, host=HostGateway(dock.sam), policy=policy,
                                language=language)

    dialog = RerunDialog(source, parts, controller, dock)
    dialog.finished.connect(dialog.dispose)
    dialog.open()
    return dialog
