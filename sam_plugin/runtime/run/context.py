"""What a step of a run is handed besides its state: the ports (host, provider calls,
composer, explorer), the settings and policy, the one scrubber, ``emit`` for this run's
events and the phase it is in (docs/architecture.md §1, §8).

Step modules import this, the state and the endings, never each other.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from sam_plugin.compilers.protocol import Fragment, Target
from sam_plugin.compilers.units import UnitSystem
from sam_plugin.runtime.config.policy import RunPolicy
from sam_plugin.runtime.config.settings import ProviderSettings
from sam_plugin.runtime.event_types import PhaseChanged
from sam_plugin.runtime.events import Emit
from sam_plugin.runtime.observe.observation import Observation
from sam_plugin.runtime.observe.regions import RegionIndexCache
from sam_plugin.runtime.ports import ChatModel, Host
from sam_plugin.runtime.provider.types import ChatResponse, RequestOptions
from sam_plugin.runtime.run.phases import Phase, check_transition
from sam_plugin.runtime.store.scrubber import Scrubber

_T = TypeVar("_T")

# (fragments, run id, target) -> (script text, its sha256, idempotency key)
Composer = Callable[[Sequence[Fragment], str, Target], tuple[str, str, str]]
# (host, observation) -> text for the design prompt; may be async. Reads only.
Explorer = Callable[[Any, Observation], Any]


class ProviderCalls(Protocol):
    """The provider, one call at a time, as the task Cancel can stop (``provider_call.py``)."""

    async def stream(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None,
                     *, spec: bool, sse: str, options: RequestOptions) -> ChatResponse:
        """One streamed call; its bytes go to the run file ``sse`` however it ends. ``spec``:
        the streamed content is the spec (``design_delta``); ``options``: its tool choice,
        response format and ``max_tokens`` (docs/architecture.md §6 "Requests")."""
        ...

    async def task(self, work: Callable[[ChatModel], Awaitable[_T]]) -> _T:
        """``work(provider)`` as the cancellable task; the provider is closed after it."""
        ...

    def honour_cancel(self) -> None:
        """Raise ``CancelledError`` when a cancel arrived while no call was open."""
        ...


class PhaseTracker:
    """The controller's phase and its label; each change is checked against the table
    (``phases.py``) and emitted as ``phase_changed`` while a run is bound."""

    def __init__(self) -> None:
        self.phase: Phase = Phase.IDLE
        self.label = "Idle"
        self._emit: Emit | None = None

    def bind(self, emit: Emit) -> None:
        self._emit = emit

    def set(self, phase: Phase, label: str) -> None:
        check_transition(self.phase, phase)
        self.phase = phase
        self.relabel(label)

    def relabel(self, label: str) -> None:
        self.label = label
        if self._emit is not None:
            self._emit(PhaseChanged(phase=str(self.phase), label=label))


@dataclass
class StepContext:
    """The ports and settings of one run's steps."""

    host: Host
    settings: ProviderSettings
    policy: RunPolicy
    language: str
    scrubber: Scrubber
    emit: Emit
    phases: PhaseTracker
    calls: ProviderCalls
    composer: Composer
    explorer: Explorer | None
    regions: RegionIndexCache
    units: UnitSystem | None = None  # the plan's words for people say these units
