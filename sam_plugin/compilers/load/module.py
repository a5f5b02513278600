"""The Load DomainModule: step, load, boundary, audit. Geometry and properties never change
in this mode."""

from __future__ import annotations

from sam_plugin.compilers.load import (
    actions,
    contradictions,
    describe,
    part_names,
    prompts,
    step_calls,
)
from sam_plugin.compilers.load import tool_compilers as tc
from sam_plugin.compilers.load import value_checks as values
from sam_plugin.compilers.load.ir import ApplyBoundary, ApplyLoad, AuditLoads, DefineStep
from sam_plugin.compilers.load.mcp_examples import MCP_EXAMPLES
from sam_plugin.compilers.load.routing_rules import CAPABILITIES, DOES_WORDS, RULES, TOOL_NAMES
from sam_plugin.compilers.load.schemas import DESCRIPTIONS, SCHEMAS
from sam_plugin.compilers.table_module import TableDrivenModule, ToolCompiler

MODULE = TableDrivenModule(
    mode="load",
    title="Load",
    capabilities=CAPABILITIES,
    tool_names=TOOL_NAMES,
    rules=RULES,
    schemas=SCHEMAS,
    descriptions=DESCRIPTIONS,
    compilers={
        "define_step": ToolCompiler(DefineStep, tc.step_checks, tc.compile_step),
        "apply_load": ToolCompiler(ApplyLoad, tc.load_checks, tc.compile_load),
        "apply_boundary": ToolCompiler(ApplyBoundary, tc.boundary_checks, tc.compile_boundary),
        "audit_loads": ToolCompiler(AuditLoads, tc.audit_checks, tc.compile_audit),
    },
    prompts=prompts,
    vocabulary=actions.VOCABULARY,
    call_operations=actions.operations,
    step_calls=step_calls.calls_from_steps,
    describer=describe.describe,
    value_recorder=values.record_before,
    value_checker=values.load_value_checks,
    value_rows=values.values_table,
    mcp_examples=MCP_EXAMPLES,
    snapshot_covers=("load_cover",),
    observation_reader=values.observation,
    part_restater=part_names.restate_for_part,
    does_words=DOES_WORDS,
    contradictions=contradictions.request_contradictions,
)
