"""The Part DomainModule: build, edit, transform, repair, audit."""

from __future__ import annotations

from sam_plugin.compilers.part import (
    actions,
    audit,
    build,
    contradictions,
    describe,
    edit,
    operation_states,
    prompts,
    repair,
    step_calls,
    transform,
)
from sam_plugin.compilers.part.count_words import part_counts
from sam_plugin.compilers.part.ir import (
    AuditPartIR,
    BuildPartIR,
    EditPartIR,
    RepairPartIR,
    TransformPartIR,
)
from sam_plugin.compilers.part.mcp_examples import MCP_EXAMPLES
from sam_plugin.compilers.part.routing_rules import CAPABILITIES, DOES_WORDS, RULES, TOOL_NAMES
from sam_plugin.compilers.part.schemas import DESCRIPTIONS, SCHEMAS
from sam_plugin.compilers.protocol import CompileContext, Diagnostic
from sam_plugin.compilers.table_module import TableDrivenModule, ToolCompiler


def _target_model_checks(ctx: CompileContext) -> list[Diagnostic]:
    if ctx.model is None:
        return [Diagnostic(path="", message=(
            f"target model {ctx.target.model_name!r} does not exist; pick an existing model"))]
    return []


MODULE = TableDrivenModule(
    mode="part",
    title="Part",
    capabilities=CAPABILITIES,
    tool_names=TOOL_NAMES,
    rules=RULES,
    schemas=SCHEMAS,
    descriptions=DESCRIPTIONS,
    compilers={
        "build_part": ToolCompiler(BuildPartIR, build.domain_checks, build.compile_build),
        "edit_part": ToolCompiler(EditPartIR, edit.domain_checks, edit.compile_edit),
        "transform_part": ToolCompiler(
            TransformPartIR, transform.domain_checks, transform.compile_transform
        ),
        "repair_part": ToolCompiler(RepairPartIR, repair.domain_checks, repair.compile_repair),
        "audit_part": ToolCompiler(AuditPartIR, audit.domain_checks, audit.compile_audit),
    },
    prompts=prompts,
    vocabulary=actions.VOCABULARY,
    call_operations=actions.operations,
    step_calls=step_calls.calls_from_steps,
    context_checks=_target_model_checks,
    creates_target=True,
    describer=describe.describe,
    operation_state=operation_states.part_at,
    mcp_examples=MCP_EXAMPLES,
    does_words=DOES_WORDS,
    count_reader=part_counts,
    contradictions=contradictions.request_contradictions,
)
