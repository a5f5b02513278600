"""A mesh part: nodes and elements by label, sets, section assignments, beam orientations.

Labels live in dicts (O(1) create, look-up and delete). The node → elements index that
``deleteNode``, ``getElements`` and ``mergeNodes`` need is built on first use and kept up
to date afterwards, so building a 200,000-element part pays nothing for it.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from itertools import chain
from operator import attrgetter, is_
from typing import TYPE_CHECKING, Any

from samConstants import BEAM, OFF, QUAD, TRI, SymbolicConstant

from sam._checks import check_name, finite, label_value, reject_keywords, vec3
from sam.mesh import (
    MeshElement,
    MeshElementArray,
    MeshNode,
    MeshNodeArray,
    _new_node,
    _set_element_connectivity,
    _set_element_label,
    _set_element_part,
    _set_element_type,
    _set_node_coordinates,
    _set_node_label,
    _set_node_part,
    move_node,
    repoint_element,
)
from sam.regions import (
    BeamOrientation,
    EntryList,
    SectionAssignment,
    Set,
    _RegionRef,
    check_method,
    check_n1,
    region_ref,
)
from sam.repository import Repository
from sam.spatial import merge_groups

if TYPE_CHECKING:
    from sam.model import Model

NODE_COUNT = {"QUAD": 4, "TRI": 3, "BEAM": 2}
_LABEL = attrgetter("label")
_new = _new_node
SHAPE_CONSTANTS = {"QUAD": QUAD, "TRI": TRI, "BEAM": BEAM}


class Part:
    """``model.Part(name)``: see docs/architecture.md §3 for the calls."""

    def __init__(self, model: Model, name: str) -> None:
        self.name = name
        self._model = model
        self._nodes: dict[int, MeshNode] = {}
        self._elements: dict[int, MeshElement] = {}
        self._next_node = 1
        self._next_element = 1
        self._node_elements: dict[int, list[int]] | None = None
        # creation-ordered lists behind index access on part.nodes/part.elements: appended
        # to on creation, dropped on deletion (rebuilt on the next access)
        self._node_order: list[MeshNode] | None = None
        self._element_order: list[MeshElement] | None = None
        # bumped by every deletion: subset arrays re-filter their members only then
        self._deletions = 0
        self.sets: Repository[Set] = Repository(
            "set", self._owner(), on_rename=self._set_renamed)
        self.sectionAssignments: EntryList[SectionAssignment] = EntryList("section assignment")
        self.beamOrientations: EntryList[BeamOrientation] = EntryList("beam orientation")
        self._node_view = MeshNodeArray._whole(self)
        self._element_view = MeshElementArray._whole(self)

    # -- identity ----------------------------------------------------------------------
    def _owner(self) -> str:
        return f"part '{self.name}'"

    def _rename(self, name: str) -> None:
        self.name = name
        self.sets._set_owner(self._owner())

    def __repr__(self) -> str:
        return f"mdb.models[{self._model.name!r}].parts[{self.name!r}]"

    @property
    def nodes(self) -> MeshNodeArray:
        return self._node_view

    @property
    def elements(self) -> MeshElementArray:
        return self._element_view

    # -- creation ----------------------------------------------------------------------
    # Node and Element are the hot calls of a 200,000-entity build: their fast paths are
    # inlined (no helper calls, C-level checks); any doubt falls back to the checked path.
    def Node(self, coordinates: Any, label: int | None = None,  # noqa: N802 - host API
             **extra: Any) -> MeshNode:
        if extra:
            reject_keywords(extra)
        point = coordinates
        # a tuple of three finite floats is kept as given (tuples are immutable); a non-finite
        # value makes the sum's difference nan, and an overflowing sum only costs the slow path
        if type(point) is not tuple or len(point) != 3 or \
                not float is type(point[0]) is type(point[1]) is type(point[2]) or \
                (point[0] + point[1] + point[2]) - (point[0] + point[1] + point[2]) != 0.0:
            point = vec3(coordinates, "coordinates")
        if label is None:
            label = self._next_node
            self._next_node = label + 1
        else:
            label = self._explicit_label(label, self._nodes, "node")
            if label >= self._next_node:
                self._next_node = label + 1
        node = _new(MeshNode)
        _set_node_label(node, label)
        _set_node_coordinates(node, point)
        _set_node_part(node, self)
        self._nodes[label] = node
        if self._node_order is not None:
            self._node_order.append(node)
        if self._node_elements is not None:
            self._node_elements[label] = []
        return node

    def Element(self, nodes: Any, elemShape: Any, label: int | None = None,  # noqa: N802,N803
                **extra: Any) -> MeshElement:
        if extra:
            reject_keywords(extra)
        if elemShape is QUAD:
            shape = QUAD
            count = 4
        else:
            shape, count = _shape(elemShape)
        kind = type(nodes)
        try:
            if kind is not tuple and kind is not list:
                raise AttributeError
            connectivity = tuple(map(_LABEL, nodes))
        except AttributeError:
            connectivity = ()
        # one C-level pass: every node is this part's live node object (identity in the dict)
        if len(connectivity) != count or len(set(connectivity)) != count or \
                not all(map(is_, map(self._nodes.get, connectivity), nodes)):
            connectivity = self._connectivity(nodes, shape, count)
        if label is None:
            label = self._next_element
            self._next_element = label + 1
        else:
            label = self._explicit_label(label, self._elements, "element")
            if label >= self._next_element:
                self._next_element = label + 1
        element = _new(MeshElement)
        _set_element_label(element, label)
        _set_element_type(element, shape)
        _set_element_connectivity(element, connectivity)
        _set_element_part(element, self)
        self._elements[label] = element
        if self._element_order is not None:
            self._element_order.append(element)
        index = self._node_elements
        if index is not None:
            for node_label in connectivity:
                index[node_label].append(label)
        return element

    def _connectivity(self, nodes: Any, shape: Any, count: int) -> tuple[int, ...]:
        kind = type(nodes)
        if kind is not tuple and kind is not list:
            if kind is MeshNode or isinstance(nodes, (str, bytes)) or \
                    not isinstance(nodes, Iterable):
                raise TypeError(f"nodes must be a sequence of {count} MeshNode objects for a "
                                f"{shape} element; got {kind.__name__}")
            nodes = tuple(nodes)
        get = self._nodes.get
        labels = []
        append = labels.append
        for node in nodes:
            if type(node) is not MeshNode or node._part is not self or \
                    get(node.label) is not node:
                self._refuse_node(node)
            append(node.label)
        if len(labels) != count:
            raise ValueError(f"a {shape} element needs exactly {count} nodes; got {len(labels)}")
        connectivity = tuple(labels)
        if len(set(connectivity)) != count:
            repeated = next(lb for lb in connectivity if connectivity.count(lb) > 1)
            raise ValueError(f"node {repeated} appears more than once in one {shape} element; "
                             "element nodes must be distinct")
        return connectivity

    def _refuse_node(self, node: Any) -> None:
        """Raise the host's error for a node an element cannot use."""
        if type(node) is not MeshNode:
            raise TypeError(f"nodes must be MeshNode objects of part '{self.name}'; "
                            f"got {type(node).__name__}")
        if node._part is not self:
            raise ValueError(f"node {node.label} belongs to part '{node._part.name}', "
                             f"not to part '{self.name}'")
        raise ValueError(f"node {node.label} has been deleted from part '{self.name}'")

    def _explicit_label(self, label: Any, store: dict[int, Any], noun: str) -> int:
        label = label_value(label, "label")
        if label in store:
            raise ValueError(f"{noun} label {label} is already in use in part '{self.name}'; "
                             f"the next free {noun} label is "
                             f"{self._next_node if noun == 'node' else self._next_element}")
        return label

    def Set(self, name: str, nodes: Any = None, elements: Any = None,  # noqa: N802 - host API
            **extra: Any) -> Set:
        """Create the set ``name``, or replace the set of that name (as the host does)."""
        reject_keywords(extra)
        check_name(name, "name")
        node_items = self._members(nodes, MeshNode, "nodes")
        element_items = self._members(elements, MeshElement, "elements")
        created = Set(self, name, MeshNodeArray._subset(self, node_items),
                      MeshElementArray._subset(self, element_items))
        self.sets._store(name, created)
        return created

    def _members(self, given: Any, entity_type: type, what: str) -> tuple[Any, ...]:
        """Entities of this part, alive, without repeats; a single entity is accepted."""
        if given is None:
            return ()
        if type(given) is entity_type:
            given = (given,)
        if isinstance(given, (str, bytes)) or not isinstance(given, Iterable):
            raise TypeError(f"{what} must be a sequence of {entity_type.__name__} objects; "
                            f"got {type(given).__name__}")
        store = self._nodes if entity_type is MeshNode else self._elements
        noun = "node" if entity_type is MeshNode else "element"
        seen: dict[int, Any] = {}
        for entity in given:
            if type(entity) is not entity_type:
                raise TypeError(f"{what} must be {entity_type.__name__} objects of part "
                                f"'{self.name}'; got {type(entity).__name__}")
            if entity._part is not self:
                raise ValueError(f"{noun} {entity.label} belongs to part "
                                 f"'{entity._part.name}', not to part '{self.name}'")
            if store.get(entity.label) is not entity:
                raise ValueError(f"{noun} {entity.label} has been deleted from part "
                                 f"'{self.name}'")
            seen.setdefault(entity.label, entity)
        return tuple(seen.values())

    # -- the node → elements index -----------------------------------------------------
    def _node_index(self) -> dict[int, list[int]]:
        index = self._node_elements
        if index is None:
            index = {label: [] for label in self._nodes}
            for element in self._elements.values():
                label = element.label
                for node_label in element.connectivity:
                    index[node_label].append(label)
            self._node_elements = index
        return index

    def _check_alive_node(self, node: MeshNode) -> None:
        if self._nodes.get(node.label) is not node:
            raise ValueError(f"node {node.label} has been deleted from part '{self.name}'")

    def _check_alive_element(self, element: MeshElement) -> None:
        if self._elements.get(element.label) is not element:
            raise ValueError(f"element {element.label} has been deleted from part "
                             f"'{self.name}'")

    # -- deletion ----------------------------------------------------------------------
    def deleteNode(self, nodes: Any, **extra: Any) -> None:  # noqa: N802 - host API
        """Delete nodes and every element that uses one of them."""
        reject_keywords(extra)
        doomed = self._members(nodes, MeshNode, "nodes")
        index = self._node_index()
        element_labels: dict[int, None] = {}
        for node in doomed:
            for label in index[node.label]:
                element_labels[label] = None
        self._drop_elements(list(element_labels))
        for node in doomed:
            del self._nodes[node.label]
            del index[node.label]
        self._after_deletion()

    def deleteElement(self, elements: Any, deleteUnreferencedNodes: Any = OFF,  # noqa: N802,N803
                      **extra: Any) -> None:
        """Delete elements; with ``deleteUnreferencedNodes=ON`` their orphaned nodes go too."""
        reject_keywords(extra)
        doomed = self._members(elements, MeshElement, "elements")
        flag = _boolean(deleteUnreferencedNodes, "deleteUnreferencedNodes")
        index = self._node_index()
        touched = {label for element in doomed for label in element.connectivity}
        self._drop_elements([element.label for element in doomed])
        if flag:
            for label in sorted(touched):
                if not index[label]:
                    del self._nodes[label]
                    del index[label]
        self._after_deletion()

    def _drop_elements(self, labels: list[int]) -> None:
        index = self._node_index()
        elements = self._elements
        for label in labels:
            element = elements.pop(label)
            for node_label in element.connectivity:
                index[node_label].remove(label)

    def _after_deletion(self) -> None:
        self._deletions += 1
        self._node_order = None
        self._element_order = None

    def _ordered(self, of_nodes: bool) -> list[Any]:
        """All nodes (or elements) in creation order, as a list kept for index access."""
        if of_nodes:
            if self._node_order is None:
                self._node_order = list(self._nodes.values())
            return self._node_order
        if self._element_order is None:
            self._element_order = list(self._elements.values())
        return self._element_order

    # -- editing -----------------------------------------------------------------------
    def editNode(self, nodes: Any, coordinates: Any = None, **extra: Any) -> None:  # noqa: N802
        """Move one node to one point, or a sequence of nodes to as many points."""
        reject_keywords(extra)
        if coordinates is None:
            raise TypeError("editNode needs coordinates")
        if self._moved_fast(nodes, coordinates):
            return
        if type(nodes) is MeshNode:
            targets = self._members(nodes, MeshNode, "nodes")
            points = [vec3(coordinates, "coordinates")]
        else:
            if isinstance(nodes, (str, bytes)) or not isinstance(nodes, Iterable):
                raise TypeError(f"nodes must be a MeshNode or a sequence of MeshNode objects; "
                                f"got {type(nodes).__name__}")
            given = list(nodes)
            targets = self._members(given, MeshNode, "nodes")
            if len(targets) != len(given):
                raise ValueError("nodes must not repeat a node")
            if isinstance(coordinates, (str, bytes)) or not isinstance(coordinates, Iterable):
                raise TypeError("coordinates must be a sequence of points, one per node")
            raw = list(coordinates)
            if len(raw) != len(targets):
                raise ValueError(f"editNode got {len(targets)} nodes but {len(raw)} "
                                 "coordinates; give one point per node")
            points = [vec3(point, f"coordinates[{i}]") for i, point in enumerate(raw)]
        for node, point in zip(targets, points, strict=True):
            move_node(node, point)

    def _moved_fast(self, nodes: Any, coordinates: Any) -> bool:
        """The bulk fast path of ``editNode``, C-level checks only: distinct live nodes of this
        part and as many tuples of three finite floats (kept as given, as ``Node`` keeps
        them). Any doubt returns False and the checked path raises the host's error."""
        if type(nodes) not in (list, tuple) or type(coordinates) not in (list, tuple) or \
                len(nodes) != len(coordinates) or not nodes:
            return False
        try:
            alive = all(map(is_, map(self._nodes.get, map(_LABEL, nodes)), nodes))
        except AttributeError:
            return False
        if not alive or len(set(nodes)) != len(nodes) or set(map(type, coordinates)) != {tuple} \
                or set(map(len, coordinates)) != {3} or \
                set(map(type, chain.from_iterable(coordinates))) != {float}:
            return False
        total = sum(chain.from_iterable(coordinates))  # inf or nan when any value is not finite
        if total - total != 0.0:
            return False
        deque(map(_set_node_coordinates, nodes, coordinates), maxlen=0)
        return True

    def mergeNodes(self, nodes: Any, tolerance: Any = 1e-6,  # noqa: N802 - host API
                   removeDuplicateElements: Any = True, **extra: Any) -> None:  # noqa: N803
        """Merge nodes within ``tolerance``: the lower label is kept, elements re-pointed.

        Elements that would use a node twice after the merge collapse and are deleted;
        with ``removeDuplicateElements`` an element with the same shape and node set as a
        lower-labelled one is deleted too. Linear time (spatial hashing).
        """
        reject_keywords(extra)
        candidates = self._members(nodes, MeshNode, "nodes")
        tol = finite(tolerance, "tolerance")
        if tol < 0:
            raise ValueError(f"tolerance must be at least 0; got {tol!r}")
        remove_duplicates = _boolean(removeDuplicateElements, "removeDuplicateElements")
        mapping = merge_groups(candidates, tol)
        if not mapping:
            return
        index = self._node_index()
        elements = self._elements
        affected: dict[int, None] = {}
        for removed in mapping:
            for label in index[removed]:
                affected[label] = None
        collapsed = []
        for label in affected:
            element = elements[label]
            old = element.connectivity
            new = tuple(mapping.get(node_label, node_label) for node_label in old)
            for node_label in old:
                index[node_label].remove(label)
            if len(set(new)) != len(new):
                elements.pop(label)
                collapsed.append(label)
                continue
            repoint_element(element, new)
            for node_label in new:
                index[node_label].append(label)
        for removed in mapping:
            del self._nodes[removed]
            del index[removed]
        if remove_duplicates:
            kept = set(mapping.values())
            self._drop_duplicates(kept)
        self._after_deletion()

    def _drop_duplicates(self, kept_nodes: set[int]) -> None:
        """Among elements touching ``kept_nodes``, delete all but the lowest label per key."""
        index = self._node_index()
        groups: dict[tuple[Any, frozenset[int]], list[int]] = {}
        seen: set[int] = set()
        for node_label in kept_nodes:
            for label in index[node_label]:
                if label in seen:
                    continue
                seen.add(label)
                element = self._elements[label]
                key = (element.type.name, frozenset(element.connectivity))
                groups.setdefault(key, []).append(label)
        doomed = [label for labels in groups.values() if len(labels) > 1
                  for label in sorted(labels)[1:]]
        self._drop_elements(doomed)

    # -- properties --------------------------------------------------------------------
    def _checked_section(self, name: Any) -> str:
        check_name(name, "sectionName")
        sections = self._model.sections
        if name not in sections:
            existing = ", ".join(f"'{key}'" for key in sections.keys()) or "none"
            raise ValueError(f"section '{name}' does not exist in model "
                             f"'{self._model.name}'; existing sections: {existing}")
        return name

    def SectionAssignment(self, region: Any = None, sectionName: Any = None,  # noqa: N802,N803
                          **extra: Any) -> SectionAssignment:
        reject_keywords(extra)
        if region is None:
            raise TypeError("SectionAssignment needs region (a Set or a MeshElementArray)")
        ref = region_ref(self, region)
        if sectionName is None:
            raise TypeError("SectionAssignment needs sectionName")
        name = self._checked_section(sectionName)
        assignment = SectionAssignment(self, ref, name)
        self.sectionAssignments._append(assignment)
        return assignment

    def _beam_region(self, region: Any) -> _RegionRef:
        ref = region_ref(self, region)
        for element in ref.resolve().elements:
            if element.type != BEAM:
                raise ValueError(f"a beam section orientation needs BEAM elements; element "
                                 f"{element.label} is {element.type}")
        return ref

    def assignBeamSectionOrientation(self, region: Any = None,  # noqa: N802 - host API
                                     method: Any = None, n1: Any = None,
                                     **extra: Any) -> BeamOrientation:
        from samConstants import N1_COSINES

        reject_keywords(extra)
        if region is None:
            raise TypeError("assignBeamSectionOrientation needs region (a Set or a "
                            "MeshElementArray of BEAM elements)")
        ref = self._beam_region(region)
        checked_method = check_method(N1_COSINES if method is None else method)
        if n1 is None:
            raise TypeError("assignBeamSectionOrientation needs n1 (three direction cosines)")
        orientation = BeamOrientation(self, ref, checked_method, check_n1(n1))
        self.beamOrientations._append(orientation)
        return orientation

    def _set_renamed(self, old: str, new: str) -> None:
        for entry in list(self.sectionAssignments) + list(self.beamOrientations):
            if entry._region.set_name == old:
                entry._region.set_name = new


def _shape(value: Any) -> tuple[Any, int]:
    if isinstance(value, str):
        raise TypeError("found string, expecting enum")
    if isinstance(value, SymbolicConstant) and value.name in NODE_COUNT:
        return SHAPE_CONSTANTS[value.name], NODE_COUNT[value.name]
    raise ValueError(f"elemShape must be one of QUAD, TRI, BEAM; got {value!r}")


def _boolean(value: Any, what: str) -> bool:
    if isinstance(value, (bool, SymbolicConstant)):
        if isinstance(value, SymbolicConstant) and value.name not in ("ON", "OFF"):
            raise ValueError(f"{what} must be ON or OFF; got {value!r}")
        return bool(value)
    raise TypeError(f"{what} must be ON, OFF, True or False; got {value!r}")
