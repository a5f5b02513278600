"""audit_mesh: read-only report written to mesh_audit.json."""

from __future__ import annotations

from sam_plugin.compilers.mesh.ir import AuditMesh
from sam_plugin.compilers.protocol import CompileContext, Diagnostic, Fragment
from sam_plugin.samops.mesh_audit import AUDIT_FILE

TOOL = "audit_mesh"


def domain_checks(ir: AuditMesh, ctx: CompileContext) -> list[Diagnostic]:
    if ctx.part is None and ctx.state.element_count.max == 0:
        return [Diagnostic(path="", message=(
            f"part {ctx.target.part_name!r} does not exist in model "
            f"{ctx.target.model_name!r}; there is no mesh to audit"))]
    return []


def compile_audit(ir: AuditMesh, ctx: CompileContext) -> Fragment:
    return Fragment(
        tool=TOOL,
        postflight="_mesh_audit.write_audit(_model.parts[_part_name], SAM_AGENT_OUTPUT_DIR)\n",
        normalized={},
        evidence=ctx.state.model_copy(update={"files": sorted({*ctx.state.files, AUDIT_FILE})}),
        helpers=["mesh_audit"],
        read_only=True,
    )
