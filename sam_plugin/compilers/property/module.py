"""The Property DomainModule: define, assign, audit. Geometry never changes in this mode."""

from __future__ import annotations

from sam_plugin.compilers.property import (
    actions,
    assign,
    audit,
    define,
    describe,
    profile_contradiction,
    prompts,
    step_calls,
    value_checks,
)
from sam_plugin.compilers.property.ir import AssignProperty, AuditProperty, DefineProperty
from sam_plugin.compilers.property.mcp_examples import MCP_EXAMPLES
from sam_plugin.compilers.property.routing_rules import CAPABILITIES, DOES_WORDS, RULES, TOOL_NAMES
from sam_plugin.compilers.property.schemas import DESCRIPTIONS, SCHEMAS
from sam_plugin.compilers.table_module import TableDrivenModule, ToolCompiler

MODULE = TableDrivenModule(
    mode="property",
    title="Property",
    capabilities=CAPABILITIES,
    tool_names=TOOL_NAMES,
    rules=RULES,
    schemas=SCHEMAS,
    descriptions=DESCRIPTIONS,
    compilers={
        "define_property": ToolCompiler(
            DefineProperty, define.domain_checks, define.compile_define
        ),
        "assign_property": ToolCompiler(
            AssignProperty, assign.domain_checks, assign.compile_assign
        ),
        "audit_property": ToolCompiler(AuditProperty, audit.domain_checks, audit.compile_audit),
    },
    prompts=prompts,
    vocabulary=actions.VOCABULARY,
    call_operations=actions.operations,
    step_calls=step_calls.calls_from_steps,
    describer=describe.describe,
    value_recorder=value_checks.record_before,
    value_checker=value_checks.property_value_checks,
    value_rows=value_checks.values_table,
    mcp_examples=MCP_EXAMPLES,
    does_words=DOES_WORDS,
    contradictions=profile_contradiction.request_contradictions,
)
