"""audit_part: read-only; writes part_audit.json and predicts the state unchanged."""

from __future__ import annotations

from sam_plugin.compilers import codegen
from sam_plugin.compilers.part.ir import AuditPartIR
from sam_plugin.compilers.part.predict import part_expected
from sam_plugin.compilers.protocol import CompileContext, Diagnostic, Fragment
from sam_plugin.samops.part_audit import AUDIT_FILENAME

TOOL = "audit_part"


def domain_checks(ir: AuditPartIR, ctx: CompileContext) -> list[Diagnostic]:
    if not part_expected(ctx):
        return [Diagnostic(path="", message=(
            f"part {ctx.target.part_name!r} does not exist and no earlier call creates it; "
            "there is nothing to audit"))]
    return []


def compile_audit(ir: AuditPartIR, ctx: CompileContext) -> Fragment:
    evidence = ctx.state.model_copy(
        update={"files": sorted({*ctx.state.files, AUDIT_FILENAME})})
    preflight = ""
    if ctx.part is not None:
        preflight = "_part_ops.require_part(_model, _part_name)\n"
    mutation = codegen.call("_part_audit.write_audit",
                            [codegen.PART, "SAM_AGENT_OUTPUT_DIR"], literal_args=[ir.checks])
    return Fragment(
        tool=TOOL,
        preflight=preflight,
        mutation=mutation,
        normalized=ir.model_dump(mode="json"),
        evidence=evidence,
        helpers=["part_audit", "part_ops"] if preflight else ["part_audit"],
        read_only=True,
    )
