"""A DomainModule driven by a table of tools: each tool is (IR type, domain checks, codegen).

Part, Property and Mesh differ only in their tables, prompts and routing rules; the dispatch
(unknown tool → one diagnostic with the legal tools; JSON → schema → IR → domain checks →
fragment) is the same and lives here once.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from pydantic import BaseModel

from sam_plugin.compilers import routing, schema_common
from sam_plugin.compilers.evidence import Check, ValueRow
from sam_plugin.compilers.plan import PlanDetail, generic_detail
from sam_plugin.compilers.protocol import (
    CompileContext,
    Diagnostic,
    Fragment,
    ModeName,
    Route,
    StepDiagnostic,
)
from sam_plugin.compilers.spec.computed import ComputedCall
from sam_plugin.compilers.spec.ir import Spec
from sam_plugin.compilers.spec.request_counts import CountReading
from sam_plugin.compilers.spec.vocabulary import CallOperation, Vocabulary
from sam_plugin.compilers.validation import validate_call
from sam_plugin.errors import CompileError

ContextChecks = Callable[[CompileContext], list[Diagnostic]]
Operations = Callable[[Fragment], list[CallOperation]]
StepCalls = Callable[[Spec, Sequence[str]], list[ComputedCall]]
PartAt = Callable[[Fragment, int, CompileContext], Any]
Describer = Callable[[Sequence[Fragment], CompileContext], PlanDetail]
ValueRecorder = Callable[[Path, Any], None]  # (run dir, live model)
ValueChecker = Callable[[Path, Any], list[Check]]
ValuesTable = Callable[[Path], list[ValueRow]]  # (run dir) -> the values a run set
ObservationLines = Callable[[Any], dict[str, Any]]  # (live model) -> JSON data
GivenCall = tuple[str, Mapping[str, Any] | str]  # (tool, its arguments)
# (spec, calls, reads the live model, target part name) -> the spec and calls for that part
PartRestater = Callable[[Spec, Sequence[GivenCall], Callable[[], Any], str],
                        tuple[Spec, tuple[GivenCall, ...]]]
# (spec, the request) -> the steps the request's words contradict
RequestContradictions = Callable[[Spec, str], list[StepDiagnostic]]


class Prompts(Protocol):
    # the design prompt's worked examples: (request, answer) pairs
    EXAMPLES: tuple[tuple[str, str], ...]

    def design_prompt(self, language: str = "en") -> str: ...

    def collection_prompt(self, language: str = "en") -> str: ...


@dataclass(frozen=True)
class ToolCompiler:
    """How one tool compiles: its typed IR, the checks against the live model, the codegen."""

    ir_type: type[BaseModel]
    checks: Callable[[Any, CompileContext], list[Diagnostic]]
    generate: Callable[[Any, CompileContext], Fragment]


def _no_context_checks(ctx: CompileContext) -> list[Diagnostic]:
    return []


def _record_nothing(run_dir: Path, model: Any) -> None:
    return None


def _no_value_checks(run_dir: Path, model: Any) -> list[Check]:
    return []


def _no_values(run_dir: Path) -> list[ValueRow]:
    return []


def _no_lines(model: Any) -> dict[str, Any]:
    return {}


def _no_counts(request: str) -> tuple[CountReading, ...]:
    return ()


def _as_they_are(spec: Spec, calls: Sequence[GivenCall], read_model: Callable[[], Any],
                 part_name: str) -> tuple[Spec, tuple[GivenCall, ...]]:
    return spec, tuple(calls)


def _no_contradictions(spec: Spec, request: str) -> list[StepDiagnostic]:
    return []


def _the_part_as_observed(fragment: Fragment, index: int, ctx: CompileContext) -> Any:
    return ctx.part


@dataclass(frozen=True)
class TableDrivenModule:
    """Implements ``protocol.DomainModule`` from a module's tables."""

    mode: ModeName
    title: str
    capabilities: tuple[str, ...]
    tool_names: Mapping[str, str]
    rules: Any  # routing.RoutingRules of this module
    schemas: Mapping[str, dict[str, Any]]
    descriptions: Mapping[str, str]
    compilers: Mapping[str, ToolCompiler]
    prompts: Prompts
    vocabulary: Vocabulary
    call_operations: Operations
    step_calls: StepCalls  # the inverse of call_operations
    creates_target: bool = False
    # checks every call of this module needs first (e.g. the target model exists)
    context_checks: ContextChecks = _no_context_checks
    # the plan's words for compiled calls; modules without a shadow run use the generic one
    describer: Describer = generic_detail
    # the values a run's calls set, recorded before it and read back after it (Property)
    value_recorder: ValueRecorder = _record_nothing
    value_checker: ValueChecker = _no_value_checks
    value_rows: ValuesTable = _no_values
    # the part as operation i of a compiled call finds it (Part: the shadow after the earlier
    # operations); the others change no geometry a later scope could see
    operation_state: PartAt = _the_part_as_observed
    # one example per tool for MCP ``capabilities`` (protocol.DomainModule.mcp_examples)
    mcp_examples: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    # samops modules covering the model repositories its calls change beyond the part and the
    # property definitions (protocol.DomainModule.snapshot_covers)
    snapshot_covers: tuple[str, ...] = ()
    # what the mode's observation adds about the target model (protocol.observation_lines)
    observation_reader: ObservationLines = _no_lines
    # a request's words that name something the mode does (protocol.DomainModule.does_words)
    does_words: tuple[str, ...] = ()
    # the counts a request states indirectly, in the mode's values (protocol.request_counts)
    count_reader: Callable[[str], tuple[CountReading, ...]] = _no_counts
    # a run's spec and calls restated for another part (protocol.restate_for_part)
    part_restater: PartRestater = _as_they_are
    # the steps the request's words contradict (protocol.request_contradictions)
    contradictions: RequestContradictions = _no_contradictions

    def design_prompt(self, language: str = "en") -> str:
        return self.prompts.design_prompt(language)

    def collection_prompt(self, language: str = "en") -> str:
        return self.prompts.collection_prompt(language)

    def design_examples(self) -> tuple[tuple[str, str], ...]:
        return self.prompts.EXAMPLES

    def request_counts(self, request: str) -> tuple[CountReading, ...]:
        return self.count_reader(request)

    def route(self, spec_text: str, target_is_empty: bool) -> Route:
        prompts = self.prompts.design_prompt("en") + "\n" + self.prompts.design_prompt("zh")
        return routing.route(self.rules, spec_text, target_is_empty, prompts)

    def route_steps(self, capabilities: Sequence[str], target_is_empty: bool) -> Route:
        return routing.route_capabilities(self.rules, list(capabilities), target_is_empty)

    def operations(self, fragment: Fragment) -> list[CallOperation]:
        return self.call_operations(fragment)

    def calls_from_steps(self, spec: Spec, tools: Sequence[str]) -> list[ComputedCall]:
        return self.step_calls(spec, tools)

    def part_at(self, fragment: Fragment, index: int, ctx: CompileContext) -> Any:
        return self.operation_state(fragment, index, ctx)

    def tool_definitions(
        self, tool_names: Sequence[str], strict: bool = False
    ) -> list[dict[str, Any]]:
        unknown = [t for t in tool_names if t not in self.schemas]
        if unknown:
            raise ValueError(
                f"unknown {self.title} tool(s) {', '.join(unknown)}; legal tools: "
                f"{', '.join(self.schemas)}"
            )
        return [
            schema_common.tool_definition(
                t, self.descriptions[t], self.schemas[t], strict=strict
            )
            for t in tool_names
        ]

    def compile(
        self, tool: str, arguments: str | Mapping[str, Any], ctx: CompileContext
    ) -> Fragment:
        compiler = self.compilers.get(tool)
        if compiler is None:
            raise CompileError(tool, [Diagnostic(path="", message=(
                f"unknown {self.title} tool {tool!r}; legal tools: {', '.join(self.compilers)}"
            ))])
        ir = validate_call(
            tool,
            arguments,
            self.schemas[tool],
            compiler.ir_type,
            lambda value: self.context_checks(ctx) or compiler.checks(value, ctx),
        )
        return compiler.generate(ir, ctx)

    def describe(self, fragments: Sequence[Fragment], ctx: CompileContext) -> PlanDetail:
        return self.describer(fragments, ctx)

    def record_values(self, run_dir: Path, model: Any) -> None:
        self.value_recorder(run_dir, model)

    def value_checks(self, run_dir: Path, model: Any) -> list[Check]:
        return self.value_checker(run_dir, model)

    def observation_lines(self, model: Any) -> dict[str, Any]:
        return self.observation_reader(model)

    def restate_for_part(self, spec: Spec, calls: Sequence[GivenCall],
                         read_model: Callable[[], Any], part_name: str
                         ) -> tuple[Spec, tuple[GivenCall, ...]]:
        return self.part_restater(spec, calls, read_model, part_name)

    def values_table(self, run_dir: Path) -> list[ValueRow]:
        return self.value_rows(run_dir)

    def request_contradictions(self, spec: Spec, request: str) -> list[StepDiagnostic]:
        return self.contradictions(spec, request)
