"""What the dock shows for where its run is: for each phase (and the result), which buttons
are enabled, visible and locked, and the kind of the status line (docs/architecture.md §9).

No Qt here: ``dock.py`` lays the widgets out, wires them and applies a ``Panel``; this module
decides what a ``Panel`` is, and is tested without a display. The dock reads the controller
only through ``DockController``, its public calls and views: never a private attribute, never
a phase by its string, never a message by its text.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, Protocol

from sam_plugin.compilers.plan import Plan
from sam_plugin.compilers.protocol import Route, Target
from sam_plugin.compilers.spec.ir import Spec
from sam_plugin.compilers.units import UnitSystem
from sam_plugin.runtime.events import Listener
from sam_plugin.runtime.run.phases import BUSY, STREAMING, TERMINAL, Phase
from sam_plugin.runtime.selection import Selection
from sam_plugin.runtime.store.run_store import RunResult

StatusKind = Literal["verified", "failed", "review", "plan", "cancelled", "working", "idle"]

# mode and target cannot change under a spec: from Review on they are locked
LOCKED: frozenset[Phase] = BUSY | {Phase.REVIEW, Phase.PLAN}
# the phases a Cancel acts on: an open stream, or a question waiting for the analyst
CANCELLABLE: frozenset[Phase] = STREAMING | {Phase.REVIEW, Phase.PLAN}


class DockController(Protocol):
    """The controller as the dock uses it (``runtime/run/controller.py:RunController``)."""

    units: UnitSystem | None  # the unit system its words for people say

    @property
    def phase(self) -> Phase: ...
    @property
    def run_id(self) -> str | None: ...
    @property
    def target(self) -> Target | None: ...
    @property
    def route(self) -> Route | None: ...
    @property
    def plan(self) -> Plan | None: ...
    @property
    def result(self) -> RunResult | None: ...
    @property
    def spec(self) -> Spec | None: ...
    @property
    def spec_changes(self) -> Sequence[Any]: ...
    @property
    def recovered_runs(self) -> Sequence[str]: ...

    def subscribe(self, listener: Listener) -> Callable[[], None]: ...
    async def submit(self, request: str, mode: str, target: Target, *,
                     explore: bool = False, selection: Selection | None = None) -> Phase: ...
    async def revise(self, remark: str) -> Phase: ...
    def edit_spec(self, spec: str | Spec | dict[str, Any]) -> Phase: ...
    async def confirm(self, mode: str, target: Target, *,
                      selection: Selection | None = None) -> RunResult | None: ...
    async def execute(self, mode: str | None = None, target: Target | None = None, *,
                      selection: Selection | None = None) -> RunResult: ...
    async def cancel(self) -> None: ...
    def invalidate(self, reason: str) -> None: ...
    def approval_requested(self, channel: str) -> None: ...


if TYPE_CHECKING:  # mypy proves that the controller is what the dock takes it for
    from sam_plugin.runtime.run.controller import RunController

    def _conforms(controller: RunController) -> DockController:
        return controller


@dataclass(frozen=True)
class Button:
    enabled: bool
    visible: bool = True


HIDDEN = Button(enabled=False, visible=False)


@dataclass(frozen=True)
class Panel:
    """The run tab's buttons for one phase."""

    submit: Button
    confirm: Button
    cancel: Button
    execute: Button
    answers: Button  # the remark row and Ask for changes: only while a spec waits
    target_locked: bool  # mode, model, part and the examples
    undo_waits: bool  # a run is open: undo waits until it ends
    submit_drops_spec: bool  # Submit in Review starts anew and drops the spec in review


_IDLE = Panel(submit=Button(True), confirm=HIDDEN, cancel=HIDDEN, execute=HIDDEN,
              answers=HIDDEN, target_locked=False, undo_waits=False, submit_drops_spec=False)
_WORKING = Panel(submit=Button(False), confirm=Button(False), cancel=Button(True),
                 execute=HIDDEN, answers=HIDDEN, target_locked=True, undo_waits=True,
                 submit_drops_spec=False)
_REVIEW = Panel(submit=Button(True), confirm=Button(True), cancel=Button(True), execute=HIDDEN,
                answers=Button(True), target_locked=True, undo_waits=True,
                submit_drops_spec=True)
_PLAN = Panel(submit=Button(False), confirm=Button(False), cancel=Button(True),
              execute=Button(True), answers=HIDDEN, target_locked=True, undo_waits=True,
              submit_drops_spec=False)


def panel(phase: Phase) -> Panel:
    """The buttons for ``phase``: the dock passes the phase its run is in, or the one an
    action it starts enters (Submit: Observing; Confirm: Collecting; Execute: Executing)."""
    if phase is Phase.REVIEW:
        return _REVIEW
    if phase is Phase.PLAN:
        return _PLAN
    if phase in BUSY:
        return _WORKING
    return _IDLE


def status_kind(phase: Phase, result: RunResult | None) -> StatusKind:
    """How the status line is coloured: ``verified`` only for a verified result."""
    if phase is Phase.COMPLETE:
        return "verified" if result is not None and result.status == "verified" else "idle"
    if phase is Phase.FAILED:
        return "failed"
    if phase is Phase.CANCELLED:
        return "cancelled"
    if phase is Phase.REVIEW:
        return "review"
    if phase is Phase.PLAN:
        return "plan"
    return "working" if phase in BUSY else "idle"


def locked(phase: Phase) -> bool:
    """A spec is open (Review, Plan) or a run works: no new run, mode and target stay."""
    return phase in LOCKED


def ended(phase: Phase) -> bool:
    return phase in TERMINAL


def cancellable(phase: Phase) -> bool:
    return phase in CANCELLABLE


def previous_spec_stands(phase: Phase, result: RunResult | None) -> bool:
    """After Ask for changes: back in Review with an error is a revision that failed, and the
    controller keeps the spec that stood before it (``RunController.revise``)."""
    return phase is Phase.REVIEW and result is not None and result.error is not None


def collecting_expected(route: Route | None) -> int:
    """How many calls Collecting waits for before the first ``collection_progress``."""
    return len(route.tools) if route is not None else 0
