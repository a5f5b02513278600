"""``mdb.saveAs`` / ``openMdb``: the database as one JSON document (``*.sam.json``).

Meshes are stored as flat columns (labels, coordinates, types, connectivity) so that a
200,000-entity part is a handful of long arrays: pydantic-core writes and parses them
(shortest round-trip float text, so coordinates come back bit for bit) and the schema
below validates them strictly before anything is built. Cross references (connectivity,
set members, sections, profiles) are checked while rebuilding into a *fresh* database, so
a bad file never touches the open one.
"""

from __future__ import annotations

import gc
import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from itertools import accumulate, repeat
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal

import pydantic_core
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from samConstants import N1_COSINES, SymbolicConstant

from sam.json_keys import repeated_key
from sam.mesh import MeshElementArray, MeshNodeArray, make_element, make_node
from sam.part import NODE_COUNT, SHAPE_CONSTANTS, Part
from sam.properties import (
    PROFILE_TYPES,
    BeamSection,
    Density,
    Elastic,
    HomogeneousShellSection,
    Material,
    checked_dimensions,
    density_table,
    elastic_table,
)
from sam.regions import BeamOrientation, SectionAssignment, Set, _RegionRef

if TYPE_CHECKING:
    from sam.database import Mdb
    from sam.model import Model

FORMAT_ID = "sam-stub-mdb"
FORMAT_VERSION = 1
SUFFIX = ".sam.json"


class MdbFileError(ValueError):
    """A database file that cannot be opened: names the file and what is wrong with it."""


# -- the file schema ---------------------------------------------------------------------
class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


PositiveInt = Annotated[int, Field(ge=1)]
Name = Annotated[str, Field(min_length=1)]
FiniteFloat = Annotated[float, Field(allow_inf_nan=False)]


class NodesDoc(_Strict):
    labels: list[PositiveInt]
    coordinates: list[FiniteFloat]


class ElementsDoc(_Strict):
    labels: list[PositiveInt]
    types: list[Literal["QUAD", "TRI", "BEAM"]]
    connectivity: list[PositiveInt]


class SetDoc(_Strict):
    name: Name
    nodes: list[PositiveInt]
    elements: list[PositiveInt]


class RegionDoc(_Strict):
    set: Name | None = None
    elements: list[PositiveInt] | None = None


class AssignmentDoc(_Strict):
    sectionName: Name  # noqa: N815 - host attribute name
    region: RegionDoc


class OrientationDoc(_Strict):
    method: Literal["N1_COSINES"]
    n1: tuple[float, float, float]
    region: RegionDoc


class PartDoc(_Strict):
    name: Name
    nextNodeLabel: PositiveInt  # noqa: N815
    nextElementLabel: PositiveInt  # noqa: N815
    nodes: NodesDoc
    elements: ElementsDoc
    sets: list[SetDoc]
    sectionAssignments: list[AssignmentDoc]  # noqa: N815
    beamOrientations: list[OrientationDoc]  # noqa: N815


class MaterialDoc(_Strict):
    name: Name
    elastic: list[tuple[float, float]] | None
    density: list[tuple[float]] | None


class ProfileDoc(_Strict):
    name: Name
    shape: Literal["rectangle", "circle", "pipe", "I"]
    dimensions: dict[str, float]


class SectionDoc(_Strict):
    name: Name
    kind: Literal["shell", "beam"]
    material: Name
    thickness: float | None = None
    profile: Name | None = None


class StepDoc(_Strict):
    name: Name
    previous: Name
    description: str = ""


class LoadRegionDoc(_Strict):
    part: Name
    set: Name


class LoadDoc(_Strict):
    name: Name
    kind: Literal["pressure", "force"]
    step: Name
    region: LoadRegionDoc
    magnitude: FiniteFloat | None = None
    vector: tuple[FiniteFloat, FiniteFloat, FiniteFloat] | None = None


class ConditionDoc(_Strict):
    name: Name
    kind: Literal["encastre", "displacement"]
    step: Name
    region: LoadRegionDoc
    # a displacement's fixed dofs; the others are UNSET
    values: dict[Literal["u1", "u2", "u3", "ur1", "ur2", "ur3"], FiniteFloat] | None = None


class ModelDoc(_Strict):
    name: Name
    materials: list[MaterialDoc]
    profiles: list[ProfileDoc]
    sections: list[SectionDoc]
    parts: list[PartDoc]
    # left out while a model has only the Initial step, no load and no boundary condition,
    # so that such a model is written exactly as before steps existed
    steps: list[StepDoc] = []
    loads: list[LoadDoc] = []
    boundaryConditions: list[ConditionDoc] = []  # noqa: N815 - host attribute name


class MdbDoc(_Strict):
    format: Literal["sam-stub-mdb"]
    version: Literal[1]
    models: list[ModelDoc]


# -- writing -----------------------------------------------------------------------------
def _region_doc(ref: _RegionRef) -> dict[str, Any]:
    if ref.set_name is not None:
        return {"set": ref.set_name}
    assert ref.elements is not None
    return {"elements": [element.label for element in ref.elements]}


def part_doc(part: Part) -> dict[str, Any]:
    coordinates: list[float] = []
    extend = coordinates.extend
    for node in part._nodes.values():
        extend(node.coordinates)
    connectivity: list[int] = []
    extend = connectivity.extend
    types = []
    for element in part._elements.values():
        types.append(element.type.name)
        extend(element.connectivity)
    return {
        "name": part.name,
        "nextNodeLabel": part._next_node,
        "nextElementLabel": part._next_element,
        "nodes": {"labels": list(part._nodes), "coordinates": coordinates},
        "elements": {"labels": list(part._elements), "types": types,
                     "connectivity": connectivity},
        "sets": [{"name": name, "nodes": [node.label for node in entry.nodes],
                  "elements": [element.label for element in entry.elements]}
                 for name, entry in part.sets.items()],
        "sectionAssignments": [{"sectionName": entry.sectionName,
                                "region": _region_doc(entry._region)}
                               for entry in part.sectionAssignments],
        "beamOrientations": [{"method": entry.method.name, "n1": list(entry.n1),
                              "region": _region_doc(entry._region)}
                             for entry in part.beamOrientations],
    }


def model_doc(model: Model) -> dict[str, Any]:
    return {**_properties_doc(model), **_loads_doc(model)}


def _loads_doc(model: Model) -> dict[str, Any]:
    """Steps after Initial, loads and boundary conditions; only the repositories that hold any."""
    steps = [{"name": step.name, "previous": step.previous, "description": step.description}
             for step in model.steps.values() if step.previous is not None]
    loads = [_load_doc(load) for load in model.loads.values()]
    conditions = [_condition_doc(condition) for condition in model.boundaryConditions.values()]
    written = {"steps": steps, "loads": loads, "boundaryConditions": conditions}
    return {key: value for key, value in written.items() if value}


def _load_doc(load: Any) -> dict[str, Any]:
    document = {"name": load.name, "kind": load.kind, "step": load.createStepName,
                "region": {"part": load.region[0], "set": load.region[1]}}
    if load.kind == "pressure":
        return {**document, "magnitude": load.magnitude}
    return {**document, "vector": [load.cf1, load.cf2, load.cf3]}


def _condition_doc(condition: Any) -> dict[str, Any]:
    document = {"name": condition.name, "kind": condition.kind,
                "step": condition.createStepName,
                "region": {"part": condition.region[0], "set": condition.region[1]}}
    if condition.kind == "encastre":
        return document
    return {**document, "values": {dof: value for dof, value in condition.values().items()
                                   if not isinstance(value, SymbolicConstant)}}


def _properties_doc(model: Model) -> dict[str, Any]:
    return {
        "name": model.name,
        "materials": [{"name": m.name,
                       "elastic": None if m.elastic is None else [list(r) for r in m.elastic.table],
                       "density": None if m.density is None else [list(r) for r in m.density.table]}
                      for m in model.materials.values()],
        "profiles": [{"name": p.name, "shape": p.shape, "dimensions": p.dimensions()}
                     for p in model.profiles.values()],
        "sections": [_section_doc(s) for s in model.sections.values()],
        "parts": [part_doc(part) for part in model.parts.values()],
    }


def _section_doc(section: Any) -> dict[str, Any]:
    if section.kind == "shell":
        return {"name": section.name, "kind": "shell", "material": section.material,
                "thickness": section.thickness}
    return {"name": section.name, "kind": "beam", "material": section.material,
            "profile": section.profile}


def mdb_doc(mdb: Mdb) -> dict[str, Any]:
    return {"format": FORMAT_ID, "version": FORMAT_VERSION,
            "models": [model_doc(model) for model in mdb.models.values()]}


def save(mdb: Mdb, path_name: Any) -> str:
    """Write the database atomically; returns the path written (``.sam.json`` appended)."""
    if not isinstance(path_name, (str, os.PathLike)):
        raise TypeError(f"pathName must be a path string; got {type(path_name).__name__}")
    path = Path(path_name)
    if not path.name.endswith(SUFFIX):
        path = path.with_name(path.name + SUFFIX)
    payload = pydantic_core.to_json(mdb_doc(mdb))
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=path.name, suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(payload)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return str(path)


# -- reading -----------------------------------------------------------------------------
class _Corrupt(Exception):
    """A broken cross reference found while rebuilding (becomes an MdbFileError)."""


def load(path_name: Any) -> Mdb:
    """A new database read from ``path_name``; nothing global changes here."""
    if not isinstance(path_name, (str, os.PathLike)):
        raise TypeError(f"pathName must be a path string; got {type(path_name).__name__}")
    path = Path(path_name)
    raw = path.read_bytes()
    try:
        document = MdbDoc.model_validate_json(raw)
    except ValidationError as error:
        raise _explain(path, raw, error) from None
    twice = repeated_key(raw)
    if twice is not None:
        raise MdbFileError(f"cannot open '{path}': key {twice!r} appears twice in one object; "
                           "a database names each field once")
    try:
        with _collector_paused():
            return build_mdb(document)
    except _Corrupt as error:
        raise MdbFileError(f"cannot open '{path}': {error}") from None


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector while a load creates 400,000 objects at once.

    Measured on the seed's grid: with the collector running, repeated full collections over
    the growing heap cost about as much as building the objects; nothing built here is
    cyclic garbage. The previous state is restored however the build ends.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _explain(path: Path, raw: bytes, error: ValidationError) -> MdbFileError:
    """The clearest reason a file failed validation: not JSON, foreign, newer, or where."""
    try:
        data = pydantic_core.from_json(raw)
    except ValueError as parse_error:
        return MdbFileError(f"cannot open '{path}': not a JSON document ({parse_error})")
    try:
        _check_header(path, data)
    except MdbFileError as header_error:
        return header_error
    first = error.errors()[0]
    where = ".".join(str(part) for part in first["loc"])
    return MdbFileError(f"cannot open '{path}': invalid database at {where}: {first['msg']} "
                        f"({error.error_count()} problem(s) in all)")


def _check_header(path: Path, data: Any) -> None:
    if not isinstance(data, dict) or data.get("format") != FORMAT_ID:
        found = data.get("format") if isinstance(data, dict) else type(data).__name__
        raise MdbFileError(f"cannot open '{path}': not a SAM database (format is {found!r}, "
                           f"expected '{FORMAT_ID}')")
    version = data.get("version")
    if not isinstance(version, int) or isinstance(version, bool):
        raise MdbFileError(f"cannot open '{path}': the format version must be an integer; "
                           f"got {version!r}")
    if version > FORMAT_VERSION:
        raise MdbFileError(f"cannot open '{path}': written by a newer SAM (format version "
                           f"{version}; this SAM reads versions up to {FORMAT_VERSION})")
    if version < 1:
        raise MdbFileError(f"cannot open '{path}': unknown format version {version}")


def build_mdb(document: MdbDoc) -> Mdb:
    from sam.database import Mdb

    mdb = Mdb(empty=True)
    for model_document in document.models:
        if model_document.name in mdb.models:
            raise _Corrupt(f"model '{model_document.name}' appears twice")
        mdb.models._store(model_document.name, build_model(model_document))
    return mdb


def build_model(document: ModelDoc, name: str | None = None) -> Model:
    from sam.model import Model

    model = Model(name or document.name)
    where = f"model '{model.name}'"
    for entry in document.materials:
        _unique(model.materials, entry.name, "material", where)
        material = Material(entry.name)
        try:
            if entry.elastic is not None:
                material.elastic = Elastic(elastic_table(entry.elastic))
            if entry.density is not None:
                material.density = Density(density_table(entry.density))
        except (TypeError, ValueError) as error:
            raise _Corrupt(f"material '{entry.name}' in {where}: {error}") from None
        model.materials._store(entry.name, material)
    for entry in document.profiles:
        _unique(model.profiles, entry.name, "profile", where)
        kind = PROFILE_TYPES[entry.shape]
        if set(entry.dimensions) != set(kind.fields):
            raise _Corrupt(f"profile '{entry.name}' in {where} needs dimensions "
                           f"{', '.join(kind.fields)}; got {', '.join(entry.dimensions)}")
        try:
            dims = checked_dimensions(entry.shape, entry.name, dict(entry.dimensions))
        except (TypeError, ValueError) as error:
            raise _Corrupt(f"{error} (in {where})") from None
        model.profiles._store(entry.name, kind(entry.name, **dims))
    for entry in document.sections:
        _unique(model.sections, entry.name, "section", where)
        model.sections._store(entry.name, _build_section(model, entry, where))
    for entry in document.parts:
        _unique(model.parts, entry.name, "part", where)
        model.parts._store(entry.name, build_part(entry, model))
    _build_loads(model, document, where)
    return model


def _build_loads(model: Model, document: ModelDoc, where: str) -> None:
    """Steps in their order, then loads and boundary conditions, held to the host's rules.

    A region is kept by its names, as the host keeps it: a set deleted after the load was
    created leaves the load on an empty region, and such a file opens as it was saved.
    """
    try:
        for step in document.steps:
            _unique(model.steps, step.name, "step", where)
            model.StaticStep(step.name, previous=step.previous, description=step.description)
        for load in document.loads:
            _unique(model.loads, load.name, "load", where)
            model.loads._store(load.name, _build_load(model, load, where))
        for condition in document.boundaryConditions:
            _unique(model.boundaryConditions, condition.name, "boundary condition", where)
            model.boundaryConditions._store(condition.name,
                                            _build_condition(model, condition, where))
    except (KeyError, TypeError, ValueError) as error:
        raise _Corrupt(f"{error} (in {where})") from None


def _build_load(model: Model, load: LoadDoc, where: str) -> Any:
    from sam.loads import ConcentratedForce, Pressure, load_step

    step = load_step(model, load.step)
    region = (load.region.part, load.region.set)
    if load.kind == "pressure":
        if load.magnitude is None or load.vector is not None:
            raise _Corrupt(f"pressure '{load.name}' in {where} needs a magnitude and no vector")
        return Pressure(load.name, step, region, load.magnitude)
    if load.vector is None or load.magnitude is not None:
        raise _Corrupt(f"force '{load.name}' in {where} needs a vector and no magnitude")
    return ConcentratedForce(load.name, step, region, load.vector)


def _build_condition(model: Model, condition: ConditionDoc, where: str) -> Any:
    from samConstants import UNSET

    from sam.loads import DOFS, DisplacementBC, EncastreBC, existing_step

    step = existing_step(model, condition.step)
    region = (condition.region.part, condition.region.set)
    if condition.kind == "encastre":
        if condition.values is not None:
            raise _Corrupt(f"encastre condition '{condition.name}' in {where} has no values")
        return EncastreBC(condition.name, step, region)
    values = condition.values or {}
    return DisplacementBC(condition.name, step, region,
                          {dof: values.get(dof, UNSET) for dof in DOFS})


def _unique(repository: Any, name: str, kind: str, where: str) -> None:
    if name in repository:
        raise _Corrupt(f"{kind} '{name}' appears twice in {where}")


def _build_section(model: Model, entry: SectionDoc, where: str) -> Any:
    if entry.material not in model.materials:
        raise _Corrupt(f"section '{entry.name}' in {where} uses material '{entry.material}', "
                       "which does not exist")
    if entry.kind == "shell":
        if entry.thickness is None or not entry.thickness > 0 or entry.profile is not None:
            raise _Corrupt(f"shell section '{entry.name}' in {where} needs a thickness > 0 "
                           "and no profile")
        return HomogeneousShellSection(entry.name, entry.material, entry.thickness)
    if entry.profile is None or entry.profile not in model.profiles or entry.thickness is not None:
        raise _Corrupt(f"beam section '{entry.name}' in {where} needs an existing profile "
                       f"and no thickness; got profile {entry.profile!r}")
    return BeamSection(entry.name, entry.material, entry.profile)


def build_part(document: PartDoc, model: Model, name: str | None = None,
               check_sections: bool = True) -> Part:
    part = Part(model, name or document.name)
    where = f"part '{part.name}'"
    _build_nodes(part, document.nodes, where)
    _build_elements(part, document.elements, where)
    max_node = max(part._nodes, default=0)
    max_element = max(part._elements, default=0)
    if document.nextNodeLabel <= max_node or document.nextElementLabel <= max_element:
        raise _Corrupt(f"{where}: the next labels ({document.nextNodeLabel}, "
                       f"{document.nextElementLabel}) must exceed the largest labels in use "
                       f"({max_node}, {max_element})")
    part._next_node = document.nextNodeLabel
    part._next_element = document.nextElementLabel
    for entry in document.sets:
        if entry.name in part.sets:
            raise _Corrupt(f"set '{entry.name}' appears twice in {where}")
        nodes = _pick(part._nodes, entry.nodes, f"set '{entry.name}' in {where}", "node")
        elements = _pick(part._elements, entry.elements, f"set '{entry.name}' in {where}",
                         "element")
        part.sets._store(entry.name, Set(part, entry.name, MeshNodeArray._subset(part, nodes),
                                         MeshElementArray._subset(part, elements)))
    for i, assignment in enumerate(document.sectionAssignments):
        what = f"section assignment {i} in {where}"
        if check_sections and assignment.sectionName not in model.sections:
            raise _Corrupt(f"{what} uses section '{assignment.sectionName}', which does not "
                           "exist")
        part.sectionAssignments._append(SectionAssignment(
            part, _build_region(part, assignment.region, what), assignment.sectionName))
    for i, orientation in enumerate(document.beamOrientations):
        what = f"beam orientation {i} in {where}"
        if orientation.n1 == (0.0, 0.0, 0.0):
            raise _Corrupt(f"{what}: n1 is the zero vector")
        part.beamOrientations._append(BeamOrientation(
            part, _build_region(part, orientation.region, what),
            _constant(orientation.method), orientation.n1))
    return part


def _constant(name: str) -> SymbolicConstant:
    assert name == "N1_COSINES"
    return N1_COSINES


def _build_nodes(part: Part, document: NodesDoc, where: str) -> None:
    labels = document.labels
    flat = document.coordinates
    if len(flat) != 3 * len(labels):
        raise _Corrupt(f"{where}: {len(labels)} node labels need {3 * len(labels)} "
                       f"coordinates; got {len(flat)}")
    # bulk operations in C (zip, map): a 200,000-node part loads without a Python loop body
    column = iter(flat)
    points = zip(column, column, column, strict=False)
    part._nodes.update(zip(labels, map(make_node, repeat(part), labels, points), strict=True))
    if len(part._nodes) != len(labels):
        raise _Corrupt(f"{where}: node labels repeat")


def _build_elements(part: Part, document: ElementsDoc, where: str) -> None:
    labels = document.labels
    types = document.types
    flat = document.connectivity
    if len(types) != len(labels):
        raise _Corrupt(f"{where}: {len(labels)} element labels but {len(types)} types")
    counts = list(map(NODE_COUNT.__getitem__, types))
    total = sum(counts)
    if total > len(flat):
        raise _Corrupt(f"{where}: the element connectivity list is too short")
    if total < len(flat):
        raise _Corrupt(f"{where}: the element connectivity list is too long")
    nodes = part._nodes
    if len(set(types)) == 1:
        column = iter(flat)
        connectivities = list(zip(*([column] * counts[0]), strict=False))
    else:
        ends = list(accumulate(counts))
        connectivities = list(map(flat.__getitem__, map(slice, [0, *ends[:-1]], ends)))
    if not nodes.keys() >= set(flat) or sum(map(len, map(set, connectivities))) != total:
        for label, connectivity in zip(labels, connectivities, strict=True):
            for node_label in connectivity:
                if node_label not in nodes:
                    raise _Corrupt(f"{where}: element {label} uses node {node_label}, which "
                                   "does not exist")
            if len(set(connectivity)) != len(connectivity):
                raise _Corrupt(f"{where}: element {label} uses a node twice")
    shapes = map(SHAPE_CONSTANTS.__getitem__, types)
    part._elements.update(zip(labels, map(make_element, repeat(part), labels, shapes,
                                          map(tuple, connectivities)), strict=True))
    if len(part._elements) != len(labels):
        raise _Corrupt(f"{where}: element labels repeat")


def _pick(store: dict[int, Any], labels: list[int], what: str, noun: str) -> tuple[Any, ...]:
    picked = {}
    for label in labels:
        entity = store.get(label)
        if entity is None:
            raise _Corrupt(f"{what} lists {noun} {label}, which does not exist")
        picked[label] = entity
    return tuple(picked.values())


def _build_region(part: Part, document: RegionDoc, what: str) -> _RegionRef:
    if (document.set is None) == (document.elements is None):
        raise _Corrupt(f"{what}: a region names either a set or element labels")
    if document.set is not None:
        return _RegionRef(part, document.set, None)
    elements = _pick(part._elements, document.elements or [], what, "element")
    return _RegionRef(part, None, MeshElementArray._subset(part, elements))


# -- copies --------------------------------------------------------------------------------
def copy_part(source: Part, model: Model, name: str) -> Part:
    """A deep copy of ``source`` named ``name`` in ``model`` (same labels, fresh objects)."""
    document = PartDoc.model_validate_json(pydantic_core.to_json(part_doc(source)))
    # a copy into another model keeps its assignments even where that model lacks the section
    return build_part(document, model, name, check_sections=False)


def copy_model(source: Model, name: str) -> Model:
    document = ModelDoc.model_validate_json(pydantic_core.to_json(model_doc(source)))
    return build_model(document, name)
