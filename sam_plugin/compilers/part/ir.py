"""Typed, normalized IR of the five Part tools (pydantic v2).

Normalization: coordinates at fixed precision, enum case folded, selector labels sorted and
de-duplicated, audit checks de-duplicated in canonical order, safe defaults (selection: all).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from sam_plugin.compilers.ir_common import (
    IR_CONFIG,
    LocalId,
    Name,
    ShapeName,
    SurfaceShape,
    Vec3,
)
from sam_plugin.compilers.part.schemas import AUDIT_CHECKS, MAX_DIVISIONS, MAX_LINE_DIVISIONS
from sam_plugin.compilers.schema_common import SCALE_FACTOR_RANGE, TOLERANCE_MIN
from sam_plugin.compilers.selectors import SELECT_ALL, Selector

Divisions = Annotated[int, Field(ge=1, le=MAX_DIVISIONS)]


class NodeIR(BaseModel):
    model_config = IR_CONFIG
    id: LocalId
    coordinates: Vec3


class ElementIR(BaseModel):
    model_config = IR_CONFIG
    id: LocalId
    shape: ShapeName
    node_ids: tuple[LocalId, ...] = Field(min_length=2, max_length=4)


class PatchIR(BaseModel):
    model_config = IR_CONFIG
    id: LocalId
    shape: SurfaceShape
    corners: tuple[Vec3, Vec3, Vec3, Vec3]
    divisions: tuple[Divisions, Divisions]


class LineIR(BaseModel):
    model_config = IR_CONFIG
    id: LocalId
    start: Vec3
    end: Vec3
    divisions: Annotated[int, Field(ge=1, le=MAX_LINE_DIVISIONS)]


class BuildSetIR(BaseModel):
    model_config = IR_CONFIG
    name: Name
    element_ids: tuple[LocalId, ...] = Field(min_length=1)


class BuildPartIR(BaseModel):
    model_config = IR_CONFIG
    nodes: tuple[NodeIR, ...] = ()
    elements: tuple[ElementIR, ...] = ()
    patches: tuple[PatchIR, ...] = ()
    lines: tuple[LineIR, ...] = ()
    element_sets: tuple[BuildSetIR, ...] = ()


class MoveIR(BaseModel):
    model_config = IR_CONFIG
    label: Annotated[int, Field(ge=1)]
    coordinates: Vec3


class EditSetIR(BaseModel):
    model_config = IR_CONFIG
    name: Name
    element_ids: tuple[LocalId, ...] = ()
    selection: Selector | None = None


class EditPartIR(BaseModel):
    model_config = IR_CONFIG
    nodes: tuple[NodeIR, ...] = ()
    add_elements: tuple[ElementIR, ...] = ()
    add_patches: tuple[PatchIR, ...] = ()
    add_lines: tuple[LineIR, ...] = ()
    delete_elements: Selector | None = None
    delete_nodes: Selector | None = None
    move_nodes: tuple[MoveIR, ...] = ()
    element_sets: tuple[EditSetIR, ...] = ()
    clear_all: bool = False


class TranslateOp(BaseModel):
    model_config = IR_CONFIG
    op: Literal["translate"]
    vector: Vec3
    selection: Selector = SELECT_ALL


class RotateOp(BaseModel):
    model_config = IR_CONFIG
    op: Literal["rotate"]
    origin: Vec3
    axis: Vec3
    angle_deg: float
    selection: Selector = SELECT_ALL


class MirrorOp(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)
    op: Literal["mirror"]
    origin: Vec3
    normal: Vec3
    # "copy" on the wire; renamed here because BaseModel.copy exists
    make_copy: bool = Field(alias="copy")
    selection: Selector = SELECT_ALL


class ScaleOp(BaseModel):
    model_config = IR_CONFIG
    op: Literal["scale"]
    origin: Vec3
    factor: Annotated[float, Field(ge=SCALE_FACTOR_RANGE[0], le=SCALE_FACTOR_RANGE[1])]
    selection: Selector = SELECT_ALL


class TranslateCopyOp(BaseModel):
    model_config = IR_CONFIG
    op: Literal["translate_copy"]
    vector: Vec3
    selection: Selector = SELECT_ALL


class LinearArrayOp(BaseModel):
    model_config = IR_CONFIG
    op: Literal["linear_array"]
    vector: Vec3
    count: Annotated[int, Field(ge=2, le=100)]
    selection: Selector = SELECT_ALL


TransformOp = Annotated[
    TranslateOp | RotateOp | MirrorOp | ScaleOp | TranslateCopyOp | LinearArrayOp,
    Field(discriminator="op"),
]


class TransformPartIR(BaseModel):
    model_config = IR_CONFIG
    operations: tuple[TransformOp, ...] = Field(min_length=1)


class MergeIR(BaseModel):
    model_config = IR_CONFIG
    tolerance: Annotated[float, Field(ge=TOLERANCE_MIN)] | None = None


class RepairPartIR(BaseModel):
    model_config = IR_CONFIG
    merge_coincident_nodes: MergeIR | None = None
    delete_duplicate_elements: bool = False
    delete_free_nodes: bool = False


AuditCheck = Literal["counts", "free_nodes", "duplicate_elements", "coincident_nodes",
                     "degenerate_elements", "quality"]


class AuditPartIR(BaseModel):
    model_config = IR_CONFIG
    checks: tuple[AuditCheck, ...] = AUDIT_CHECKS  # type: ignore[assignment]  # the same words as AuditCheck

    @field_validator("checks")
    @classmethod
    def _canonical(cls, checks: tuple[str, ...]) -> tuple[str, ...]:
        chosen = set(checks) or set(AUDIT_CHECKS)
        return tuple(c for c in AUDIT_CHECKS if c in chosen)
