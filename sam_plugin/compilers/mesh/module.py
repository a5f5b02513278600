"""The Mesh DomainModule: prompts, routing, tool definitions and compile dispatch."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from sam_plugin.compilers import routing, schema_common
from sam_plugin.compilers.mesh import audit, prompts, refine
from sam_plugin.compilers.mesh.ir import AuditMesh, RefineMesh
from sam_plugin.compilers.mesh.routing_rules import CAPABILITIES, RULES, TOOL_NAMES
from sam_plugin.compilers.mesh.schemas import DESCRIPTIONS, SCHEMAS
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
    "refine_mesh": _ToolCompiler(RefineMesh, refine.domain_checks, refine.compile_refine),
    "audit_mesh": _ToolCompiler(AuditMesh, audit.domain_checks, audit.compile_audit),
}


class MeshModule:
    """Mesh mode: refine, audit."""

    mode: ModeName = "mesh"
    title = "Mesh"
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
            raise ValueError(f"unknown Mesh tool(s) {', '.join(unknown)}; legal tools: "
                             f"{', '.join(SCHEMAS)}")
        return [schema_common.tool_definition(t, DESCRIPTIONS[t], SCHEMAS[t], strict=strict)
                for t in tool_names]

    def compile(self, tool: str, arguments: str | Mapping[str, Any],
                ctx: CompileContext) -> Fragment:
        compiler = _COMPILERS.get(tool)
        if compiler is None:
            raise CompileError(tool, [Diagnostic(path="", message=(
                f"unknown Mesh tool {tool!r}; legal tools: {', '.join(_COMPILERS)}"))])
        ir = validate_call(tool, arguments, SCHEMAS[tool], compiler.ir_type,
                           lambda value: compiler.checks(value, ctx))
        return compiler.generate(ir, ctx)


MODULE = MeshModule()
