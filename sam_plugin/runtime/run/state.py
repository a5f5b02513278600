"""One run: what it was given (``RunInputs``, frozen at submit, I3) and what its phases fill
in (``RunState``), in the order of the phases (docs/architecture.md §1).

The step modules of ``runtime/run/`` share nothing but this state, the endings
(``endings.py``) and the ports they are handed (``context.py``); what a step makes for the
next one is what it returns (``artifacts.py``), kept here as one field. The controller's
spec, route, plan and result are read-only views of it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sam_plugin.compilers.evidence import Readback
from sam_plugin.compilers.protocol import DomainModule, Route, Target
from sam_plugin.compilers.spec.diff import FieldChange
from sam_plugin.compilers.spec.ir import Spec
from sam_plugin.runtime.observe.observation import Observation
from sam_plugin.runtime.observe.region_schema import RegionIndex
from sam_plugin.runtime.provider.probe import Detection
from sam_plugin.runtime.run.artifacts import Collection, Conversation, Execution, ShownPlan
from sam_plugin.runtime.selection import Selection
from sam_plugin.runtime.store.run_store import RunDir, RunResult, RunSource
from sam_plugin.runtime.store.usage import UsageMeter


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
    conversation: Conversation = field(default_factory=Conversation)
    spec: str = ""  # the spec in words (its rendering): shown, confirmed, design.txt
    spec_ir: Spec | None = None  # the same spec as data: spec.json, what calls are bound to
    review_warnings: list[str] = field(default_factory=list)  # where it disagrees, now
    unsourced: list[str] = field(default_factory=list)  # numbers its writer was not shown
    spec_changes: list[FieldChange] = field(default_factory=list)  # the last revision's
    spec_versions: int = 0  # versions of the spec written so far (Ask for changes adds one)
    route: Route | None = None
    invalidated: str | None = None  # the dock's mode or target changed meanwhile
    # Collecting (or computing the calls from the steps): the calls and their rounds
    collection: Collection = field(default_factory=Collection)
    # Compiling, Plan
    recount: bool = False  # an edit dropped stale counts: the plan states them again
    script_sha256: str | None = None  # once the script is composed (result.json says it)
    shown: ShownPlan | None = None  # the plan shown and its script, once shown
    # Executing, Verifying, Restoring
    execution: Execution = field(default_factory=Execution)
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
