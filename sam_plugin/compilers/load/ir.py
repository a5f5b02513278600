"""Typed IR of the Load tools (docs/architecture.md §4): define_step, apply_load,
apply_boundary, audit_loads."""

from __future__ import annotations

from typing import Annotated, Literal, get_args

from pydantic import BaseModel, Field, field_validator, model_validator

from sam_plugin.compilers.ir_common import IR_CONFIG, Coord, Name, Vec3
from sam_plugin.compilers.selectors import Selector
from sam_plugin.samops.load_ops import DOFS, INITIAL

Dof = Literal["u1", "u2", "u3", "ur1", "ur2", "ur3"]
assert get_args(Dof) == DOFS  # one list of dofs: the host operations'


class StepDef(BaseModel):
    model_config = IR_CONFIG

    name: Name
    previous: Name | None = None  # the last step when left out


class DefineStep(BaseModel):
    model_config = IR_CONFIG

    steps: list[StepDef] = Field(min_length=1)


class PressureLoad(BaseModel):
    model_config = IR_CONFIG

    name: Name
    kind: Literal["pressure"]
    step: Name
    magnitude: Coord
    selection: Selector


class ForceLoad(BaseModel):
    model_config = IR_CONFIG

    name: Name
    kind: Literal["force"]
    step: Name
    vector: Vec3
    selection: Selector


Load = Annotated[PressureLoad | ForceLoad, Field(discriminator="kind")]


class ApplyLoad(BaseModel):
    model_config = IR_CONFIG

    loads: list[Load] = Field(min_length=1)


class FixCondition(BaseModel):
    model_config = IR_CONFIG

    name: Name
    kind: Literal["fix"]
    step: Name = INITIAL
    dofs: list[Dof] | None = None  # all six when left out
    selection: Selector

    @field_validator("dofs")
    @classmethod
    def _canonical(cls, dofs: list[Dof] | None) -> list[Dof] | None:
        if dofs is None:
            return None
        if not dofs:
            raise ValueError(f"name at least one dof of {', '.join(DOFS)}, or leave dofs "
                             "out to fix all six")
        return [d for d in DOFS if d in dofs]  # in DOFS order


class DofValues(BaseModel):
    """Each prescribed dof and its value; a dof left out stays free."""

    model_config = IR_CONFIG

    u1: Coord | None = None
    u2: Coord | None = None
    u3: Coord | None = None
    ur1: Coord | None = None
    ur2: Coord | None = None
    ur3: Coord | None = None

    @model_validator(mode="after")
    def _one_at_least(self) -> DofValues:
        if all(getattr(self, dof) is None for dof in DOFS):
            raise ValueError(f"name at least one dof of {', '.join(DOFS)} and its value")
        return self


class DisplaceCondition(BaseModel):
    model_config = IR_CONFIG

    name: Name
    kind: Literal["displace"]
    step: Name = INITIAL
    values: DofValues
    selection: Selector


Condition = Annotated[FixCondition | DisplaceCondition, Field(discriminator="kind")]


class ApplyBoundary(BaseModel):
    model_config = IR_CONFIG

    conditions: list[Condition] = Field(min_length=1)


class AuditLoads(BaseModel):
    model_config = IR_CONFIG
