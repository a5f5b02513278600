"""Snapshot and restore of the target part (and the model's property definitions).

Runs inside the one composed script: ``take`` before the first mutation, ``restore_quietly``
in the script's ``except`` (and the host gateway calls ``restore`` after a failed
verification or for an undo). Nothing is ever created in the model tree for it (I14): the
snapshot is plain data held by Python (entity objects, coordinate and connectivity tuples,
names).

Mechanism, chosen by measurement on the 188,356-node part (bench/snapshot_scale.py, CPU
time on the shared machine; a plain scan of coordinates and connectivity takes 12-16 ms): a
host copy through ``objectToCopy`` costs 0.4-0.6 s on every run and puts a part in
``model.parts``; running on a copy costs the same copy plus a swap; rebuilding the whole
part through the API costs 0.55 s. This plain-data snapshot costs about one scan on every
run: it keeps the entity objects (no API changes an entity's label or shape, so labels and
shapes are read from them only where needed) and the host's own coordinate and
connectivity tuples, 6 MB of lists. The restore only repairs what differs (about two scans
after a transform moved 10% of the nodes, a fifth of it the host's ``editNode``): an
unmoved node still has the very tuple saved, so one pass over the live nodes finds the
moved ones (one ``editNode``); the tail of the creation order from the first changed label
on is deleted and re-created with its labels, so the host's order, which the fingerprint
sees, comes back; then sets, assignments, orientations and property definitions that
differ. A failed run that touched little costs little; one that rewrote everything costs a
rebuild (0.8 s after a merge near the start). A host that refuses to
hand out a used label again gets that rebuild in a fresh part, swapped in under the part's
name.

The host keeps its next free label to itself (no API reads or sets it): after a restore of a
run that created entities, the labels the run consumed stay consumed, as SAM never reuses a
label. Everything the API can read is back exactly, in the host's order.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import compress, count
from operator import attrgetter, is_, is_not, ne
from typing import Any

from sam_plugin.samops import covered as _covered
from sam_plugin.samops.mesh_read import PartMesh, take_offered_read, withdraw_read

_LABEL = attrgetter("label")
_COORDINATES = attrgetter("coordinates")

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


class PartState:
    """A part as plain data, in the host's order.

    ``coordinates`` and ``connectivity`` are the host's own tuples as read (tuples are
    immutable: a move or a merge gives a node or element a new tuple, never changes one).
    Captured from the host, the state keeps the entity objects too: no API changes an
    entity's label or shape, so an object stands for both and they are read from it only
    where they are needed (the entities a restore re-creates, a snapshot file, a
    comparison that cannot go by identity). Loaded from a file, the state has labels and
    shapes as lists and no objects.
    """

    __slots__ = ("coordinates", "connectivity", "sets", "assignments", "orientations",
                 "node_objects", "element_objects", "_node_labels", "_element_labels",
                 "_element_types", "mesh")

    def __init__(self, *, coordinates: list[tuple[float, float, float]],
                 connectivity: list[tuple[int, ...]],
                 sets: list[tuple[str, list[int], list[int]]],
                 assignments: list[tuple[str, Region]],
                 orientations: list[tuple[str, tuple[float, float, float], Region]],
                 node_objects: list[Any] | None = None,
                 element_objects: list[Any] | None = None,
                 node_labels: list[int] | None = None,
                 element_labels: list[int] | None = None,
                 element_types: list[Any] | None = None, mesh: PartMesh | None = None) -> None:
        if (node_objects is None and node_labels is None) or \
                (element_objects is None and (element_labels is None or element_types is None)):
            raise ValueError("a part state needs the entity objects or their labels and shapes")
        self.coordinates = coordinates
        self.connectivity = connectivity
        self.sets = sets
        self.assignments = assignments
        self.orientations = orientations
        self.node_objects = node_objects
        self.element_objects = element_objects
        self._node_labels = node_labels
        self._element_labels = element_labels
        self._element_types = element_types
        self.mesh = mesh  # the arrays of the read it was taken from, if it took one

    @property
    def node_labels(self) -> list[int]:
        if self._node_labels is None:
            self._node_labels = [n.label for n in self.node_objects]  # type: ignore[union-attr]
        return self._node_labels

    @property
    def element_labels(self) -> list[int]:
        if self._element_labels is None:
            self._element_labels = [e.label for e in self.element_objects]  # type: ignore[union-attr]
        return self._element_labels

    @property
    def element_types(self) -> list[Any]:
        """The host's shape constants (immutable symbols)."""
        if self._element_types is None:
            self._element_types = [e.type for e in self.element_objects]  # type: ignore[union-attr]
        return self._element_types

    def node_labels_from(self, start: int) -> list[int]:
        if self._node_labels is not None or self.node_objects is None:
            return self.node_labels[start:]
        return [n.label for n in self.node_objects[start:]]

    def elements_from(self, start: int) -> tuple[list[int], list[Any]]:
        """Labels and shapes of the saved elements from position ``start`` on."""
        if self._element_labels is not None or self.element_objects is None:
            return self.element_labels[start:], self.element_types[start:]
        tail = self.element_objects[start:]
        return [e.label for e in tail], [e.type for e in tail]


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
    # the repositories the domains add (``covered``): module name -> entries as captured
    covered: _covered.Covered = field(default_factory=dict)

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
            state.coordinates, state.connectivity, state.node_objects or (),
            state.element_objects or (), state._node_labels or (),
            state._element_labels or (), state._element_types or ()))
        for _name, nodes, elements in state.sets:
            total += sys.getsizeof(nodes) + sys.getsizeof(elements)
        return total


# -- capability -------------------------------------------------------------------------------


def missing(model: Any, part: Any = None, covers: tuple[str, ...] = ()) -> list[str]:
    """Host calls the snapshot mechanism needs that ``model`` (and ``part``) lack, with those
    the ``covers`` modules need (``covered``)."""
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
    if model is not None and covers:
        lacking += _covered.missing(model, covers)
    return lacking


# -- capture ----------------------------------------------------------------------------------


def take(model: Any, part_name: str, covers: tuple[str, ...] = ()) -> Snapshot:
    """Capture the part ``part_name`` of ``model``, the model's property definitions and the
    repositories the ``covers`` modules capture (``covered``)."""
    part = model.parts[part_name] if part_name in model.parts.keys() else None
    lacking = missing(model, part, covers)
    try:
        if lacking:
            return Snapshot(part_name=part_name, part=None, definitions=None, missing=lacking)
        return Snapshot(part_name=part_name, part=None if part is None else capture_part(part),
                        definitions=capture_definitions(model),
                        covered=_covered.capture(model, covers))
    finally:
        withdraw_read()  # the changes come next: no later read may take the offered one


def capture_part(part: Any) -> PartState:
    """What a restore needs: the entity objects (for labels and shapes, never changed on an
    entity) and the coordinate and connectivity tuples, each read once (or the read just
    offered: ``mesh_read.offer_read``); sets, assignments and orientations are read now."""
    offered = take_offered_read(part)
    if offered is not None and offered[0].nodes is not None and \
            offered[0].elements is not None:
        read, mesh = offered
        return PartState(mesh=mesh, coordinates=read.points, connectivity=read.rows,
                         sets=_capture_sets(part), assignments=_capture_assignments(part),
                         orientations=_capture_orientations(part), node_objects=read.nodes,
                         element_objects=read.elements, node_labels=read.node_labels,
                         element_labels=read.element_labels, element_types=read.types)
    nodes = list(part.nodes)
    elements = list(part.elements)
    return PartState(
        # comprehensions, not map(attrgetter): measured 30% faster on slotted host entities
        coordinates=[n.coordinates for n in nodes],
        connectivity=[e.connectivity for e in elements],
        sets=_capture_sets(part),
        assignments=_capture_assignments(part),
        orientations=_capture_orientations(part),
        node_objects=nodes,
        element_objects=elements,
    )


def _capture_assignments(part: Any) -> list[tuple[str, Region]]:
    return [(a.sectionName, _region_of(part, a.region)) for a in part.sectionAssignments]


def _capture_orientations(part: Any) -> list[tuple[str, tuple[float, float, float], Region]]:
    return [(str(o.method), tuple(o.n1), _region_of(part, o.region))
            for o in part.beamOrientations]


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
    head = current if len(current) == shorter else current[:shorter]
    saved_head = saved if len(saved) == shorter else saved[:shorter]
    # sequence equality skips identical items (operator.ne on two tuples would compare them)
    if type(head) is type(saved_head) and head == saved_head:
        return shorter
    return next(compress(count(), map(differ, head, saved_head)), shorter)


def _identical_prefix(live: list[Any], saved: list[Any] | None) -> int:
    """How many leading live entities are the very objects saved (no attribute read)."""
    if saved is None:
        return 0
    # list equality would call an overridden __eq__ (mypy cannot compare the two callables)
    if live and type(live[0]).__eq__ is not object.__eq__:  # type: ignore[comparison-overlap]  # see above
        return next(compress(count(), map(is_not, live, saved)), min(len(live), len(saved)))
    return _first_difference(live, saved, is_not)


def _kept_prefix(live: list[Any], saved_objects: list[Any] | None,
                 saved_labels_from: Callable[[int], list[int]]) -> int:
    """How many leading live entities are the saved ones, in the saved order: the very
    objects need no label read; from the first other one on, labels decide."""
    keep = _identical_prefix(live, saved_objects)
    if saved_objects is not None and keep == len(live) == len(saved_objects):
        return keep
    return keep + _first_difference([e.label for e in live[keep:]], saved_labels_from(keep))


def _moved(nodes: list[Any], saved: list[Any]) -> list[int]:
    """Positions of ``nodes`` whose point is not bit-equal to the saved one there. The host
    hands back the same tuple for an unmoved node: only the others are compared by value."""
    # one pass reading and checking (measured: a third cheaper than a read, then a check)
    suspects = [i for i, node, point in zip(count(), nodes, saved) if node.coordinates
                is not point]
    return _bit_different(suspects, list(map(_COORDINATES, map(nodes.__getitem__, suspects))),
                          saved)


def _moved_in_place(part: Any, saved: PartState) -> list[int] | None:
    """The usual failure, in one pass over the live nodes: every saved node is still in its
    place (nodes added after them aside) and these positions moved. None when the saved
    order is broken, or the snapshot holds no objects: then labels decide."""
    objects, points = saved.node_objects, saved.coordinates
    if objects is None or len(part.nodes) < len(objects):
        return None
    changed = [i if node is own else -1 for i, node, own, point
               in zip(count(), part.nodes, objects, points)
               if node is not own or node.coordinates is not point]
    if -1 in changed:
        return None
    return _bit_different(changed, list(map(_COORDINATES, map(objects.__getitem__, changed))),
                          points)


def _bit_different(positions: list[int], now: list[Any], saved: list[Any]) -> list[int]:
    """The ``positions`` where the points ``now`` differ from the saved ones, bit for bit."""
    if not positions:
        return positions
    before = list(map(saved.__getitem__, positions))
    if all(map(ne, now, before)):
        return positions
    # equal values in new tuples: moved only where a zero changed its sign
    return [i for i, a, b in zip(positions, now, before, strict=True) if not _same_point(a, b)]


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
    found += _covered.differences(snapshot.covered, model)
    exists = snapshot.part_name in model.parts.keys()
    if snapshot.part is None:
        if exists:
            found.append(f"part {snapshot.part_name!r} exists (it did not before the run)")
        return found
    if not exists:
        return found + [f"part {snapshot.part_name!r} is missing"]
    part = model.parts[snapshot.part_name]
    found += _mesh_differences(part, snapshot.part)
    live_sets = _capture_sets(part)
    saved = snapshot.part
    if live_sets != saved.sets:
        found.append("sets " + (", ".join(_changed_names(live_sets, saved.sets)) or "(order)"))
    if _capture_assignments(part) != saved.assignments:
        found.append("section assignments")
    if _capture_orientations(part) != saved.orientations:
        found.append("beam orientations")
    return found


def _mesh_differences(part: Any, saved: PartState) -> list[str]:
    found = []
    before = len(saved.coordinates)
    in_place = _moved_in_place(part, saved) if len(part.nodes) == before else None
    if in_place is None:
        nodes = list(part.nodes)
        if len(nodes) == before == _kept_prefix(nodes, saved.node_objects,
                                                saved.node_labels_from):
            in_place = _moved(nodes, saved.coordinates)
        else:
            found.append(f"node labels ({len(nodes)} nodes now, {before} before)")
    if in_place:
        found.append(f"coordinates of {len(in_place)} node(s)")
    elements = list(part.elements)
    same = _identical_prefix(elements, saved.element_objects)
    labels, shapes = saved.elements_from(same)
    others = elements[same:]
    before = len(saved.connectivity)
    if len(elements) != before or [e.label for e in others] != labels \
            or not all(map(is_, [e.type for e in others], shapes)) \
            or [e.connectivity for e in elements] != saved.connectivity:
        found.append(f"elements ({len(elements)} now, {before} before)")
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
    _covered.restore(model, snapshot.covered)


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
                     _capture_assignments(part), _assign)
    _restore_entries(part, part.beamOrientations, saved.orientations,
                     _capture_orientations(part), _orient)


def _restore_nodes(part: Any, saved: PartState) -> None:
    points = saved.coordinates
    moved = _moved_in_place(part, saved)
    if moved is None:
        _restore_nodes_by_label(part, saved)
        return
    if len(part.nodes) > len(points):
        part.deleteNode(nodes=part.nodes[len(points):])  # their elements go too
    _move_back(part, saved.node_objects, points, moved)  # type: ignore[arg-type]


def _restore_nodes_by_label(part: Any, saved: PartState) -> None:
    nodes = list(part.nodes)
    keep = _kept_prefix(nodes, saved.node_objects, saved.node_labels_from)
    if keep < len(nodes):
        part.deleteNode(nodes=nodes[keep:])  # their elements go too; re-made below
        del nodes[keep:]
    points = saved.coordinates
    if nodes:
        _move_back(part, nodes, points, _moved(nodes, points))
    create = part.Node
    for label, point in zip(saved.node_labels_from(keep), points[keep:], strict=True):
        create(coordinates=point, label=label)


def _move_back(part: Any, nodes: list[Any], points: list[Any], moved: list[int]) -> None:
    if moved:
        part.editNode(nodes=list(map(nodes.__getitem__, moved)),
                      coordinates=list(map(points.__getitem__, moved)))


def _restore_elements(part: Any, saved: PartState) -> None:
    elements = list(part.elements)
    # the shape is not compared: the host fixes it by the node count (QUAD 4, TRI 3, BEAM 2)
    keep = _kept_prefix(elements, saved.element_objects,
                        lambda start: saved.elements_from(start)[0])
    kept = elements if keep == len(elements) else elements[:keep]
    keep = _first_difference([e.connectivity for e in kept], saved.connectivity)
    if keep < len(elements):
        part.deleteElement(elements=elements[keep:])
    if keep == len(saved.connectivity):
        return
    nodes = list(part.nodes)
    by_label = dict(zip([n.label for n in nodes], nodes, strict=True))
    create = part.Element
    labels, shapes = saved.elements_from(keep)
    for label, shape, row in zip(labels, shapes, saved.connectivity[keep:], strict=True):
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
