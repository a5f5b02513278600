"""The Part DomainModule: prompts, routing, tool definitions and compile dispatch."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from sam_plugin.compilers import routing, schema_common
from sam_plugin.compilers.part import audit, build, edit, prompts, repair, transform
from sam_plugin.compilers.part.ir import (
    AuditPartIR,
    BuildPartIR,
    EditPartIR,
    RepairPartIR,
    TransformPartIR,
)
from sam_plugin.compilers.part.routing_rules import CAPABILITIES, RULES, TOOL_NAMES
from sam_plugin.compilers.part.schemas import DESCRIPTIONS, SCHEMAS
from sam_plugin.compilers.protocol import (
    CompileContext,
    CompileError,
    Diagnostic,
    Fragment,
    ModeName,
    Route,
)
from sam_plugin.compilers.validation import validate_call


@dataclass(frozen=True)
class _ToolCompiler:
    ir_type: type[BaseModel]
    checks: Callable[[Any, CompileContext], list[Diagnostic]]
    generate: Callable[[Any, CompileContext], Fragment]


_COMPILERS: dict[str, _ToolCompiler] = {
    "build_part": _ToolCompiler(BuildPartIR, build.domain_checks, build.compile_build),
    "edit_part": _ToolCompiler(EditPartIR, edit.domain_checks, edit.compile_edit),
    "transform_part": _ToolCompiler(TransformPartIR, transform.domain_checks,
                                    transform.compile_transform),
    "repair_part": _ToolCompiler(RepairPartIR, repair.domain_checks, repair.compile_repair),
    "audit_part": _ToolCompiler(AuditPartIR, audit.domain_checks, audit.compile_audit),
}


def _target_model_checks(ctx: CompileContext) -> list[Diagnostic]:
    if ctx.model is None:
        return [Diagnostic(path="", message=(
            f"target model {ctx.target.model_name!r} does not exist; pick an existing model"))]
    return []


class PartModule:
    """Part mode: build, edit, transform, repair, audit."""

    mode: ModeName = "part"
    title = "Part"
    capabilities: tuple[str, ...] = CAPABILITIES
    tool_names: Mapping[str, str] = TOOL_NAMES

    def design_prompt(self, language: str = "en") -> str:
        return prompts.design_prompt(language)

    def collection_prompt(self, language: str = "en") -> str:
        return prompts.collection_prompt(language)

    def route(self, spec_text: str, target_is_empty: bool) -> Route:
        return routing.route(RULES, spec_text, target_is_empty)

    def tool_definitions(self, tool_names: Sequence[str],
                         strict: bool = False) -> list[dict[str, Any]]:
        unknown = [t for t in tool_names if t not in SCHEMAS]
        if unknown:
            raise ValueError(f"unknown Part tool(s) {', '.join(unknown)}; legal tools: "
                             f"{', '.join(SCHEMAS)}")
        return [schema_common.tool_definition(t, DESCRIPTIONS[t], SCHEMAS[t], strict=strict)
                for t in tool_names]

    def compile(self, tool: str, arguments: str | Mapping[str, Any],
                ctx: CompileContext) -> Fragment:
        compiler = _COMPILERS.get(tool)
        if compiler is None:
            raise CompileError(tool, [Diagnostic(path="", message=(
                f"unknown Part tool {tool!r}; legal tools: {', '.join(_COMPILERS)}"))])
        ir = validate_call(tool, arguments, SCHEMAS[tool], compiler.ir_type,
                           lambda value: _target_model_checks(ctx) or compiler.checks(value, ctx))
        return compiler.generate(ir, ctx)


MODULE = PartModule()
