"""The dock's ``undoButton`` and the host-capability notice (docs/architecture.md §5).

The button undoes the last verified run while the part still has that run's
after-fingerprint, after asking with the run's request and start time; otherwise it is
disabled and its tooltip says why. The notice says at load
when the host lacks what snapshot and restore need (a failed run may then leave the part
partly changed, as ``result.json`` also says).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtWidgets import QLabel, QMessageBox, QPushButton, QWidget

from sam_plugin.runtime.store.undo import CHANGED_NOTHING
from sam_plugin.ui.i18n import tr
from sam_plugin.ui.undo_view import run_words, undo_outcome, undo_question, undo_status

NO_RUN = "No verified run to undo yet"


class UndoControl:
    """Owns ``undoButton`` and ``restoreNotice``; the dock calls ``refresh`` and ``undo``."""

    def __init__(self) -> None:
        self.button = QPushButton(tr("Undo last run"))
        self.button.setObjectName("undoButton")
        self.notice = QLabel()
        self.notice.setObjectName("restoreNotice")
        self.notice.setWordWrap(True)
        self.notice.setStyleSheet("color: #9a6700;")
        self.notice.hide()
        self.run_id: str | None = None
        self.disable(tr(NO_RUN))

    def show_capability(self, sam_module: Any) -> list[str]:
        """Say at load whether the host has what the snapshot needs; returns what it lacks."""
        from sam_plugin.runtime.host_gateway import HostGateway

        lacking = HostGateway(sam_module).restore_capability()
        if lacking:
            self.notice.setText(tr(
                "This SAM lacks {calls}: a failed run cannot be put back and may leave the "
                "part partly changed (the run says so), and runs cannot be undone.").format(
                    calls=", ".join(lacking)))
            self.notice.show()
        else:
            self.notice.hide()
        return lacking

    def disable(self, reason: str) -> None:
        self.button.setEnabled(False)
        self.button.setToolTip(reason)

    def refresh(self, controller: Any, result: Any = None) -> None:
        """Enable the button for the last verified run while its after-fingerprint holds."""
        if result is not None and getattr(result, "status", "") in ("verified", "undone") \
                and getattr(result, "undo_note", None) != CHANGED_NOTHING:
            self.run_id = result.run_id  # a run that changed nothing offers no undo
        if controller is None or self.run_id is None:
            self.disable(tr(NO_RUN))
            return
        reason = controller.undo_refusal(self.run_id)
        words = run_words(controller.runs_dir, self.run_id)
        if reason is None:
            self.button.setEnabled(True)
            self.button.setToolTip(tr("Put {target} back as it was before {run}").format(
                target=words.target, run=words.short()))
        else:
            self.disable(tr("Cannot undo run {run_id}: {reason}").format(
                run_id=self.run_id, reason=reason))

    def ask(self, parent: QWidget, controller: Any, on_yes: Callable[[], None]) -> QMessageBox:
        """Ask before undoing, naming the run in words (request, start time, target); the
        question is window-modal and does not block: ``on_yes`` runs when it is accepted."""
        assert self.run_id is not None
        return ask_undo(parent, controller.runs_dir, self.run_id, on_yes)

    def undo(self, controller: Any, sam_module: Any = None) -> tuple[Any, str, Any]:
        """Undo the run; returns (result or None, the status text, the UndoOutcome or None)."""
        from sam_plugin.runtime.store.undo import UndoRefused

        if controller is None or self.run_id is None:
            return None, tr(NO_RUN), None
        words = run_words(controller.runs_dir, self.run_id)
        left = _recorded(controller, self.run_id, None)
        try:
            result = controller.undo(self.run_id)
        except UndoRefused as refused:
            self.refresh(controller)
            return None, tr("Undo refused — {reason}").format(reason=str(refused)), None
        self.refresh(controller)
        outcome = undo_outcome(words, left, result, _part_exists(sam_module, result.target))
        return result, undo_status(outcome), outcome


def ask_undo(parent: QWidget, runs_dir: Any, run_id: str,
             on_yes: Callable[[], None]) -> QMessageBox:
    """The undo question (``undoConfirmDialog``), the dock's and the rerun dialog's: the run
    in words (request, start time, target) and what the part goes back to; window-modal, not
    blocking: ``on_yes`` runs when it is accepted."""
    from sam_plugin.runtime.store.run_store import RunDir

    words = run_words(runs_dir, run_id)
    try:
        recorded = RunDir(runs_dir, run_id).read_result()
    except (ValueError, OSError):
        recorded = None
    box = QMessageBox(QMessageBox.Icon.Question, tr("Undo a run"),
                      undo_question(words, recorded.before if recorded is not None else None),
                      QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel,
                      parent)
    box.setObjectName("undoConfirmDialog")
    box.button(QMessageBox.StandardButton.Yes).setText(tr("Undo the run"))
    box.setDefaultButton(QMessageBox.StandardButton.Cancel)  # Enter never undoes by itself
    box.setDetailedText(tr("run id {run_id}").format(run_id=run_id))
    box.accepted.connect(on_yes)
    box.finished.connect(box.deleteLater)
    box.open()
    return box


def _recorded(controller: Any, run_id: str, field: str | None) -> Any:
    """The run's ``result.json`` (or one of its fields) as recorded before the undo."""
    from sam_plugin.runtime.store.run_store import RunDir

    try:
        result = RunDir(controller.runs_dir, run_id).read_result()
    except (ValueError, OSError):
        return None
    return getattr(result, field) if field else result


def _part_exists(sam_module: Any, target: Any) -> bool:
    try:
        return target.part_name in sam_module.mdb.models[target.model_name].parts.keys()
    except (AttributeError, KeyError):
        return False
