"""The Mesh DomainModule: refine, audit."""

from __future__ import annotations

from sam_plugin.compilers.mesh import actions, audit, describe, prompts, refine, step_calls
from sam_plugin.compilers.mesh.count_words import refine_counts
from sam_plugin.compilers.mesh.ir import AuditMesh, RefineMesh
from sam_plugin.compilers.mesh.mcp_examples import MCP_EXAMPLES
from sam_plugin.compilers.mesh.routing_rules import CAPABILITIES, DOES_WORDS, RULES, TOOL_NAMES
from sam_plugin.compilers.mesh.schemas import DESCRIPTIONS, SCHEMAS
from sam_plugin.compilers.table_module import TableDrivenModule, ToolCompiler

MODULE = TableDrivenModule(
    mode="mesh",
    title="Mesh",
    capabilities=CAPABILITIES,
    tool_names=TOOL_NAMES,
    rules=RULES,
    schemas=SCHEMAS,
    descriptions=DESCRIPTIONS,
    compilers={
        "refine_mesh": ToolCompiler(RefineMesh, refine.domain_checks, refine.compile_refine),
        "audit_mesh": ToolCompiler(AuditMesh, audit.domain_checks, audit.compile_audit),
    },
    prompts=prompts,
    vocabulary=actions.VOCABULARY,
    call_operations=actions.operations,
    step_calls=step_calls.calls_from_steps,
    describer=describe.describe,
    mcp_examples=MCP_EXAMPLES,
    does_words=DOES_WORDS,
    count_reader=refine_counts,
)
