"""The dock's buttons and status kinds by phase and result (ui/dock_model.py), without Qt."""

from __future__ import annotations

import subprocess
import sys

import pytest

from sam_plugin.runtime.run.phases import BUSY, TERMINAL, Phase
from sam_plugin.runtime.store.run_store import RunResult
from sam_plugin.ui import dock_model
from sam_plugin.ui.dock_model import HIDDEN, Button, panel, previous_spec_stands, status_kind


def _result(status: str, error: dict[str, str] | None = None) -> RunResult:
    return RunResult.model_validate({
        "run_id": "20261201T120000Z-abcdef", "status": status, "phase": "complete",
        "module": "part", "target": {"model_name": "Model-1", "part_name": "Plate"},
        "error": error})


def test_the_model_imports_no_qt():
    probe = ("import sys, sam_plugin.ui.dock_model; "
             "print(sorted(m for m in sys.modules if m.split('.')[0] in ('PySide6', "
             "'shiboken6', 'qasync')))")
    shown = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                           check=True)
    assert shown.stdout.strip() == "[]"


@pytest.mark.parametrize("phase", sorted({Phase.IDLE} | TERMINAL))
def test_without_a_run_only_submit_is_there(phase):
    shown = panel(phase)
    assert shown.submit == Button(True)
    assert shown.confirm == shown.cancel == shown.execute == shown.answers == HIDDEN
    assert not shown.target_locked and not shown.undo_waits and not shown.submit_drops_spec


@pytest.mark.parametrize("phase", sorted(BUSY))
def test_while_the_run_works_only_cancel_acts_and_the_target_is_locked(phase):
    shown = panel(phase)
    assert shown.cancel == Button(True) and shown.confirm == Button(False)
    assert not shown.submit.enabled and shown.execute == HIDDEN and shown.answers == HIDDEN
    assert shown.target_locked and shown.undo_waits


def test_review_answers_confirm_cancel_ask_for_changes_or_submit_anew():
    shown = panel(Phase.REVIEW)
    assert shown.submit == shown.confirm == shown.cancel == shown.answers == Button(True)
    assert shown.execute == HIDDEN
    assert shown.target_locked and shown.submit_drops_spec


def test_a_plan_waits_for_execute_or_cancel():
    shown = panel(Phase.PLAN)
    assert shown.execute == shown.cancel == Button(True)
    assert not shown.submit.enabled and not shown.confirm.enabled
    assert shown.answers == HIDDEN and shown.target_locked


def test_every_phase_has_a_panel_and_execute_shows_only_at_the_plan():
    for phase in Phase:
        assert panel(phase).execute.visible is (phase is Phase.PLAN)
        assert panel(phase).answers.visible is (phase is Phase.REVIEW)
        assert panel(phase).target_locked is dock_model.locked(phase)


def test_status_kind_says_verified_only_for_a_verified_result():
    assert status_kind(Phase.COMPLETE, _result("verified")) == "verified"
    assert status_kind(Phase.COMPLETE, None) == "idle"
    assert status_kind(Phase.COMPLETE, _result("unknown")) == "idle"
    assert status_kind(Phase.FAILED, _result("failed")) == "failed"
    assert status_kind(Phase.CANCELLED, None) == "cancelled"
    assert status_kind(Phase.REVIEW, None) == "review"
    assert status_kind(Phase.PLAN, None) == "plan"
    assert status_kind(Phase.COLLECTING, None) == "working"
    assert status_kind(Phase.IDLE, None) == "idle"


def test_a_failed_revision_back_in_review_keeps_the_previous_spec():
    failed = _result("rejected", {"layer": "provider", "message": "the revision failed, the "
                                  "previous spec stands: timeout"})
    assert previous_spec_stands(Phase.REVIEW, failed)
    # the words of the message do not matter: the phase and the error do
    assert previous_spec_stands(Phase.REVIEW, _result("rejected", {"layer": "design",
                                                                   "message": "x"}))
    assert not previous_spec_stands(Phase.REVIEW, None)
    assert not previous_spec_stands(Phase.FAILED, failed)


def test_cancel_acts_on_an_open_stream_or_a_waiting_question_only():
    assert dock_model.cancellable(Phase.DESIGNING) and dock_model.cancellable(Phase.PLAN)
    assert not dock_model.cancellable(Phase.EXECUTING)  # a submitted script runs to its end
    assert not dock_model.cancellable(Phase.COMPLETE)
