"""What the steps of a run return (docs/architecture.md §1): the compiled calls, the plan
shown with its script, and the working record of designing, collecting and executing.

``RunState`` keeps each as one field, in the order of the phases: a step hands its result
to the next one through the controller rather than leaving it in a field of its own.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sam_plugin.compilers.evidence import Prediction, Readback
from sam_plugin.compilers.plan import Plan, PlanDetail
from sam_plugin.compilers.protocol import Fragment
from sam_plugin.compilers.spec.binding import BoundStep
from sam_plugin.compilers.spec.computed import ComputedCall
from sam_plugin.runtime.run.collection import CollectedCall
from sam_plugin.runtime.run.repair import RepairBudget
from sam_plugin.runtime.run.step_repair import StepRepair
from sam_plugin.words.phrase import Phrase


@dataclass
class Conversation:
    """Designing (``design.py``, ``design_parts.py``): what the model was sent and the
    analyst said, and for the design asked in parts its steps asked again (at most 2) and
    the requests it took."""

    messages: list[dict[str, Any]] = field(default_factory=list)
    remarks: list[str] = field(default_factory=list)  # Ask for changes: the analyst's words
    repairs: list[StepRepair] = field(default_factory=list)
    requests: int = 0
    # the request's places on the part (its line, its numbers): the part's nodes read once
    places: tuple[str, frozenset[float]] | None = None
    # the places that are regions, as (their words, the box's low and high corners)
    place_boxes: tuple[tuple[str, tuple[float, ...], tuple[float, ...]], ...] = ()


@dataclass
class Collection:
    """Collecting (``collect.py``): the calls, and the rounds that asked for them. A new
    confirm starts its rounds and repair budget again; the tool responses kept and the
    constraints the server broke count over the whole run."""

    calls: list[CollectedCall] = field(default_factory=list)
    computed: list[ComputedCall] = field(default_factory=list)  # with the steps they carry
    rounds: int = 0  # collection rounds sent, repair rounds included
    sse_count: int = 0  # tool responses kept (provider_tool_response[.N].sse)
    one_call: bool = False  # ask for one tool per round (profile, or the server needs it)
    repairs: RepairBudget = field(default_factory=lambda: RepairBudget(0))
    dropped: set[str] = field(default_factory=set)  # tools whose constraint the server broke


@dataclass(frozen=True)
class Compiled:
    """Compiling (``compile.compile_calls``): every call compiled in order, and the state
    the fragments predict."""

    fragments: list[Fragment]
    prediction: Prediction
    bound: list[tuple[int, BoundStep]]  # (call index, step)
    claims: list[Phrase]  # steps' counts the calls do not make
    normalized: list[dict[str, Any]]  # normalized_calls.json


@dataclass(frozen=True)
class ShownPlan:
    """Plan (``compile.show_plan``): the plan shown, the script it approves and what
    verification compares the readback with."""

    plan: Plan
    script: str
    key: str  # the idempotency key (journal)
    prediction: Prediction
    predicted: PlanDetail
    normalized: list[dict[str, Any]]  # what the script runs (normalized_calls.json)


@dataclass
class Execution:
    """Executing, Verifying, Restoring (``execute.py``): what became of the submission."""

    submissions: int = 0
    stopped_before_change: bool = False  # the script failed in its preflight or was refused
    restored: bool = False
    restore_unavailable: str | None = None
    restore_after: Readback | None = None  # the readback that proved (or disproved) a restore
