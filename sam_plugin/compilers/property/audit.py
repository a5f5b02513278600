"""audit_property: read-only report written to property_audit.json."""

from __future__ import annotations

from sam_plugin.compilers.property import script
from sam_plugin.compilers.property.ir import AuditProperty
from sam_plugin.compilers.protocol import CompileContext, Diagnostic, Fragment
from sam_plugin.samops.property_audit import AUDIT_FILE

TOOL = "audit_property"


def domain_checks(ir: AuditProperty, ctx: CompileContext) -> list[Diagnostic]:
    return []


def compile_audit(ir: AuditProperty, ctx: CompileContext) -> Fragment:
    evidence = ctx.state.model_copy(update={
        "geometry_unchanged": True,
        "files": sorted({*ctx.state.files, AUDIT_FILE}),
    })
    return Fragment(
        tool=TOOL,
        preflight=script.guard_preflight(ctx.prior_fragments),
        postflight=script.GUARD_POSTFLIGHT
        + "_property_audit.write_audit(_model, _part_name, SAM_AGENT_OUTPUT_DIR)\n",
        normalized={},
        evidence=evidence,
        helpers=[*script.HELPERS, "property_audit"],
        read_only=True,
    )
