"""One run: what it was given (``RunInputs``, frozen at submit, I3) and what its phases fill
in (``RunState``), in the order of the phases (docs/architecture.md §1).

The step modules of ``runtime/run/`` share nothing but this state, the endings
(``endings.py``) and the ports they are handed (``context.py``); the controller's spec,
route, plan and result are read-only views of it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sam_plugin.compilers.evidence import Prediction, Readback
from sam_plugin.compilers.plan import Plan, PlanDetail
from sam_plugin.compilers.protocol import DomainModule, Route, Target
from sam_plugin.compilers.spec.binding import BoundStep
from sam_plugin.compilers.spec.computed import ComputedCall
from sam_plugin.compilers.spec.diff import FieldChange
from sam_plugin.compilers.spec.ir import Spec
from sam_plugin.runtime.observe.observation import Observation
from sam_plugin.runtime.observe.region_schema import RegionIndex
from sam_plugin.runtime.provider.probe import Detection
from sam_plugin.runtime.run.collection import CollectedCall
from sam_plugin.runtime.run.repair import RepairBudget
from sam_plugin.runtime.run.step_repair import StepRepair
from sam_plugin.runtime.selection import Selection
from sam_plugin.runtime.store.run_store import RunDir, RunResult, RunSource
from sam_plugin.runtime.store.usage import UsageMeter
from sam_plugin.words.phrase import Phrase


@dataclass(frozen=True)
class RunInputs:
    """What a run was started with; never changes (I3: mode and target frozen at submit)."""

    run_id: str
    request: str
    mode: str
    target: Target
    module: DomainModule
    dir: RunDir
    source: RunSource = "dock"
    source_run: str | None = None  # the run a rerun repeats
    selection: Selection | None = None  # what was picked in the viewport, when acted on


@dataclass
class RunState:
    """What the phases of one run fill in, phase by phase."""

    inputs: RunInputs
    usage: UsageMeter | None = None
    detection: Detection | None = None  # the server and the profile (provider/probe.py)
    # Observing, Exploring
    observation: Observation | None = None
    before: Readback | None = None  # re-read at each drift check
    regions: RegionIndex | None = None
    exploration: str = ""
    # Designing, Review
    design_messages: list[dict[str, Any]] = field(default_factory=list)
    remarks: list[str] = field(default_factory=list)  # Ask for changes: the analyst's words
    spec: str = ""  # the spec in words (its rendering): shown, confirmed, design.txt
    spec_ir: Spec | None = None  # the same spec as data: spec.json, what calls are bound to
    review_warnings: list[str] = field(default_factory=list)  # where it disagrees, now
    unsourced: list[str] = field(default_factory=list)  # numbers its writer was not shown
    spec_changes: list[FieldChange] = field(default_factory=list)  # the last revision's
    spec_versions: int = 0  # versions of the spec written so far (Ask for changes adds one)
    # the design asked in parts: its steps asked again (at most 2) and the requests it took
    design_repairs: list[StepRepair] = field(default_factory=list)
    design_requests: int = 0
    route: Route | None = None
    invalidated: str | None = None  # the dock's mode or target changed meanwhile
    # Collecting (or computing the calls from the steps)
    collected: list[CollectedCall] = field(default_factory=list)
    computed: list[ComputedCall] = field(default_factory=list)  # with the steps they carry
    rounds: int = 0  # collection rounds sent, repair rounds included
    sse_count: int = 0  # tool responses kept (provider_tool_response[.N].sse)
    one_call: bool = False  # ask for one tool per round (profile, or the server needs it)
    repairs: RepairBudget = field(default_factory=lambda: RepairBudget(0))
    dropped: set[str] = field(default_factory=set)  # tools whose constraint the server broke
    # Compiling, Plan
    bound: list[tuple[int, BoundStep]] = field(default_factory=list)  # (call index, step)
    normalized: list[dict[str, Any]] = field(default_factory=list)  # normalized_calls.json
    claims: list[Phrase] = field(default_factory=list)  # steps' counts the calls do not make
    recount: bool = False  # an edit dropped stale counts: the plan states them again
    script: str = ""
    script_sha256: str | None = None
    key: str | None = None  # the idempotency key (journal)
    prediction: Prediction | None = None
    predicted: PlanDetail | None = None
    plan: Plan | None = None  # once shown
    # Executing, Verifying, Restoring
    submissions: int = 0
    stopped_before_change: bool = False  # the script failed in its preflight or was refused
    restored: bool = False
    restore_unavailable: str | None = None
    restore_after: Readback | None = None  # the readback that proved (or disproved) a restore
    # how the run ended so far (each ending writes it to result.json)
    result: RunResult | None = None

    @property
    def dir(self) -> RunDir:
        """The run directory: every step writes its evidence there."""
        return self.inputs.dir

    @property
    def target(self) -> Target:
        return self.inputs.target

    def expected_tools(self) -> list[str]:
        assert self.route is not None, "no route before the spec was read"
        return list(self.route.tools)
