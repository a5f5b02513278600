"""Typed IR of the Mesh tools (docs/architecture.md §4): refine_mesh, audit_mesh."""

from __future__ import annotations

from pydantic import BaseModel, Field

from sam_plugin.compilers.ir_common import IR_CONFIG
from sam_plugin.compilers.selectors import Selector
from sam_plugin.samops.mesh_ops import MAX_LEVELS


class RefineMesh(BaseModel):
    model_config = IR_CONFIG

    selection: Selector
    levels: int = Field(ge=1, le=MAX_LEVELS)


class AuditMesh(BaseModel):
    model_config = IR_CONFIG
