"""Analysis steps, loads and boundary conditions of a model (the Load mode's host API).

Abaqus-like: ``model.steps`` always holds ``Initial``; a static step follows another one; a
load or boundary condition is created in a step, on a region that is a set of one of the
model's parts, and keeps that region as ``(part name, set name)``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from samConstants import UNSET, SymbolicConstant

from sam._checks import check_name, finite
from sam.regions import Set
from sam.repository import Repository, RepositoryKeyError

if TYPE_CHECKING:
    from sam.model import Model

INITIAL = "Initial"
DOFS = ("u1", "u2", "u3", "ur1", "ur2", "ur3")


class InitialStep:
    """The step every model starts with; it cannot be deleted."""

    kind = "initial"

    def __init__(self) -> None:
        self.name = INITIAL
        self.previous: str | None = None
        self.description = ""

    def __repr__(self) -> str:
        return "InitialStep('Initial')"


class StaticStep:
    """``model.StaticStep(name, previous='Initial', description='')``."""

    kind = "static"

    def __init__(self, name: str, previous: str, description: str) -> None:
        self.name = name
        self.previous: str | None = previous
        self.description = description

    def _rename(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"StaticStep({self.name!r}, previous={self.previous!r})"


Step = InitialStep | StaticStep


class StepRepository(Repository[Step]):
    """``model.steps``: ordered as the analysis runs; ``Initial`` first and never deleted.

    Deleting a step deletes the loads and boundary conditions created in it (as the host
    does); a step that another step follows cannot be deleted before that one.
    """

    __slots__ = ("_model",)

    def __init__(self, model: Model) -> None:
        super().__init__("step", f"model '{model.name}'")
        self._model = model
        self._items[INITIAL] = InitialStep()

    def __delitem__(self, key: str) -> None:
        if key == INITIAL:
            raise ValueError("the Initial step cannot be deleted")
        if key not in self:
            raise RepositoryKeyError(self._missing(key))
        followers = [step.name for step in self._items.values() if step.previous == key]
        if followers:
            raise ValueError(f"step '{key}' cannot be deleted while step '{followers[0]}' "
                             "follows it; delete that step first")
        self._model._forget_step(key)
        del self._items[key]

    def changeKey(self, fromName: str, toName: str) -> None:  # noqa: N802,N803 - host API
        if fromName == INITIAL:
            raise ValueError("the Initial step cannot be renamed")
        super().changeKey(fromName, toName)
        for step in self._items.values():
            if step.previous == fromName:
                step.previous = toName
        self._model._rename_step(fromName, toName)

    def _insert_after(self, step: StaticStep) -> None:
        """Place ``step`` right after its ``previous``; the step that followed it now follows
        ``step``."""
        ordered: dict[str, Step] = {}
        for name, existing in self._items.items():
            if existing.previous == step.previous and existing is not step:
                existing.previous = step.name
            ordered[name] = existing
            if name == step.previous:
                ordered[step.name] = step
        self._items = ordered


class _Applied:
    """What loads and boundary conditions share: a name, a step and a region."""

    kind = ""

    def __init__(self, name: str, step: str, region: tuple[str, str]) -> None:
        self.name = name
        self.createStepName = step
        self.region = region

    def _rename(self, name: str) -> None:
        self.name = name

    def values(self) -> dict[str, Any]:
        return {}

    def __repr__(self) -> str:
        inner = ", ".join(f"{key}={value!r}" for key, value in self.values().items())
        return (f"{type(self).__name__}({self.name!r}, createStepName={self.createStepName!r}, "
                f"region={self.region!r}{', ' if inner else ''}{inner})")


class Pressure(_Applied):
    kind = "pressure"

    def __init__(self, name: str, step: str, region: tuple[str, str], magnitude: float) -> None:
        super().__init__(name, step, region)
        self.magnitude = magnitude

    def values(self) -> dict[str, Any]:
        return {"magnitude": self.magnitude}


class ConcentratedForce(_Applied):
    kind = "force"

    def __init__(self, name: str, step: str, region: tuple[str, str],
                 components: tuple[float, float, float]) -> None:
        super().__init__(name, step, region)
        self.cf1, self.cf2, self.cf3 = components

    def values(self) -> dict[str, Any]:
        return {"cf1": self.cf1, "cf2": self.cf2, "cf3": self.cf3}


class EncastreBC(_Applied):
    kind = "encastre"


class DisplacementBC(_Applied):
    kind = "displacement"

    def __init__(self, name: str, step: str, region: tuple[str, str],
                 dofs: dict[str, float | SymbolicConstant]) -> None:
        super().__init__(name, step, region)
        for dof in DOFS:
            setattr(self, dof, dofs[dof])

    def values(self) -> dict[str, Any]:
        return {dof: getattr(self, dof) for dof in DOFS}


Load = Pressure | ConcentratedForce
BoundaryCondition = EncastreBC | DisplacementBC


def region_of(model: Model, region: Any, what: str) -> tuple[Set, tuple[str, str]]:
    """A set of one of ``model``'s parts, and the names the host keeps it by."""
    if not isinstance(region, Set):
        raise TypeError(f"{what} must be a set of a part (part.sets[name]); "
                        f"got {type(region).__name__}")
    part = region._part
    if model.parts.get(part.name) is not part:
        raise ValueError(f"{what}: set '{region.name}' belongs to a part that is not in "
                         f"model '{model.name}'")
    if part.sets.get(region.name) is not region:
        existing = ", ".join(f"'{key}'" for key in part.sets.keys()) or "none"
        raise ValueError(f"{what}: set '{region.name}' is no longer in part '{part.name}' "
                         f"(it was replaced or deleted); existing sets: {existing}")
    return region, (part.name, region.name)


def load_step(model: Model, step: Any) -> str:
    """A step a load may be created in: it exists and is not ``Initial``."""
    name = existing_step(model, step)
    if name == INITIAL:
        raise ValueError("loads cannot be created in the Initial step")
    return name


def existing_step(model: Model, step: Any) -> str:
    check_name(step, "createStepName")
    if step not in model.steps:
        raise RepositoryKeyError(model.steps._missing(step))
    return str(step)


def pressure_region(model: Model, region: Any) -> tuple[str, str]:
    found, names = region_of(model, region, "region")
    elements = found.elements
    if len(elements) == 0:
        raise ValueError(f"a pressure needs elements; set '{found.name}' holds none")
    from samConstants import BEAM

    beams = [element.label for element in elements if element.type == BEAM]
    if beams:
        raise ValueError(f"a pressure acts on QUAD and TRI faces only; set '{found.name}' "
                         f"holds BEAM element {beams[0]}")
    return names


def node_region(model: Model, region: Any, what: str) -> tuple[str, str]:
    found, names = region_of(model, region, "region")
    if len(found.nodes) == 0:
        raise ValueError(f"{what} needs nodes; set '{found.name}' holds none")
    return names


def dof_value(value: Any, dof: str) -> float | SymbolicConstant:
    if value is UNSET or (isinstance(value, SymbolicConstant) and value == UNSET):
        return UNSET
    if isinstance(value, SymbolicConstant):
        raise ValueError(f"{dof} must be a number or UNSET; got {value!r}")
    return finite(value, dof)
