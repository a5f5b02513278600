"""An in-memory shadow of a part: the docs/architecture.md §3 host API subset the Part samops use.

Compilers copy the live part into a shadow and run on it the very samops mutations the
generated script will run (the run's earlier calls, then this one), so predicted counts come
from the code that executes. Host semantics kept (§3): labels are never reused (new ones count
up from the highest seen), ``deleteNode`` takes the elements using the nodes,
``deleteElement`` keeps nodes unless ``deleteUnreferencedNodes`` is ON, ``mergeNodes`` keeps
the lower label and (when asked) removes duplicate elements, ``Set`` replaces a set of the
same name, arrays are live views that drop deleted members.

Where the outcome depends on host details §3 does not fix, the shadow raises ShadowDoubt
instead of passing a guess off as exact: a merge whose "within tolerance" relation is not a
clean partition (chains, several kept nodes in reach, distances at the tolerance edge, dense
blobs), and an element collapsing onto a repeated node.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Mapping, MutableMapping, Sequence
from itertools import repeat
from operator import is_
from typing import Any

import numpy as np

from sam_plugin.errors import ShadowDoubt
from sam_plugin.samops.records import NODES_PER_SHAPE

Point = tuple[float, float, float]
# Pairs closer to the tolerance than this (relative) could fall either way on the host.
EDGE_MARGIN = 1.0e-6
# A merge analysis looking at more candidate pairs than this per node gives up (dense blobs).
PAIRS_PER_NODE = 32
# the cell itself and 13 of its 26 neighbours: each neighbouring pair of cells once
_HALF_NEIGHBOURS = tuple((i, j, k) for i in (-1, 0, 1) for j in (-1, 0, 1)
                         for k in (-1, 0, 1) if (i, j, k) >= (0, 0, 0))


class ShadowNode:
    __slots__ = ("label", "coordinates")

    def __init__(self, label: int, coordinates: Point) -> None:
        self.label = label
        self.coordinates = coordinates

    def __repr__(self) -> str:
        return f"ShadowNode({self.label}, {self.coordinates})"


class ShadowElement:
    __slots__ = ("label", "type", "connectivity")

    def __init__(self, label: int, shape: Any, connectivity: tuple[int, ...]) -> None:
        self.label = label
        self.type = shape
        self.connectivity = connectivity

    def __repr__(self) -> str:
        return f"ShadowElement({self.label}, {self.type}, {self.connectivity})"


class HostStore(MutableMapping[int, Any]):
    """label -> entity, served by the host's own array until the shadow needs all of them.

    A plan touches a few entities of a big part: looking those up with the host's
    ``getFromLabel`` costs what they are, where copying every entity into a dict cost eight
    passes over the part (measured 100-170 ms on a 188,356-node part loaded from a file).
    Whatever is fetched or written is kept here (so an entity stays the very object the
    callers hold); iterating, or the node -> element index, reads the whole array once and
    goes on as a plain dict from then on. Counts are kept without reading anything.
    """

    def __init__(self, host: Any) -> None:
        self._host = host
        self._count = len(host)
        self._own: dict[int, Any] = {}  # fetched from the host, or written by the shadow
        self._absent: set[int] = set()  # not in the host, or deleted by the shadow
        self._full: dict[int, Any] | None = None
        self._host_high: int | None = None  # the host's highest label, once read

    def whole(self) -> dict[int, Any]:
        """Every entity, as a plain dict (the host's array read once)."""
        if self._full is None:
            entities = tuple(self._host)
            full = dict(zip([e.label for e in entities], entities, strict=True))
            for label in self._absent:
                full.pop(label, None)
            full.update(self._own)
            self._full = full
        return self._full

    def get(self, label: int, default: Any = None) -> Any:
        full = self._full
        if full is not None:
            return full.get(label, default)
        own = self._own.get(label)
        if own is not None:
            return own
        if label in self._absent or (self._host_high is not None and label > self._host_high):
            return default
        try:
            found = self._host.getFromLabel(label)
        except Exception:  # noqa: BLE001 - the host's way of saying "no such label"
            self._absent.add(label)
            return default
        self._own[label] = found
        return found

    def adopt(self, entity: Any) -> Any:
        """The host entity ``entity`` as this store's (for the members of a set)."""
        if self._full is not None:
            return self._full.get(entity.label, entity)
        return self._own.setdefault(entity.label, entity)

    def __getitem__(self, label: int) -> Any:
        found = self.get(label)
        if found is None:
            raise KeyError(label)
        return found

    def __contains__(self, label: object) -> bool:
        return isinstance(label, int) and self.get(label) is not None

    def __setitem__(self, label: int, entity: Any) -> None:
        if self._full is not None:
            self._full[label] = entity
            return
        if self.get(label) is None:
            self._count += 1
        self._absent.discard(label)
        self._own[label] = entity

    def __delitem__(self, label: int) -> None:
        if self.pop(label, None) is None:
            raise KeyError(label)

    def pop(self, label: int, default: Any = None) -> Any:
        if self._full is not None:
            return self._full.pop(label, default)
        found = self.get(label)
        if found is None:
            return default
        self._own.pop(label, None)
        self._absent.add(label)
        self._count -= 1
        return found

    def __len__(self) -> int:
        return len(self._full) if self._full is not None else self._count

    def __iter__(self) -> Iterator[int]:
        return iter(self.whole())

    def keys(self) -> Any:
        return self.whole().keys()

    def values(self) -> Any:
        return self.whole().values()

    def items(self) -> Any:
        return self.whole().items()

    def highest(self) -> int:
        """The highest label the host holds (0 without entities), read once; a label above it
        is then known absent without asking the host."""
        if self._host_high is None:
            self._host_high = max((e.label for e in self._host), default=0)
        return self._host_high


class ShadowArray:
    """A live view: the whole store (``items is None``) or the still-alive members of a subset.

    A member is alive while its label is in the store with that very entity, or with the
    shadow's own copy of it (``replaced``: label -> the host entity a write replaced).
    """

    __slots__ = ("_store", "_items", "_replaced")

    def __init__(self, store: MutableMapping[int, Any], items: tuple[Any, ...] | None = None,
                 replaced: dict[int, Any] | None = None) -> None:
        self._store = store
        self._items = items
        self._replaced = replaced if replaced is not None else {}

    def _live(self) -> list[Any]:
        store = self._store
        if self._items is None:
            return list(store.values())
        replaced = self._replaced
        out = []
        for item in self._items:
            now = store.get(item.label)
            if now is item or (now is not None and replaced.get(item.label) is item):
                out.append(now)
        return out

    def __len__(self) -> int:
        return len(self._store) if self._items is None else len(self._live())

    def __iter__(self) -> Iterator[Any]:
        return iter(self._live())

    def __bool__(self) -> bool:
        return len(self) > 0

    def __getitem__(self, index: int | slice) -> Any:
        live = self._live()
        if isinstance(index, slice):
            return ShadowArray(self._store, tuple(live[index]), self._replaced)
        return live[index]

    def getFromLabel(self, label: int) -> Any:  # noqa: N802 - host API
        entity = self._store.get(label)
        if entity is None or (self._items is not None and entity not in self._live()):
            raise ValueError(f"label {label} does not exist in this array")
        return entity

    def sequenceFromLabels(self, labels: Iterable[int]) -> ShadowArray:  # noqa: N802
        members = None if self._items is None else {e.label for e in self._live()}
        found = []
        for label in dict.fromkeys(labels):
            entity = self._store.get(label)
            if entity is None or (members is not None and label not in members):
                raise ValueError(f"label {label} does not exist in this array")
            found.append(entity)
        return ShadowArray(self._store, tuple(found), self._replaced)

    def getByBoundingBox(self, xMin: float = -math.inf, yMin: float = -math.inf,  # noqa: N802,N803
                         zMin: float = -math.inf, xMax: float = math.inf,  # noqa: N803
                         yMax: float = math.inf, zMax: float = math.inf) -> ShadowArray:  # noqa: N803
        inside = tuple(n for n in self._live()
                       if xMin <= n.coordinates[0] <= xMax and yMin <= n.coordinates[1] <= yMax
                       and zMin <= n.coordinates[2] <= zMax)
        return ShadowArray(self._store, inside, self._replaced)


class ShadowSet:
    __slots__ = ("name", "nodes", "elements")

    def __init__(self, name: str, nodes: ShadowArray, elements: ShadowArray) -> None:
        self.name = name
        self.nodes = nodes
        self.elements = elements


class ShadowSets(dict[str, ShadowSet]):
    """``part.sets``: every name written or deleted is recorded (``written``)."""

    def __init__(self) -> None:
        super().__init__()
        self.written: set[str] = set()

    def __setitem__(self, name: str, value: ShadowSet) -> None:
        self.written.add(name)
        super().__setitem__(name, value)

    def __delitem__(self, name: str) -> None:
        self.written.add(name)
        super().__delitem__(name)


class ShadowEntry:
    """A section assignment or beam orientation as the host holds it: its value (a section
    name, or (method, n1)) and its region, a set by name (the host follows the set) or the
    labels of the elements it was given (those never deleted since)."""

    __slots__ = ("value", "set_name", "elements")

    def __init__(self, value: Any, set_name: str | None, elements: tuple[Any, ...]) -> None:
        self.value = value
        self.set_name = set_name
        self.elements = elements


class ShadowPart:
    """A part held in plain dicts; see the module doc for the semantics kept.

    ``copy_of`` holds the host's own entity objects (nothing is copied per entity), so it
    stands for the part as it is while the host part does not change (a plan is made, and
    the shadow dropped, before anything runs); a write to one puts the shadow's own copy in
    its place (``_replaced`` keeps the original, so that
    views and callers holding it still find the entity). What the mutations touch is recorded:
    ``changed_nodes``/``changed_elements`` (labels that existed before and were moved,
    re-pointed or deleted), ``created_nodes``/``created_elements``, ``deleted_elements``
    (ever deleted, so gone from the regions that named them even when re-created) and
    ``sets.written``.
    """

    def __init__(self, name: str) -> None:
        self.name = name
        self._nodes: MutableMapping[int, Any] = {}
        self._elements: MutableMapping[int, Any] = {}
        self._replaced_nodes: dict[int, Any] = {}
        self._replaced_elements: dict[int, Any] = {}
        self._next_labels: list[int] | None = [1, 1]  # None: the highest labels not read yet
        self._users: dict[int, set[int]] | None = None  # node label -> element labels
        self.sets = ShadowSets()
        self.assignments: list[ShadowEntry] = []
        self.orientations: list[ShadowEntry] = []
        self.changed_nodes: set[int] = set()
        self.changed_elements: set[int] = set()
        self.created_nodes: set[int] = set()
        self.created_elements: set[int] = set()
        self.deleted_nodes: set[int] = set()
        self.deleted_elements: set[int] = set()
        # label -> the entity as it was when removed (the plan's words name what went)
        self.removed_nodes: dict[int, Any] = {}
        self.removed_elements: dict[int, Any] = {}

    @classmethod
    def copy_of(cls, part: Any) -> ShadowPart:
        """A shadow holding what ``part`` (a host part) holds now: nodes, elements, sets, and
        the regions of its section assignments and beam orientations."""
        shadow = cls(str(part.name))
        nodes, elements = HostStore(part.nodes), HostStore(part.elements)
        shadow._nodes, shadow._elements = nodes, elements
        shadow._next_labels = None
        for name in part.sets.keys():
            region = part.sets[name]
            shadow.sets[name] = ShadowSet(
                name, shadow._view(True, tuple(map(nodes.adopt, region.nodes or ()))),
                shadow._view(False, tuple(map(elements.adopt, region.elements or ()))))
        shadow.sets.written.clear()
        for source, target, value in (
                (getattr(part, "sectionAssignments", ()), shadow.assignments,
                 lambda a: str(a.sectionName)),
                (getattr(part, "beamOrientations", ()), shadow.orientations,
                 lambda o: (str(o.method), tuple(float(v) for v in o.n1)))):
            for entry in source:
                target.append(_entry(part, entry, value(entry)))
        return shadow

    def _view(self, of_nodes: bool, items: tuple[Any, ...] | None = None) -> ShadowArray:
        if of_nodes:
            return ShadowArray(self._nodes, items, self._replaced_nodes)
        return ShadowArray(self._elements, items, self._replaced_elements)

    # -- what a readback sees --------------------------------------------------------------
    @property
    def nodes(self) -> ShadowArray:
        return self._view(True)

    @property
    def elements(self) -> ShadowArray:
        return self._view(False)

    def shape_counts(self) -> dict[str, int]:
        counts = dict.fromkeys(NODES_PER_SHAPE, 0)
        for element in self._elements.values():
            shape = str(element.type)
            counts[shape] = counts.get(shape, 0) + 1
        return counts

    @property
    def untouched(self) -> bool:
        """Nothing written yet: the shadow is the part as the host holds it."""
        return not (self.changed_nodes or self.changed_elements or self.created_nodes
                    or self.created_elements or self.sets.written)

    def element_labels_alive(self) -> Any:
        """The labels of the live elements (anything answering ``in``)."""
        return self._elements

    def alive(self, labels: Iterable[int], of_nodes: bool) -> list[Any]:
        """The live entities of these labels (the others are skipped)."""
        wanted = list(labels)
        store = _bulk(self._nodes if of_nodes else self._elements, len(wanted))
        found = list(map(store.get, wanted))
        return [e for e in found if e is not None]

    def entity(self, label: int, of_nodes: bool) -> Any | None:
        """The entity of ``label``, alive or as it was when removed (None: never here)."""
        store, gone = ((self._nodes, self.removed_nodes) if of_nodes
                       else (self._elements, self.removed_elements))
        found = store.get(label)
        return found if found is not None else gone.get(label)

    def users(self, label: int) -> set[int]:
        """The labels of the live elements that use node ``label``."""
        return set(self._index().get(label, ()))

    def entry_labels(self, entry: ShadowEntry) -> list[int]:
        """The element labels an assignment or orientation covers now."""
        if entry.set_name is not None:
            region = self.sets.get(entry.set_name)
            return [] if region is None else [e.label for e in region.elements]
        deleted, alive = self.deleted_elements, self._elements
        return [label for label in entry.elements if label not in deleted and label in alive]

    def _next(self) -> list[int]:
        """[next node label, next element label]: one above the highest the part holds (read
        the first time the shadow creates anything)."""
        if self._next_labels is None:
            self._next_labels = [_highest(self._nodes) + 1, _highest(self._elements) + 1]
        return self._next_labels

    # -- creation ------------------------------------------------------------------------
    def Node(self, coordinates: Sequence[float], label: int | None = None) -> ShadowNode:  # noqa: N802
        point = _point(coordinates)
        labels = self._next()
        if label is None:
            label = labels[0]
        elif label in self._nodes:
            raise ValueError(f"node label {label} is already in use in part '{self.name}'")
        labels[0] = max(labels[0], label + 1)
        node = ShadowNode(label, point)
        self._nodes[label] = node
        self._note_new(label, self.changed_nodes, self.created_nodes, self.deleted_nodes)
        if self._users is not None:
            self._users[label] = set()
        return node

    @staticmethod
    def _note_new(label: int, changed: set[int], created: set[int], deleted: set[int]) -> None:
        """A label re-created after a deletion is a changed entity; any other is new."""
        if label not in deleted:
            created.add(label)
        else:
            changed.add(label)

    def Element(self, nodes: Sequence[Any], elemShape: Any,  # noqa: N802,N803
                label: int | None = None) -> ShadowElement:
        shape = str(elemShape)
        if isinstance(elemShape, str) or shape not in NODES_PER_SHAPE:
            raise TypeError(f"elemShape must be QUAD, TRI or BEAM; got {elemShape!r}")
        connectivity = tuple(n.label for n in nodes)
        if not all(map(is_, map(self._nodes.get, connectivity), nodes)):
            for node in nodes:
                self._alive_node(node)
        if len(connectivity) != NODES_PER_SHAPE[shape]:
            raise ValueError(f"a {shape} element needs exactly {NODES_PER_SHAPE[shape]} nodes; "
                             f"got {len(connectivity)}")
        if len(set(connectivity)) != len(connectivity):
            raise ValueError(f"element nodes must be distinct; got {connectivity}")
        labels = self._next()
        if label is None:
            label = labels[1]
        elif label in self._elements:
            raise ValueError(f"element label {label} is already in use in part '{self.name}'")
        labels[1] = max(labels[1], label + 1)
        element = ShadowElement(label, elemShape, connectivity)
        self._elements[label] = element
        self._note_new(label, self.changed_elements, self.created_elements,
                       self.deleted_elements)
        if self._users is not None:
            for node_label in connectivity:
                self._users[node_label].add(label)
        return element

    def Set(self, name: str, nodes: Any = None, elements: Any = None) -> ShadowSet:  # noqa: N802
        node_items = tuple({n.label: self._alive_node(n) for n in (nodes or ())}.values())
        element_items = tuple({e.label: self._alive_element(e)
                               for e in (elements or ())}.values())
        created = ShadowSet(name, self._view(True, node_items),
                            self._view(False, element_items))
        self.sets[name] = created
        return created

    def _alive_node(self, node: Any) -> Any:
        alive = self._nodes.get(node.label)
        if alive is None or (alive is not node and
                             self._replaced_nodes.get(node.label) is not node):
            raise ValueError(f"node {node.label} is not a live node of part '{self.name}'")
        return alive

    def _alive_element(self, element: Any) -> Any:
        alive = self._elements.get(element.label)
        if alive is None or (alive is not element and
                             self._replaced_elements.get(element.label) is not element):
            raise ValueError(f"element {element.label} is not a live element of part "
                             f"'{self.name}'")
        return alive

    def _own_node(self, node: Any) -> ShadowNode:
        """The shadow's own (writable) copy of a live node."""
        if type(node) is ShadowNode:
            return node
        own = ShadowNode(node.label, _point(node.coordinates))
        self._nodes[node.label] = own
        self._replaced_nodes[node.label] = node
        return own

    def _own_element(self, element: Any) -> ShadowElement:
        if type(element) is ShadowElement:
            return element
        own = ShadowElement(element.label, element.type, tuple(element.connectivity))
        self._elements[element.label] = own
        self._replaced_elements[element.label] = element
        return own

    # -- the node -> elements index ------------------------------------------------------
    def _index(self) -> dict[int, set[int]]:
        if self._users is None:
            users: dict[int, set[int]] = {label: set() for label in self._nodes}
            for element in self._elements.values():
                for node_label in element.connectivity:
                    users[node_label].add(element.label)
            self._users = users
        return self._users

    def _drop_elements(self, labels: Iterable[int]) -> None:
        self._next()  # the highest labels as the part had them: labels are never reused
        users = self._index()
        for label in labels:
            element = self._elements.pop(label)
            self.removed_elements[label] = element
            self._replaced_elements.pop(label, None)
            self._note_gone(label, self.changed_elements, self.created_elements,
                            self.deleted_elements)
            for node_label in element.connectivity:
                users[node_label].discard(label)

    def _drop_node(self, label: int) -> None:
        self._next()
        node = self._nodes.pop(label, None)
        if node is not None:
            self.removed_nodes[label] = node
        self._replaced_nodes.pop(label, None)
        self._note_gone(label, self.changed_nodes, self.created_nodes, self.deleted_nodes)

    @staticmethod
    def _note_gone(label: int, changed: set[int], created: set[int], deleted: set[int]) -> None:
        deleted.add(label)
        if label in created:
            created.discard(label)  # made and deleted by the run: it never reaches the host
        else:
            changed.add(label)

    # -- deletion and editing ------------------------------------------------------------
    def deleteNode(self, nodes: Any) -> None:  # noqa: N802 - host API
        doomed = [self._alive_node(n) for n in _many(nodes)]
        users = self._index()
        self._drop_elements(sorted({e for n in doomed for e in users[n.label]}))
        for node in doomed:
            self._drop_node(node.label)
            users.pop(node.label, None)

    def deleteElement(self, elements: Any, deleteUnreferencedNodes: Any = False) -> None:  # noqa: N802,N803
        doomed = {e.label: self._alive_element(e) for e in _many(elements)}
        touched = {label for e in doomed.values() for label in e.connectivity}
        self._drop_elements(doomed)
        if _is_on(deleteUnreferencedNodes):
            users = self._index()
            for label in sorted(touched):
                if not users[label]:
                    self._drop_node(label)
                    del users[label]

    def editNode(self, nodes: Any, coordinates: Any) -> None:  # noqa: N802 - host API
        if hasattr(nodes, "label") and hasattr(nodes, "coordinates"):
            nodes, coordinates = [nodes], [coordinates]
        nodes = list(nodes)
        # the samops transforms hand over tuples of floats: converted only when they do not
        # (checked in C first: a whole-part move hands over 188,356 of them)
        points = list(coordinates)
        if set(map(type, points)) != {tuple} or set(map(len, points)) != {3}:
            points = [p if type(p) is tuple and len(p) == 3 else _point(p) for p in points]
        if len(nodes) != len(points):
            raise ValueError(f"editNode got {len(nodes)} nodes but {len(points)} coordinates")
        replaced = self._replaced_nodes
        store = _bulk(self._nodes, len(nodes))
        labels = [n.label for n in nodes]
        current = list(map(store.get, labels))
        if not all(map(is_, current, nodes)):  # stale or foreign objects: check one by one
            current = [self._alive_node(n) for n in nodes]
        kinds = set(map(type, current))
        if ShadowNode not in kinds:  # all the host's (the usual first move): copies in bulk
            store.update(zip(labels, map(ShadowNode, labels, points), strict=True))
            replaced.update(zip(labels, current, strict=True))
        elif kinds == {ShadowNode}:  # all the shadow's own already
            list(map(setattr, current, repeat("coordinates"), points))
        else:
            for node, label, point in zip(current, labels, points, strict=True):
                if type(node) is ShadowNode:
                    node.coordinates = point
                else:  # the host's entity: the shadow's own copy takes its place
                    store[label] = ShadowNode(label, point)
                    replaced[label] = node
        self.changed_nodes.update(set(labels) - self.created_nodes)

    def mergeNodes(self, nodes: Any, tolerance: float = 1e-6,  # noqa: N802 - host API
                   removeDuplicateElements: Any = True) -> None:  # noqa: N803
        candidates = sorted((self._alive_node(n) for n in _many(nodes)), key=lambda n: n.label)
        mapping = merge_mapping(candidates, float(tolerance))
        if not mapping:
            return
        users = self._index()
        affected = sorted({e for removed in mapping for e in users[removed]})
        collapsed = []
        for label in affected:
            element = self._elements[label]
            new = tuple(mapping.get(k, k) for k in element.connectivity)
            for node_label in element.connectivity:
                users[node_label].discard(label)
            if len(set(new)) != len(new):
                del self._elements[label]
                collapsed.append(label)
                continue
            self._own_element(element).connectivity = new
            if label not in self.created_elements:
                self.changed_elements.add(label)
            for node_label in new:
                users[node_label].add(label)
        if collapsed:
            raise ShadowDoubt(f"merging collapses element(s) {_shown(collapsed)} onto a "
                              "repeated node; whether the host deletes or keeps them is not "
                              "fixed")
        for removed in mapping:
            self._drop_node(removed)
            del users[removed]
        if _is_on(removeDuplicateElements):
            self._drop_duplicates_around(set(mapping.values()))

    def _drop_duplicates_around(self, kept: set[int]) -> None:
        users = self._index()
        groups: dict[tuple[str, frozenset[int]], list[int]] = {}
        for label in sorted({e for node in kept for e in users[node]}):
            element = self._elements[label]
            groups.setdefault((str(element.type), frozenset(element.connectivity)),
                              []).append(label)
        self._drop_elements([k for labels in groups.values() for k in labels[1:]])


def _bulk(store: MutableMapping[int, Any], count: int) -> MutableMapping[int, Any]:
    """``store`` for ``count`` lookups or writes: a host store that many would each fetch
    from the host (more than an eighth of it) is read into a plain dict once, and that dict
    is the store from then on (its lookups and writes in C)."""
    if isinstance(store, HostStore) and count * 8 > len(store):
        return store.whole()
    return store


def _highest(store: MutableMapping[int, Any]) -> int:
    if isinstance(store, HostStore):
        return store.highest()
    return max(store, default=0)


def _entry(part: Any, entry: Any, value: Any) -> ShadowEntry:
    """A host assignment or orientation as a ShadowEntry (a set region by its name)."""
    region = entry.region
    name = getattr(region, "name", None)
    if isinstance(name, str) and name in part.sets.keys() and part.sets[name] is region:
        return ShadowEntry(value, name, ())
    return ShadowEntry(value, None, tuple(e.label for e in getattr(region, "elements", None)
                                          or ()))


class ShadowModel:
    """Just enough of a model for ``_model.parts[_part_name]`` and ``ensure_part``."""

    def __init__(self, parts: Mapping[str, ShadowPart] | None = None) -> None:
        self.parts: dict[str, ShadowPart] = dict(parts or {})

    def Part(self, name: str, objectToCopy: Any = None) -> ShadowPart:  # noqa: N802,N803
        part = ShadowPart(name)
        self.parts[name] = part
        return part


def merge_mapping(ordered: Sequence[ShadowNode], tol: float) -> dict[int, int]:
    """``{removed: kept}`` for a merge at ``tol`` whose outcome does not depend on the host.

    That is the case when "within tolerance" partitions the nodes into cliques with no
    distance at the tolerance edge: every group then keeps its lowest label, whatever order
    or chaining rule the host uses. Anything else raises ShadowDoubt. One pass of spatial
    hashing with a union-find; ``ordered`` is in ascending label order.
    """
    if tol == 0.0:
        exact: dict[Point, int] = {}
        mapping = {}
        for node in ordered:
            kept = exact.setdefault(node.coordinates, node.label)
            if kept != node.label:
                mapping[node.label] = kept
        return mapping
    reach = tol * (1 + EDGE_MARGIN)
    inner2 = (tol * (1 - EDGE_MARGIN)) ** 2
    labels = [node.label for node in ordered]
    parent = dict(zip(labels, labels, strict=True))
    edges: dict[int, int] = {}

    def root(label: int) -> int:
        while parent[label] != label:
            parent[label] = parent[parent[label]]
            label = parent[label]
        return label

    for a, b, d2 in close_pairs([node.coordinates for node in ordered], reach):
        if d2 > inner2:
            raise ShadowDoubt(f"nodes {labels[a]} and {labels[b]} lie at the merge tolerance "
                              "itself: whether they merge depends on the host's rounding")
        ra, rb = root(labels[a]), root(labels[b])
        if ra != rb:
            parent[ra] = rb
            edges[rb] = edges.get(rb, 0) + edges.pop(ra, 0)
        edges[rb] = edges.get(rb, 0) + 1
    groups: dict[int, list[int]] = {}
    for label in edges:
        groups[label] = []
    for label in parent:
        top = root(label)
        if top != label and top in groups:
            groups[top].append(label)
    mapping = {}
    for top, members in groups.items():
        size = len(members) + 1
        if edges[top] != size * (size - 1) // 2:
            raise ShadowDoubt("some nodes are within the merge tolerance of a node that is "
                              "not within it of the others (a chain): the host may group "
                              "them differently")
        kept = min(top, *members)
        for label in (top, *members):
            if label != kept:
                mapping[label] = kept
    return mapping


def close_pairs(points: Sequence[Point], reach: float) -> list[tuple[int, int, float]]:
    """Index pairs ``(i, j)``, ``i < j``, of points within ``reach``, with their squared distance.

    Spatial hashing vectorised with numpy (cells of size ``reach``: a close pair lies in the
    same or a neighbouring cell), sorted keys and ``searchsorted`` per neighbour offset; the
    pure-Python loop over 27 cells per node cost about a second on 45,000 nodes.
    Raises ShadowDoubt on dense blobs (more than PAIRS_PER_NODE candidates per node).
    """
    count = len(points)
    if count < 2:
        return []
    xyz = np.asarray(points, dtype=np.float64)
    cells = np.floor(xyz / reach)
    cells -= cells.min(axis=0) - 1
    spans = cells.max(axis=0) + 2
    if float(spans[0]) * float(spans[1]) * float(spans[2]) >= 2.0 ** 62:
        raise ShadowDoubt("the merge tolerance is too small for the part's extent to hash "
                          "its nodes")
    cells = cells.astype(np.int64)
    sy, sz = int(spans[1]), int(spans[2])
    keys = (cells[:, 0] * sy + cells[:, 1]) * sz + cells[:, 2]
    order = np.argsort(keys, kind="stable")
    sorted_keys = keys[order]
    firsts, seconds = [], []
    candidates = 0
    for di, dj, dk in _HALF_NEIGHBOURS:
        wanted = keys + (di * sy + dj) * sz + dk
        left = np.searchsorted(sorted_keys, wanted, side="left")
        right = np.searchsorted(sorted_keys, wanted, side="right")
        hits = right - left
        total = int(hits.sum())
        candidates += total
        if candidates > PAIRS_PER_NODE * count:
            raise ShadowDoubt("too many nodes lie within the merge tolerance of each other to "
                              "tell how the host groups them")
        if total == 0:
            continue
        first = np.repeat(np.arange(count), hits)
        starts = np.repeat(left - np.cumsum(hits) + hits, hits)
        second = order[np.arange(total) + starts]
        if (di, dj, dk) == (0, 0, 0):
            keep = first < second
            first, second = first[keep], second[keep]
        firsts.append(first)
        seconds.append(second)
    if not firsts:
        return []
    first = np.concatenate(firsts)
    second = np.concatenate(seconds)
    d2 = ((xyz[first] - xyz[second]) ** 2).sum(axis=1)
    close = d2 <= reach * reach
    pairs = zip(np.minimum(first, second)[close].tolist(),
                np.maximum(first, second)[close].tolist(), d2[close].tolist(), strict=True)
    return sorted(pairs)


def _point(value: Sequence[float]) -> Point:
    x, y, z = value
    return (float(x), float(y), float(z))


def _many(items: Any) -> list[Any]:
    if hasattr(items, "label"):  # one entity, the shadow's or the host's
        return [items]
    return list(items)


def _is_on(flag: Any) -> bool:
    return flag is True or (not isinstance(flag, bool) and str(flag) == "ON")


def _shown(labels: Sequence[int]) -> str:
    head = ", ".join(str(k) for k in labels[:10])
    return head + (f" (+{len(labels) - 10} more)" if len(labels) > 10 else "")
