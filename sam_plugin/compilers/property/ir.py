"""Typed IR of the Property tools (docs/architecture.md §4): define_property, assign_property,
audit_property.

Rules the JSON Schema states (positive moduli, thicknesses, dimensions) live in ``schema.py``;
what it cannot state (Poisson's ratio range, profile consistency, unique names) lives here, so
a pydantic error is already an actionable diagnostic. Values are in the model's units.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field, field_validator, model_validator

from sam_plugin.compilers.ir_common import IR_CONFIG, Coord, Name, Vec3
from sam_plugin.compilers.selectors import Selector


class MaterialDef(BaseModel):
    model_config = IR_CONFIG

    name: Name
    youngs_modulus: Coord
    poisson_ratio: Coord
    density: Coord | None = None

    @field_validator("poisson_ratio")
    @classmethod
    def _poisson_range(cls, value: float) -> float:
        if not -1.0 < value < 0.5:
            raise ValueError(
                f"Poisson's ratio must lie strictly between -1 and 0.5; got {value}"
            )
        return value


class RectangleProfile(BaseModel):
    model_config = IR_CONFIG

    shape: Literal["rectangle"]
    a: Coord
    b: Coord


class CircleProfile(BaseModel):
    model_config = IR_CONFIG

    shape: Literal["circle"]
    r: Coord


class PipeProfile(BaseModel):
    model_config = IR_CONFIG

    shape: Literal["pipe"]
    r: Coord
    t: Coord

    @model_validator(mode="after")
    def _consistent(self) -> PipeProfile:
        if self.t >= self.r:
            raise ValueError(
                f"pipe wall thickness t={self.t} must be less than the outer radius "
                f"r={self.r} (a solid bar is shape circle)"
            )
        return self


class IProfile(BaseModel):
    model_config = IR_CONFIG

    shape: Literal["I"]
    l: Coord  # noqa: E741 - the host's name for the offset of the section origin
    h: Coord
    b1: Coord
    b2: Coord
    t1: Coord
    t2: Coord
    t3: Coord

    @model_validator(mode="after")
    def _consistent(self) -> IProfile:
        if self.l > self.h:
            raise ValueError(
                f"I profile l={self.l} (origin offset from the bottom flange) must not "
                f"exceed the height h={self.h}"
            )
        if self.t1 + self.t2 >= self.h:
            raise ValueError(
                f"I profile flange thicknesses t1 + t2 = {self.t1 + self.t2} must be less "
                f"than the height h={self.h}"
            )
        if self.t3 >= min(self.b1, self.b2):
            raise ValueError(
                f"I profile web thickness t3={self.t3} must be less than both flange widths "
                f"b1={self.b1} and b2={self.b2}"
            )
        return self


Profile = Annotated[
    RectangleProfile | CircleProfile | PipeProfile | IProfile, Field(discriminator="shape")
]


class ShellSectionDef(BaseModel):
    model_config = IR_CONFIG

    name: Name
    kind: Literal["shell"]
    material: Name
    thickness: Coord


class BeamSectionDef(BaseModel):
    model_config = IR_CONFIG

    name: Name
    kind: Literal["beam"]
    material: Name
    profile: Profile


SectionDef = Annotated[ShellSectionDef | BeamSectionDef, Field(discriminator="kind")]


def _duplicates(names: list[str]) -> list[str]:
    seen: set[str] = set()
    repeated: list[str] = []
    for name in names:
        if name in seen and name not in repeated:
            repeated.append(name)
        seen.add(name)
    return repeated


class DefineProperty(BaseModel):
    model_config = IR_CONFIG

    materials: tuple[MaterialDef, ...] = ()
    sections: tuple[SectionDef, ...] = ()

    @model_validator(mode="after")
    def _something_unique(self) -> DefineProperty:
        if not self.materials and not self.sections:
            raise ValueError("define_property needs at least one material or section")
        for field, items in (("materials", self.materials), ("sections", self.sections)):
            repeated = _duplicates([item.name for item in items])
            if repeated:
                raise ValueError(
                    f"{field}: name(s) {', '.join(repeated)} appear more than once; "
                    "each name is defined once per call"
                )
        return self


class SectionAssignmentSpec(BaseModel):
    model_config = IR_CONFIG

    section: Name
    selection: Selector


class BeamOrientationSpec(BaseModel):
    model_config = IR_CONFIG

    selection: Selector
    n1: Vec3

    @field_validator("n1")
    @classmethod
    def _nonzero(cls, value: tuple[float, float, float]) -> tuple[float, float, float]:
        if all(c == 0 for c in value):
            raise ValueError("n1 must not be the zero vector; give the beam's 1-direction")
        return value


class AssignProperty(BaseModel):
    model_config = IR_CONFIG

    assignments: tuple[SectionAssignmentSpec, ...] = ()
    beam_orientations: tuple[BeamOrientationSpec, ...] = ()

    @model_validator(mode="after")
    def _something(self) -> AssignProperty:
        if not self.assignments and not self.beam_orientations:
            raise ValueError(
                "assign_property needs at least one entry in assignments or beam_orientations"
            )
        return self


class AuditProperty(BaseModel):
    model_config = IR_CONFIG
