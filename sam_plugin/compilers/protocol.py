"""The DomainModule protocol: everything the generic controller may ask of a domain.

The controller knows nothing about QUAD having four nodes; it asks a module for its design
prompt, its routing, the tool definitions of the capabilities still missing, and to compile
one call at a time against the observed model. Each registered domain
(``compilers/registry.py``) implements this.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field, field_validator

from sam_plugin.compilers.evidence import Check, Prediction, ValueRow
from sam_plugin.compilers.plan import PlanDetail
from sam_plugin.compilers.registry import ModeName as ModeName  # the registry's mode names
from sam_plugin.words.phrase import Phrase

if TYPE_CHECKING:  # the spec package imports this module (Diagnostic, quote)
    from sam_plugin.compilers.spec.computed import ComputedCall
    from sam_plugin.compilers.spec.ir import Spec
    from sam_plugin.compilers.spec.request_counts import CountReading
    from sam_plugin.compilers.spec.vocabulary import CallOperation, Vocabulary

# A diagnostic quotes at most this much of any value: a 5 MB field name must not become a
# 10 MB message in result.json, events.jsonl and on the terminal.
MAX_QUOTED_CHARS = 200
MAX_DIAGNOSTIC_CHARS = 2000
_LONG_WORD = re.compile(r"\S{" + str(MAX_QUOTED_CHARS + 1) + ",}")


def quote(value: Any, limit: int = MAX_QUOTED_CHARS) -> str:
    """``repr(value)`` cut to ``limit`` characters, saying how long the value was."""
    if isinstance(value, str) and len(value) > limit:
        return f"{value[:limit]!r}… ({len(value)} characters)"
    text = repr(value)
    if len(text) > limit:
        return f"{text[:limit]}… ({len(text)} characters)"
    return text


def bounded(text: str) -> str:
    """``text`` with every unbroken run longer than :data:`MAX_QUOTED_CHARS` cut, and at most
    :data:`MAX_DIAGNOSTIC_CHARS` long in all."""
    if len(text) > MAX_QUOTED_CHARS:
        text = _LONG_WORD.sub(lambda m: f"{m.group()[:MAX_QUOTED_CHARS]}…", text)
    if len(text) > MAX_DIAGNOSTIC_CHARS:
        text = text[:MAX_DIAGNOSTIC_CHARS] + f"… ({len(text)} characters)"
    return text


class Target(BaseModel):
    """The frozen (model, part) a run acts on; injected into the script, never a tool argument."""

    model_config = ConfigDict(frozen=True)

    model_name: str
    part_name: str


class Diagnostic(BaseModel):
    """One actionable problem: the JSON path of the field and what to do about it."""

    model_config = ConfigDict(frozen=True)

    path: str
    message: str
    # what the remedy has the step state, which a step asked again is held to (runtime only:
    # never stored): ``scope``, or ``picking_scope`` (a scope that picks something here)
    needs: tuple[str, ...] = Field(default=(), exclude=True)
    # (kind, name): the definition the remedy changes, where a step may define it (a shell
    # section assigned to BEAMs alone is a section to define as a beam section)
    remedy_in: tuple[str, str] | None = Field(default=None, exclude=True)

    @field_validator("path", "message")
    @classmethod
    def _bounded(cls, text: str) -> str:
        return bounded(text)

    def __str__(self) -> str:
        return f"{self.path}: {self.message}" if self.path else self.message


@dataclass(frozen=True)
class StepDiagnostic:
    """A diagnostic on one step of a spec (``step``, 0-based): what a step asked again
    before Review names."""

    step: int
    diagnostic: Diagnostic


class Fragment(BaseModel):
    """A compiled call: code pieces the composer orders, plus what the call predicts.

    ``preflight``/``mutation``/``postflight`` are Python source blocks at module level of
    the generated script; they may use the names bound by the composer (``mdb``, ``session``,
    ``SAM_AGENT_TARGET``, ``SAM_AGENT_OUTPUT_DIR``, ``_model``, ``_part_name``) plus the
    ``constants`` (from ``samConstants``) and ``helpers`` (``sam_plugin.samops`` modules,
    imported as ``_<module>``) they declare.
    """

    tool: str
    preflight: str = ""
    mutation: str = ""
    postflight: str = ""
    normalized: dict[str, Any]
    evidence: Prediction
    constants: list[str] = Field(default_factory=list)
    helpers: list[str] = Field(default_factory=list)
    notes: list[str] = Field(default_factory=list)
    # a note's phrase, by the note (a note without one is shown as it is); never dumped
    note_phrases: dict[str, Phrase] = Field(default_factory=dict, exclude=True)
    # the call changes nothing (an audit): a run of such calls gets no shadow, no snapshot
    # and no undo (docs/architecture.md §5 "Snapshot and restore")
    read_only: bool = False


@dataclass(frozen=True)
class CompileContext:
    """What a compiler may consult: the request, the frozen target and the live model, read-only.

    ``state`` is the predicted state before this call (chained across the calls of one run);
    ``prior_fragments`` are the calls of this run compiled before this one (e.g. a section an
    earlier ``define_property`` creates). ``model``/``part`` are host objects (``None`` when
    missing); compilers only read them.
    """

    request_text: str
    target: Target
    state: Prediction
    model: Any = None
    part: Any = None
    prior_fragments: tuple[Fragment, ...] = ()
    extra: Mapping[str, Any] = field(default_factory=dict)


class Route(BaseModel):
    """How a spec was routed to capabilities, written to ``design_route.json``."""

    # "steps": from the spec IR's steps; the others read prose specs of old run directories
    method: Literal["steps", "capability_line", "semantic", "empty_target"]
    capabilities: list[str]
    tools: list[str]
    detail: str = ""
    # capability -> the one it became because the target is not empty (Part: build -> edit),
    # as data beside ``detail``'s words (written only when there is one)
    substituted: dict[str, str] = Field(default_factory=dict, exclude_if=lambda given: not given)


@runtime_checkable
class DomainModule(Protocol):
    """One object mode of the dock: a domain of the registry (``compilers/registry.py``)."""

    mode: ModeName
    title: str  # "Part", as in "Planned Part capabilities: ..."
    capabilities: tuple[str, ...]  # canonical order
    tool_names: Mapping[str, str]  # capability -> tool name
    creates_target: bool  # whether a missing target part may be created (Part: build)
    # the actions a spec step may name in this mode (docs/architecture.md §4 "The spec")
    vocabulary: Vocabulary
    # tool -> {"step": a spec step, "arguments": the call carrying it out}: one example per
    # tool for MCP ``capabilities``, about ``mcp_server.examples.EXAMPLE_PART``
    mcp_examples: Mapping[str, Mapping[str, Any]]
    # samops modules (``samops/covered.py``) that capture, compare and put back the model
    # repositories this domain's calls change beyond the target part and the property
    # definitions, so that restore and undo cover them (docs/architecture.md §5)
    snapshot_covers: tuple[str, ...]
    # patterns of a request's words (case-insensitive, English and Chinese) that name
    # something this mode does: a request that names one is planned, its words asking for
    # another mode's business a Review warning (docs/architecture.md §4 "The design, asked in
    # parts"); ``compilers/spec/out_of_mode_words.py`` holds the pieces they are built of
    does_words: tuple[str, ...]

    def design_prompt(self, language: str = "en") -> str:
        """System prompt for the design request (which carries no tools)."""
        ...

    def collection_prompt(self, language: str = "en") -> str:
        """System prompt for tool-call collection rounds."""
        ...

    def design_examples(self) -> tuple[tuple[str, str], ...]:
        """The design prompt's worked examples, (request, answer): a spec that repeats one
        of their steps is refused as a copy."""
        ...

    def request_counts(self, request: str) -> tuple[CountReading, ...]:
        """The counts ``request`` states indirectly ("twice as fine", "3 total") in this
        mode's values, which the product states for the model that writes the spec
        (``compilers/spec/request_counts.py``); ``()`` when it states none."""
        ...

    def route(self, spec_text: str, target_is_empty: bool) -> Route:
        """A prose spec's route (run directories written before the spec IR); raises
        RouteRefused."""
        ...

    def route_steps(self, capabilities: Sequence[str], target_is_empty: bool) -> Route:
        """The route of a spec's steps: their capabilities and the expected tools, in
        canonical order; raises RouteRefused."""
        ...

    def tool_definitions(
        self, tool_names: Sequence[str], strict: bool = False
    ) -> list[dict[str, Any]]:
        """OpenAI-style ``{"type": "function", "function": {...}}`` entries, in the given order."""
        ...

    def compile(
        self, tool: str, arguments: str | Mapping[str, Any], ctx: CompileContext
    ) -> Fragment:
        """Parse, validate, normalize and generate code for one call; raises CompileError."""
        ...

    def operations(self, fragment: Fragment) -> list[CallOperation]:
        """The operations of one compiled call, as the binding compares them with the spec's
        steps (docs/architecture.md §4 "The spec")."""
        ...

    def calls_from_steps(self, spec: Spec, tools: Sequence[str]) -> list[ComputedCall]:
        """The calls of ``tools`` (the route's, in canonical order) that carry out the
        confirmed ``spec``: the inverse of ``operations`` (docs/architecture.md §4 "Calls from
        the steps"). Raises ``StepsNotComputable`` naming a step that does not state enough."""
        ...

    def part_at(self, fragment: Fragment, index: int, ctx: CompileContext) -> Any:
        """The part (a host part or its shadow) as operation ``index`` of the compiled call
        finds it, ``ctx`` the context it was compiled in; None when it cannot be told. The
        binding resolves that operation's scope there (docs/architecture.md §4 "Binding")."""
        ...

    def record_values(self, run_dir: Path, model: Any) -> None:
        """Before the run: the values ``value_checks`` compares, as observed, kept in the
        run directory (the drift check keeps them valid until execution). A domain whose
        calls set no values records nothing."""
        ...

    def value_checks(self, run_dir: Path, model: Any) -> list[Check]:
        """After the readback: one check per value the run's calls set, read from the live
        ``model`` (never from the prediction); ``[]`` when the calls set none."""
        ...

    def observation_lines(self, model: Any) -> dict[str, Any]:
        """What this mode's observation adds about the target ``model`` beyond its part (a
        domain's own repositories, each list bounded): JSON data, shown to the model that
        writes the spec and kept in ``workspace.json``; ``{}`` (nothing shown) when none."""
        ...

    def restate_for_part(self, spec: Spec, calls: Sequence[tuple[str, Mapping[str, Any] | str]],
                         read_model: Callable[[], Any], part_name: str
                         ) -> tuple[Spec, tuple[tuple[str, Mapping[str, Any] | str], ...]]:
        """A verified run's ``spec`` and ``calls`` (tool, arguments) as a rerun on another
        part ``part_name`` carries them out (docs/architecture.md §6 "rerun"): what the parts
        of the model share (a name of the model's) restated for that part, the calls and the
        steps alike; as they are for a domain whose names are the part's. ``read_model``
        reads the live model, only when the domain needs it."""
        ...

    def values_table(self, run_dir: Path) -> list[ValueRow]:
        """Every value a finished run's calls set, before and after it (the dock's
        before/after values table); ``[]`` when they set none."""
        ...

    def describe(self, fragments: Sequence[Fragment], ctx: CompileContext) -> PlanDetail:
        """The compiled calls in the analyst's words (docs/architecture.md §5 "Plan"): per call, its
        operations with their numbers and the entities they touch, destructive ones marked,
        and the predicted final part when the module's shadow run can tell; ``ctx`` holds the
        live part before the run. Raises CompileError when a call cannot run (I7)."""
        ...

    def request_contradictions(self, spec: Spec, request: str) -> list[StepDiagnostic]:
        """The steps of ``spec`` that the request's own words contradict, each with a
        diagnostic that names the words and the fix (and what the step asked again is held
        to, ``Diagnostic.needs``): a shell section where the request names a beam profile
        (docs/architecture.md §4 "One repair before Review"). ``[]`` for a domain whose
        words name nothing a step could contradict."""
        ...
