"""The dock's ``undoButton`` and the host-capability notice (docs/architecture.md §5).

The button undoes the last verified run while the part still has that run's
after-fingerprint; otherwise it is disabled and its tooltip says why. The notice says at load
when the host lacks what snapshot and restore need (a failed run may then leave the part
partly changed, as ``result.json`` also says).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QLabel, QPushButton

from sam_plugin.ui.i18n import tr

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
        if result is not None and getattr(result, "status", "") in ("verified", "undone"):
            self.run_id = result.run_id
        if controller is None or self.run_id is None:
            self.disable(tr(NO_RUN))
            return
        reason = controller.undo_refusal(self.run_id)
        if reason is None:
            self.button.setEnabled(True)
            self.button.setToolTip(tr("Put the part back as it was before run {run_id}").format(
                run_id=self.run_id))
        else:
            self.disable(tr("Cannot undo run {run_id}: {reason}").format(
                run_id=self.run_id, reason=reason))

    def undo(self, controller: Any) -> tuple[Any, str]:
        """Undo the run; returns (result or None, the status text to show)."""
        from sam_plugin.runtime.store.undo import UndoRefused

        if controller is None or self.run_id is None:
            return None, tr(NO_RUN)
        try:
            result = controller.undo(self.run_id)
        except UndoRefused as refused:
            self.refresh(controller)
            return None, tr("Undo refused — {reason}").format(reason=str(refused))
        self.refresh(controller)
        return result, tr("Undone — the part is back as it was before run {run_id}").format(
            run_id=result.run_id)
