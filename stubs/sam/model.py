"""A model: parts, materials, profiles, sections, steps, loads and boundary conditions."""

from __future__ import annotations

from typing import Any

from samConstants import UNSET

from sam import loads as load_api
from sam._checks import check_name, finite, positive, reject_keywords
from sam.loads import (
    DOFS,
    BoundaryCondition,
    ConcentratedForce,
    DisplacementBC,
    EncastreBC,
    Load,
    Pressure,
    StaticStep,
    StepRepository,
)
from sam.part import Part
from sam.properties import (
    BeamSection,
    HomogeneousShellSection,
    Material,
    Profile,
    checked_dimensions,
)
from sam.repository import Repository


class Model:
    """``mdb.Model(name)``: ``.name``, ``.parts``, ``.materials``, ``.sections``, ``.profiles``,
    ``.steps`` (always ``Initial`` first), ``.loads`` and ``.boundaryConditions``."""

    def __init__(self, name: str) -> None:
        self.name = name
        owner = self._owner()
        self.parts: Repository[Part] = Repository("part", owner)
        self.materials: Repository[Material] = Repository("material", owner)
        self.sections: Repository[HomogeneousShellSection | BeamSection] = Repository(
            "section", owner)
        self.profiles: Repository[Profile] = Repository("profile", owner)
        self.steps = StepRepository(self)
        self.loads: Repository[Load] = Repository("load", owner)
        self.boundaryConditions: Repository[BoundaryCondition] = Repository(
            "boundary condition", owner)

    def _owner(self) -> str:
        return f"model '{self.name}'"

    def _rename(self, name: str) -> None:
        self.name = name
        for repository in (self.parts, self.materials, self.sections, self.profiles,
                           self.steps, self.loads, self.boundaryConditions):
            repository._set_owner(self._owner())

    def __repr__(self) -> str:
        return f"mdb.models[{self.name!r}]"

    # -- parts -------------------------------------------------------------------------
    def Part(self, name: Any = None, objectToCopy: Any = None,  # noqa: N802,N803 - host API
             **extra: Any) -> Part:
        reject_keywords(extra)
        check_name(name, "name")
        if objectToCopy is None:
            part = Part(self, name)
        else:
            if not isinstance(objectToCopy, Part):
                raise TypeError(f"objectToCopy must be a Part; got "
                                f"{type(objectToCopy).__name__}")
            from sam.storage import copy_part

            part = copy_part(objectToCopy, self, name)
        self.parts._store(name, part)
        return part

    # -- materials and sections --------------------------------------------------------
    def Material(self, name: Any = None, **extra: Any) -> Material:  # noqa: N802 - host API
        reject_keywords(extra)
        check_name(name, "name")
        material = Material(name)
        self.materials._store(name, material)
        return material

    def _existing(self, repository: Repository[Any], kind: str, name: Any, what: str) -> str:
        check_name(name, what)
        if name not in repository:
            existing = ", ".join(f"'{key}'" for key in repository.keys()) or "none"
            raise ValueError(f"{kind} '{name}' does not exist in model '{self.name}'; "
                             f"existing {kind}s: {existing}")
        return name

    def HomogeneousShellSection(  # noqa: N802 - host API name
        self, name: Any = None, material: Any = None, thickness: Any = None, **extra: Any
    ) -> HomogeneousShellSection:
        reject_keywords(extra)
        check_name(name, "name")
        material_name = self._existing(self.materials, "material", material, "material")
        if thickness is None:
            raise TypeError("HomogeneousShellSection needs thickness")
        section = HomogeneousShellSection(name, material_name,
                                          positive(thickness, "thickness"))
        self.sections._store(name, section)
        return section

    def BeamSection(  # noqa: N802 - host API name
        self, name: Any = None, material: Any = None, profile: Any = None, **extra: Any
    ) -> BeamSection:
        reject_keywords(extra)
        check_name(name, "name")
        material_name = self._existing(self.materials, "material", material, "material")
        profile_name = self._existing(self.profiles, "profile", profile, "profile")
        section = BeamSection(name, material_name, profile_name)
        self.sections._store(name, section)
        return section

    def _profile(self, shape: str, name: Any, values: dict[str, Any]) -> Profile:
        from sam.properties import PROFILE_TYPES

        check_name(name, "name")
        kind = PROFILE_TYPES[shape]
        for field in kind.fields:
            if values.get(field) is None:
                raise TypeError(f"{kind.__name__} needs {field}")
        profile = kind(name, **checked_dimensions(shape, name, values))
        self.profiles._store(name, profile)
        return profile

    def RectangularProfile(self, name: Any = None, a: Any = None,  # noqa: N802 - host API
                           b: Any = None, **extra: Any) -> Profile:
        reject_keywords(extra)
        return self._profile("rectangle", name, {"a": a, "b": b})

    def CircularProfile(self, name: Any = None, r: Any = None,  # noqa: N802 - host API
                        **extra: Any) -> Profile:
        reject_keywords(extra)
        return self._profile("circle", name, {"r": r})

    def PipeProfile(self, name: Any = None, r: Any = None,  # noqa: N802 - host API
                    t: Any = None, **extra: Any) -> Profile:
        reject_keywords(extra)
        return self._profile("pipe", name, {"r": r, "t": t})

    def IProfile(  # noqa: N802 - host API name
        self, name: Any = None, l: Any = None, h: Any = None,  # noqa: E741
        b1: Any = None, b2: Any = None, t1: Any = None, t2: Any = None, t3: Any = None,
        **extra: Any,
    ) -> Profile:
        reject_keywords(extra)
        return self._profile("I", name, {"l": l, "h": h, "b1": b1, "b2": b2,
                                         "t1": t1, "t2": t2, "t3": t3})

    # -- steps, loads and boundary conditions ------------------------------------------
    def StaticStep(self, name: Any = None, previous: Any = "Initial",  # noqa: N802 - host API
                   description: Any = "", **extra: Any) -> StaticStep:
        reject_keywords(extra)
        check_name(name, "name")
        self._new_name(self.steps, "step", name)
        previous_name = load_api.existing_step(self, previous)
        if not isinstance(description, str):
            raise TypeError(f"description must be a string; got {type(description).__name__}")
        step = StaticStep(name, previous_name, description)
        self.steps._insert_after(step)
        return step

    def Pressure(self, name: Any = None, createStepName: Any = None,  # noqa: N802,N803
                 region: Any = None, magnitude: Any = None, **extra: Any) -> Pressure:
        reject_keywords(extra)
        check_name(name, "name")
        self._new_name(self.loads, "load", name)
        step = load_api.load_step(self, createStepName)
        names = load_api.pressure_region(self, region)
        if magnitude is None:
            raise TypeError("Pressure needs magnitude")
        load = Pressure(name, step, names, finite(magnitude, "magnitude"))
        self.loads._store(name, load)
        return load

    def ConcentratedForce(self, name: Any = None,  # noqa: N802 - host API name
                          createStepName: Any = None, region: Any = None,  # noqa: N803
                          cf1: Any = 0.0, cf2: Any = 0.0, cf3: Any = 0.0,
                          **extra: Any) -> ConcentratedForce:
        reject_keywords(extra)
        check_name(name, "name")
        self._new_name(self.loads, "load", name)
        step = load_api.load_step(self, createStepName)
        names = load_api.node_region(self, region, "a concentrated force")
        components = (finite(cf1, "cf1"), finite(cf2, "cf2"), finite(cf3, "cf3"))
        load = ConcentratedForce(name, step, names, components)
        self.loads._store(name, load)
        return load

    def EncastreBC(self, name: Any = None, createStepName: Any = None,  # noqa: N802,N803
                   region: Any = None, **extra: Any) -> EncastreBC:
        reject_keywords(extra)
        check_name(name, "name")
        self._new_name(self.boundaryConditions, "boundary condition", name)
        step = load_api.existing_step(self, createStepName)
        names = load_api.node_region(self, region, "a boundary condition")
        condition = EncastreBC(name, step, names)
        self.boundaryConditions._store(name, condition)
        return condition

    def DisplacementBC(self, name: Any = None,  # noqa: N802 - host API name
                       createStepName: Any = None, region: Any = None,  # noqa: N803
                       **dofs_and_extra: Any) -> DisplacementBC:
        extra = {key: value for key, value in dofs_and_extra.items() if key not in DOFS}
        reject_keywords(extra)
        check_name(name, "name")
        self._new_name(self.boundaryConditions, "boundary condition", name)
        step = load_api.existing_step(self, createStepName)
        names = load_api.node_region(self, region, "a boundary condition")
        dofs = {dof: load_api.dof_value(dofs_and_extra.get(dof, UNSET), dof) for dof in DOFS}
        condition = DisplacementBC(name, step, names, dofs)
        self.boundaryConditions._store(name, condition)
        return condition

    def _new_name(self, repository: Repository[Any], kind: str, name: str) -> None:
        if name in repository:
            raise ValueError(f"a {kind} named '{name}' already exists in model '{self.name}'")

    def _forget_step(self, step: str) -> None:
        """The host deletes what was created in a deleted step."""
        for repository in (self.loads, self.boundaryConditions):
            for key, entry in repository.items():
                if entry.createStepName == step:
                    del repository._items[key]

    def _rename_step(self, old: str, new: str) -> None:
        for repository in (self.loads, self.boundaryConditions):
            for entry in repository.values():
                if entry.createStepName == old:
                    entry.createStepName = new
