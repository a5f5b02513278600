"""Snapshot and restore of the target part (and the model's property definitions).

Runs inside the one composed script: ``take`` before the first mutation, ``restore_quietly``
in the script's ``except`` (and the host gateway calls ``restore`` after a failed
verification or for an undo). Nothing is ever created in the model tree for it (I14): the
snapshot is plain data held by Python (labels, coordinate and connectivity tuples, names).

Mechanism, chosen by measurement on the 188,356-node part (bench/snapshot_scale.py, CPU
time; a plain scan of coordinates and connectivity takes 12 ms): a host copy through
``objectToCopy`` costs 0.6 s on every run and puts a part in ``model.parts``; running on a
copy costs the same copy plus a swap; rebuilding the whole part through the API costs
0.53 s. This plain-data snapshot costs 20 ms on every run (five attribute reads per entity,
11 MB of lists) and the restore only repairs what differs (36 ms after a transform moved 10%
of the nodes, a third of it the host's ``editNode``; 30 ms after an edit appended a row):
moved nodes through one ``editNode``, the tail of the creation order from the first changed
label on (deleted and re-created with its labels, so the host's order, which the
fingerprint sees, comes back), then sets, assignments, orientations and property
definitions that differ. A failed run that touched little costs little; one that rewrote
everything costs a rebuild (0.87 s after a merge near the start). A host that refuses to
hand out a used label again gets that rebuild in a fresh part, swapped in under the part's
name.

The host keeps its next free label to itself (no API reads or sets it): after a restore of a
run that created entities, the labels the run consumed stay consumed, as SAM never reuses a
label. Everything the API can read is back exactly, in the host's order.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field
from itertools import compress, count
from operator import attrgetter, is_, is_not, ne
from typing import Any

_LABEL = attrgetter("label")

# host calls the mechanism needs (checked at load and before a snapshot; see ``missing``)
PART_CALLS = ("Node", "Element", "deleteNode", "deleteElement", "editNode", "Set",
              "SectionAssignment", "assignBeamSectionOrientation")
MODEL_CALLS = ("Part", "Material", "HomogeneousShellSection", "BeamSection",
               "RectangularProfile", "CircularProfile", "PipeProfile", "IProfile")
PROFILE_FIELDS = {
    "RectangularProfile": ("a", "b"),
    "CircularProfile": ("r",),
    "PipeProfile": ("r", "t"),
    "IProfile": ("l", "h", "b1", "b2", "t1", "t2", "t3"),
}

Region = tuple[str, Any]  # ("set", name) or ("elements", [labels])


@dataclass(eq=False)
class PartState:
    """A part as plain data, in the host's order."""

    node_labels: list[int]
    coordinates: list[tuple[float, float, float]]
    element_labels: list[int]
    element_types: list[Any]  # the host's shape constants (immutable symbols)
    connectivity: list[tuple[int, ...]]
    sets: list[tuple[str, list[int], list[int]]]
    assignments: list[tuple[str, Region]]
    orientations: list[tuple[str, tuple[float, float, float], Region]]
    # identity tokens only, never read: the same live host object in the same place has the
    # same label, so a restore need not read labels where they match (None once on disk)
    node_objects: tuple[Any, ...] | None = None
    element_objects: tuple[Any, ...] | None = None


@dataclass(eq=False)
class Definitions:
    """The model's materials, profiles and sections as plain data, in the host's order."""

    materials: list[tuple[str, Any, Any]]
    profiles: list[tuple[str, str, tuple[float, ...]]]
    sections: list[tuple[str, str, str, Any]]


@dataclass(eq=False)
class Snapshot:
    """What ``take`` captured; ``missing`` lists host calls lacking (then nothing is held)."""

    part_name: str
    part: PartState | None  # None: the part did not exist
    definitions: Definitions | None
    missing: list[str] = field(default_factory=list)

    @property
    def usable(self) -> bool:
        return not self.missing

    def memory_bytes(self) -> int:
        """Bytes of the lists this snapshot holds (not counting values shared with the host)."""
        import sys

        state = self.part
        if state is None:
            return 0
        total = sum(sys.getsizeof(column) for column in (
            state.node_labels, state.coordinates, state.element_labels, state.element_types,
            state.connectivity, state.node_objects or (), state.element_objects or ()))
        for _name, nodes, elements in state.sets:
            total += sys.getsizeof(nodes) + sys.getsizeof(elements)
        return total


# -- capability -------------------------------------------------------------------------------


def missing(model: Any, part: Any = None) -> list[str]:
    """Host calls the snapshot mechanism needs that ``model`` (and ``part``) lack."""
    lacking = []
    if model is not None:
        lacking += [f"Model.{name}" for name in MODEL_CALLS if not callable(
            getattr(model, name, None))]
        for repository in ("parts", "materials", "sections", "profiles"):
            if not hasattr(getattr(model, repository, None), "__delitem__"):
                lacking.append(f"del model.{repository}[name]")
    if part is not None:
        lacking += [f"Part.{name}" for name in PART_CALLS if not callable(
            getattr(part, name, None))]
        for entries in ("sectionAssignments", "beamOrientations"):
            if not hasattr(getattr(part, entries, None), "__delitem__"):
                lacking.append(f"del part.{entries}[i]")
        if not hasattr(getattr(part, "sets", None), "__delitem__"):
            lacking.append("del part.sets[name]")
    return lacking


# -- capture ----------------------------------------------------------------------------------


def take(model: Any, part_name: str) -> Snapshot:
    """Capture the part ``part_name`` of ``model`` and the model's property definitions."""
    part = model.parts[part_name] if part_name in model.parts.keys() else None
    lacking = missing(model, part)
    if lacking:
        return Snapshot(part_name=part_name, part=None, definitions=None, missing=lacking)
    return Snapshot(part_name=part_name, part=None if part is None else capture_part(part),
                    definitions=capture_definitions(model))


def capture_part(part: Any) -> PartState:
    # comprehensions, not map(attrgetter): measured 30% faster on slotted host entities
    nodes = tuple(part.nodes)
    elements = tuple(part.elements)
    return PartState(
        node_labels=[n.label for n in nodes],
        coordinates=[n.coordinates for n in nodes],
        element_labels=[e.label for e in elements],
        element_types=[e.type for e in elements],
        connectivity=[e.connectivity for e in elements],
        sets=_capture_sets(part),
        assignments=[(a.sectionName, _region_of(part, a.region))
                     for a in part.sectionAssignments],
        orientations=[(str(o.method), tuple(o.n1), _region_of(part, o.region))
                      for o in part.beamOrientations],
        node_objects=nodes,
        element_objects=elements,
    )


def _capture_sets(part: Any) -> list[tuple[str, list[int], list[int]]]:
    sets = []
    for name in part.sets.keys():
        entry = part.sets[name]
        sets.append((name, list(map(_LABEL, entry.nodes)), list(map(_LABEL, entry.elements))))
    return sets


def _region_of(part: Any, region: Any) -> Region:
    name = getattr(region, "name", None)
    if isinstance(name, str) and name in part.sets.keys() and part.sets[name] is region:
        return ("set", name)
    return ("elements", list(map(_LABEL, region.elements)))


def capture_definitions(model: Any) -> Definitions:
    materials = []
    for name in model.materials.keys():
        material = model.materials[name]
        materials.append((name, _table(getattr(material, "elastic", None)),
                          _table(getattr(material, "density", None))))
    profiles = []
    for name in model.profiles.keys():
        profile = model.profiles[name]
        kind = type(profile).__name__
        fields = PROFILE_FIELDS.get(kind, ())
        profiles.append((name, kind, tuple(float(getattr(profile, f)) for f in fields)))
    sections = []
    for name in model.sections.keys():
        section = model.sections[name]
        kind = type(section).__name__
        if kind == "BeamSection":
            profile = section.profile
            detail = getattr(profile, "name", profile)
        else:
            detail = float(section.thickness)
        sections.append((name, kind, section.material, detail))
    return Definitions(materials=materials, profiles=profiles, sections=sections)


def _table(option: Any) -> Any:
    if option is None:
        return None
    return tuple(tuple(float(v) for v in row) for row in option.table)


# -- comparison -------------------------------------------------------------------------------


def _same_point(a: Any, b: Any) -> bool:
    """Bit-equal coordinates (``0.0 == -0.0`` would hide a change the fingerprint sees)."""
    return a is b or (a == b and struct.pack("<3d", *a) == struct.pack("<3d", *b))


def _first_difference(current: Any, saved: Any, differ: Any = ne) -> int:
    """Length of the common prefix of two sequences (all C-level); ``differ`` compares."""
    shorter = min(len(current), len(saved))
    head, saved_head = current[:shorter], saved[:shorter]
    # sequence equality skips identical items (operator.ne on two tuples would compare them)
    if type(head) is type(saved_head) and head == saved_head:
        return shorter
    return next(compress(count(), map(differ, head, saved_head)), shorter)


def _same_prefix(objects: tuple[Any, ...], saved_objects: Any, saved_labels: list[int]) -> int:
    """Where the live order first differs from the saved one: the same objects need no label
    read; from the first other object on, labels decide."""
    keep = 0 if saved_objects is None else _first_difference(objects, saved_objects, is_not)
    if keep == len(objects) == len(saved_labels):
        return keep
    return keep + _first_difference([e.label for e in objects[keep:]], saved_labels[keep:])


def differences(snapshot: Snapshot, model: Any) -> list[str]:
    """What differs between the live model and ``snapshot``, in the analyst's words."""
    found: list[str] = []
    if snapshot.definitions is not None:
        live_defs = capture_definitions(model)
        for kind in ("materials", "profiles", "sections"):
            if getattr(live_defs, kind) != getattr(snapshot.definitions, kind):
                names = _changed_names(getattr(live_defs, kind), getattr(snapshot.definitions,
                                                                           kind))
                found.append(f"{kind} {', '.join(names) or '(order)'}")
    exists = snapshot.part_name in model.parts.keys()
    if snapshot.part is None:
        if exists:
            found.append(f"part {snapshot.part_name!r} exists (it did not before the run)")
        return found
    if not exists:
        return found + [f"part {snapshot.part_name!r} is missing"]
    live = capture_part(model.parts[snapshot.part_name])
    saved = snapshot.part
    if live.node_labels != saved.node_labels:
        found.append(f"node labels ({len(live.node_labels)} nodes now, "
                     f"{len(saved.node_labels)} before)")
    else:
        moved = sum(1 for a, b in zip(live.coordinates, saved.coordinates, strict=True)
                    if not _same_point(a, b))
        if moved:
            found.append(f"coordinates of {moved} node(s)")
    if live.element_labels != saved.element_labels or live.connectivity != saved.connectivity \
            or not all(map(is_, live.element_types, saved.element_types)):
        found.append(f"elements ({len(live.element_labels)} now, "
                     f"{len(saved.element_labels)} before)")
    if live.sets != saved.sets:
        found.append("sets " + (", ".join(_changed_names(live.sets, saved.sets)) or "(order)"))
    if live.assignments != saved.assignments:
        found.append("section assignments")
    if live.orientations != saved.orientations:
        found.append("beam orientations")
    return found


def _changed_names(live: list[tuple[Any, ...]], saved: list[tuple[Any, ...]]) -> list[str]:
    now = {entry[0]: entry for entry in live}
    before = {entry[0]: entry for entry in saved}
    return sorted(name for name in now.keys() | before.keys() if now.get(name) != before.get(name))


# -- restore ----------------------------------------------------------------------------------


def restore(model: Any, snapshot: Snapshot) -> None:
    """Put the part and the definitions back as captured.

    The proof is the caller's readback (fingerprint equal to the one observed before);
    ``differences`` says what is left when it is not.
    """
    if not snapshot.usable:
        raise RuntimeError("no snapshot was taken: the host lacks " + ", ".join(snapshot.missing))
    if snapshot.definitions is not None:
        _restore_definitions(model, snapshot.definitions)
    name = snapshot.part_name
    shown = model.parts[name] if name in model.parts.keys() else None
    if snapshot.part is None:
        if shown is not None:
            del model.parts[name]
        _redraw(shown, None)
    else:
        part = shown if shown is not None else model.Part(name=name)
        try:
            _restore_part(part, snapshot.part)
        except Exception as in_place:
            # e.g. a host that refuses to hand out a label again (labels "are never reused
            # within a part"): rebuild into a fresh part, where no label was ever used
            try:
                part = _rebuild_fresh(model, name, snapshot.part)
            except Exception as fresh:
                raise RuntimeError(f"{type(in_place).__name__}: {in_place}; rebuilding the "
                                   f"part fresh failed too ({type(fresh).__name__}: {fresh})"
                                   ) from fresh
        _redraw(shown, part)


def _rebuild_fresh(model: Any, name: str, saved: PartState) -> Any:
    """The part rebuilt from nothing under a free name, then put in place of ``name``.

    The helper name exists only inside this call (the script or the gateway runs it
    synchronously) and is gone whatever happens; the part then sits last in ``model.parts``.
    """
    temporary = _free_name(model, f"{name}-restore")
    fresh = model.Part(name=temporary)
    try:
        _restore_part(fresh, saved)
    except BaseException:
        del model.parts[temporary]
        raise
    if name in model.parts.keys():
        del model.parts[name]
    model.parts.changeKey(temporary, name)
    return model.parts[name]


def _free_name(model: Any, base: str) -> str:
    names = set(model.parts.keys())
    candidate, index = base, 1
    while candidate in names:
        index += 1
        candidate = f"{base}-{index}"
    return candidate


def _redraw(before: Any, after: Any) -> None:
    """The viewport that showed the part shows it as restored (or nothing, once removed)."""
    try:
        from sam import session

        viewport = session.viewports["Viewport: 1"]
        if before is not None and getattr(viewport, "displayedObject", None) is before:
            viewport.setValues(displayedObject=after)
    except Exception:  # noqa: BLE001 - a display refresh must never fail a restore
        return


def restore_quietly(model: Any, snapshot: Snapshot) -> dict[str, Any]:
    """``restore`` for the script's ``except``: never raises, says what may be left."""
    try:
        restore(model, snapshot)
        left = differences(snapshot, model)
    except Exception as error:  # the original failure must still surface: report, not raise
        try:
            left = (differences(snapshot, model) if snapshot.usable
                    else ["everything the run changed"])
        except Exception:  # noqa: BLE001 - the model cannot even be read
            left = ["unknown: the model could not be read back"]
        return {"restored": False, "error": f"{type(error).__name__}: {error}", "left": left}
    return {"restored": not left, "error": None, "left": left}


def _restore_definitions(model: Any, saved: Definitions) -> None:
    live = capture_definitions(model)
    if (live.materials, live.profiles, live.sections) == (
            saved.materials, saved.profiles, saved.sections):
        return
    wanted = {kind: {entry[0]: entry for entry in getattr(saved, kind)}
              for kind in ("materials", "profiles", "sections")}
    # extras first (sections before what they use), then what differs, in dependency order
    for kind in ("sections", "profiles", "materials"):
        repository = getattr(model, kind)
        for entry in getattr(live, kind):
            if entry[0] not in wanted[kind]:
                del repository[entry[0]]
    current = capture_definitions(model)
    for kind, create in (("materials", _create_material), ("profiles", _create_profile),
                         ("sections", _create_section)):
        have = {entry[0]: entry for entry in getattr(current, kind)}
        for entry in getattr(saved, kind):
            if have.get(entry[0]) != entry:
                create(model, entry)


def _create_material(model: Any, entry: tuple[str, Any, Any]) -> None:
    name, elastic, density = entry
    material = model.Material(name=name)
    if elastic is not None:
        material.Elastic(table=elastic)
    if density is not None:
        material.Density(table=density)


def _create_profile(model: Any, entry: tuple[str, str, tuple[float, ...]]) -> None:
    name, kind, values = entry
    getattr(model, kind)(name=name, **dict(zip(PROFILE_FIELDS[kind], values, strict=True)))


def _create_section(model: Any, entry: tuple[str, str, str, Any]) -> None:
    name, kind, material, detail = entry
    if kind == "BeamSection":
        model.BeamSection(name=name, material=material, profile=detail)
    else:
        model.HomogeneousShellSection(name=name, material=material, thickness=detail)


def _restore_part(part: Any, saved: PartState) -> None:
    _restore_nodes(part, saved)
    _restore_elements(part, saved)
    _restore_sets(part, saved)
    _restore_entries(part, part.sectionAssignments, saved.assignments,
                     [(a.sectionName, _region_of(part, a.region))
                      for a in part.sectionAssignments], _assign)
    _restore_entries(part, part.beamOrientations, saved.orientations,
                     [(str(o.method), tuple(o.n1), _region_of(part, o.region))
                      for o in part.beamOrientations], _orient)


def _restore_nodes(part: Any, saved: PartState) -> None:
    nodes = tuple(part.nodes)
    keep = _same_prefix(nodes, saved.node_objects, saved.node_labels)
    if keep < len(nodes):
        part.deleteNode(nodes=nodes[keep:])  # their elements go too; re-made below
    kept = nodes[:keep]
    if kept:
        current = [n.coordinates for n in kept]
        # the host hands back the same tuple for an unmoved node: only the others are compared
        suspects = compress(range(keep), map(is_not, current, saved.coordinates))
        points = saved.coordinates
        moved = [i for i in suspects
                 if current[i] != points[i] or not _same_point(current[i], points[i])]
        if moved:
            part.editNode(nodes=[kept[i] for i in moved],
                          coordinates=[saved.coordinates[i] for i in moved])
    create = part.Node
    for label, point in zip(saved.node_labels[keep:], saved.coordinates[keep:], strict=True):
        create(coordinates=point, label=label)


def _restore_elements(part: Any, saved: PartState) -> None:
    elements = tuple(part.elements)
    # the shape is not compared: the host fixes it by the node count (QUAD 4, TRI 3, BEAM 2)
    keep = _same_prefix(elements, saved.element_objects, saved.element_labels)
    keep = min(keep, _first_difference([e.connectivity for e in elements[:keep]],
                                       saved.connectivity))
    if keep < len(elements):
        part.deleteElement(elements=elements[keep:])
    if keep == len(saved.element_labels):
        return
    nodes = tuple(part.nodes)
    by_label = dict(zip([n.label for n in nodes], nodes, strict=True))
    create = part.Element
    for label, shape, row in zip(saved.element_labels[keep:], saved.element_types[keep:],
                                 saved.connectivity[keep:], strict=True):
        create(nodes=tuple(map(by_label.__getitem__, row)), elemShape=shape, label=label)


def _restore_sets(part: Any, saved: PartState) -> None:
    live = _capture_sets(part)
    if live == saved.sets:
        return
    wanted = {entry[0] for entry in saved.sets}
    for name, _nodes, _elements in live:
        if name not in wanted:
            del part.sets[name]
    names = list(part.sets.keys())
    keep = _first_difference(names, [entry[0] for entry in saved.sets])
    for name in names[keep:]:
        del part.sets[name]
    current = {entry[0]: entry for entry in _capture_sets(part)}
    for entry in saved.sets:
        if current.get(entry[0]) != entry:
            name, node_labels, element_labels = entry
            part.Set(name=name, nodes=part.nodes.sequenceFromLabels(node_labels),
                     elements=part.elements.sequenceFromLabels(element_labels))


def _restore_entries(part: Any, entries: Any, saved: list[Any], live: list[Any],
                     create: Any) -> None:
    keep = _first_difference(live, saved)
    for index in range(len(live) - 1, keep - 1, -1):
        del entries[index]
    for entry in saved[keep:]:
        create(part, entry)


def _region(part: Any, region: Region) -> Any:
    kind, value = region
    if kind == "set":
        return part.sets[value]
    return part.elements.sequenceFromLabels(value)


def _assign(part: Any, entry: tuple[str, Region]) -> None:
    section, region = entry
    part.SectionAssignment(region=_region(part, region), sectionName=section)


def _orient(part: Any, entry: tuple[str, tuple[float, float, float], Region]) -> None:
    import samConstants

    method, n1, region = entry
    part.assignBeamSectionOrientation(region=_region(part, region),
                                      method=getattr(samConstants, method), n1=n1)
