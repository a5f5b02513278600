"""Mesh entities and the arrays that view them.

Entities are small ``__slots__`` objects owned by one part and read-only from a script
(``part.editNode`` moves a node). Arrays never copy entities: ``part.nodes`` is a live view
of the part's label dict, and a subset array (from ``sequenceFromLabels``, a bounding box or
a set) keeps references and drops entities that were deleted since, so every array stays
live without copying 200,000 objects per access.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from sam._checks import describe_labels, finite, reject_keywords, vec3

if TYPE_CHECKING:
    from sam.part import Part


class MeshNode:
    """A node: ``label``, ``coordinates`` (three floats); ``getElements()``."""

    __slots__ = ("label", "coordinates", "_part")

    label: int
    coordinates: tuple[float, float, float]

    def __setattr__(self, key: str, value: Any) -> None:
        raise AttributeError(f"MeshNode.{key} is read-only; use part.editNode(...) to move "
                             "a node")

    def __repr__(self) -> str:
        return f"{self._part!r}.nodes.getFromLabel({self.label})"

    def getElements(self) -> MeshElementArray:  # noqa: N802 - host API name
        """The elements that use this node."""
        part = self._part
        part._check_alive_node(self)
        labels = part._node_index()[self.label]
        elements = part._elements
        return MeshElementArray._subset(part, tuple(elements[label] for label in labels))


class MeshElement:
    """An element: ``label``, ``type`` (QUAD/TRI/BEAM), ``connectivity`` (node labels)."""

    __slots__ = ("label", "type", "connectivity", "_part")

    label: int
    type: Any
    connectivity: tuple[int, ...]

    def __setattr__(self, key: str, value: Any) -> None:
        raise AttributeError(f"MeshElement.{key} is read-only")

    def __repr__(self) -> str:
        return f"{self._part!r}.elements.getFromLabel({self.label})"

    def getNodes(self) -> MeshNodeArray:  # noqa: N802 - host API name
        """The element's nodes, in connectivity order."""
        part = self._part
        part._check_alive_element(self)
        nodes = part._nodes
        return MeshNodeArray._subset(part, tuple(nodes[label] for label in self.connectivity))


# Slot setters: the host writes through the descriptors, bypassing the read-only __setattr__.
_new_node = object.__new__
_set_node_label = MeshNode.__dict__["label"].__set__
_set_node_coordinates = MeshNode.__dict__["coordinates"].__set__
_set_node_part = MeshNode.__dict__["_part"].__set__
_set_element_label = MeshElement.__dict__["label"].__set__
_set_element_type = MeshElement.__dict__["type"].__set__
_set_element_connectivity = MeshElement.__dict__["connectivity"].__set__
_set_element_part = MeshElement.__dict__["_part"].__set__


def make_node(part: Part, label: int, coordinates: tuple[float, float, float]) -> MeshNode:
    node = _new_node(MeshNode)
    _set_node_label(node, label)
    _set_node_coordinates(node, coordinates)
    _set_node_part(node, part)
    return node


def make_element(part: Part, label: int, shape: Any, connectivity: tuple[int, ...]) -> MeshElement:
    element = _new_node(MeshElement)
    _set_element_label(element, label)
    _set_element_type(element, shape)
    _set_element_connectivity(element, connectivity)
    _set_element_part(element, part)
    return element


def move_node(node: MeshNode, coordinates: tuple[float, float, float]) -> None:
    _set_node_coordinates(node, coordinates)


def repoint_element(element: MeshElement, connectivity: tuple[int, ...]) -> None:
    _set_element_connectivity(element, connectivity)


class _MeshArray:
    """Shared behaviour of node and element arrays (a live view; see the module doc)."""

    __slots__ = ("_part", "_items", "_cache", "_cache_key")

    _noun = "entity"
    _entity_type: type = object

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        # MeshNodeArray(nodes) / MeshElementArray(elements): an array from a sequence
        key = "nodes" if self._entity_type is MeshNode else "elements"
        items = kwargs.pop(key, args[0] if args else ())
        reject_keywords(kwargs)
        entities = tuple(items)
        part = None
        for entity in entities:
            if type(entity) is not self._entity_type:
                raise TypeError(f"{key} must be {self._entity_type.__name__} objects; "
                                f"got {type(entity).__name__}")
            if part is None:
                part = entity._part
            elif entity._part is not part:
                raise ValueError(f"{key} must all belong to one part; got parts "
                                 f"'{part.name}' and '{entity._part.name}'")
        self._part = part
        self._items = entities
        self._cache: tuple[Any, ...] | None = None
        self._cache_key = -1

    @classmethod
    def _whole(cls, part: Part) -> Any:
        array = object.__new__(cls)
        array._part = part
        array._items = None
        array._cache = None
        array._cache_key = -1
        return array

    @classmethod
    def _subset(cls, part: Part | None, items: tuple[Any, ...]) -> Any:
        array = object.__new__(cls)
        array._part = part
        array._items = items
        array._cache = None
        array._cache_key = -1
        return array

    # -- the live contents -------------------------------------------------------------
    def _store(self) -> dict[int, Any]:
        raise NotImplementedError

    def _live(self) -> Sequence[Any]:
        """The current members, in order; recomputed only after the part changed."""
        part = self._part
        if part is None:
            return ()
        if self._items is None:
            return part._ordered(self._entity_type is MeshNode)
        if self._cache_key != part._deletions:
            store = self._store()
            self._cache = tuple(e for e in self._items if store.get(e.label) is e)
            self._cache_key = part._deletions
        return self._cache  # type: ignore[return-value]

    def __len__(self) -> int:
        if self._items is None and self._part is not None:
            return len(self._store())
        return len(self._live())

    def __iter__(self) -> Iterator[Any]:
        # a snapshot: a loop body may add or delete entities without upsetting the loop
        return iter(tuple(self._live()))

    def __getitem__(self, index: int | slice) -> Any:
        live = self._live()
        if isinstance(index, slice):
            return type(self)._subset(self._part, tuple(live[index]))
        if isinstance(index, bool) or not isinstance(index, int):
            raise TypeError(f"{self._noun} array indices must be integers; "
                            f"got {type(index).__name__}")
        try:
            return live[index]
        except IndexError:
            raise IndexError(f"{self._noun} index {index} out of range for an array of "
                             f"{len(live)} {self._noun}s") from None

    def __bool__(self) -> bool:
        return len(self) > 0

    def __add__(self, other: Any) -> Any:
        if type(other) is not type(self):
            return NotImplemented
        return type(self)(tuple(self) + tuple(other))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({len(self)} {self._noun}s)"

    # -- queries -----------------------------------------------------------------------
    def _where(self) -> str:
        if self._part is None:
            return "this empty array"
        if self._items is None:
            return f"part '{self._part.name}'"
        return f"this array of part '{self._part.name}'"

    def _labels_here(self) -> Iterable[int]:
        if self._items is None and self._part is not None:
            return self._store().keys()
        return (e.label for e in self._live())

    def getFromLabel(self, label: int) -> Any:  # noqa: N802 - host API name
        """The member with ``label``; a missing label names the existing label range."""
        if isinstance(label, bool) or not isinstance(label, int):
            raise TypeError(f"label must be an integer; got {label!r}")
        if self._part is not None:
            entity = self._store().get(label)
            if entity is not None and (self._items is None or entity in self._live()):
                return entity
        raise ValueError(f"{self._noun} label {label} does not exist in {self._where()}; "
                         f"{describe_labels(self._labels_here(), self._noun)}")

    def sequenceFromLabels(self, labels: Iterable[int]) -> Any:  # noqa: N802
        """The members with these labels, in the given order (repeats dropped)."""
        if isinstance(labels, (str, bytes)) or not isinstance(labels, Iterable):
            raise TypeError(f"labels must be a sequence of integers; got {labels!r}")
        wanted = list(dict.fromkeys(labels))
        for label in wanted:
            if isinstance(label, bool) or not isinstance(label, int):
                raise TypeError(f"labels must be integers; got {label!r}")
        if self._part is None:
            found: list[Any] = []
            missing = wanted
        else:
            store = self._store()
            members = None if self._items is None else {e.label for e in self._live()}
            found = []
            missing = []
            for label in wanted:
                entity = store.get(label)
                if entity is None or (members is not None and label not in members):
                    missing.append(label)
                else:
                    found.append(entity)
        if missing:
            shown = ", ".join(str(label) for label in missing[:10])
            more = f" (and {len(missing) - 10} more)" if len(missing) > 10 else ""
            verb = "does" if len(missing) == 1 else "do"
            plural = "" if len(missing) == 1 else "s"
            raise ValueError(f"{self._noun} label{plural} {shown}{more} {verb} not exist in "
                             f"{self._where()}; "
                             f"{describe_labels(self._labels_here(), self._noun)}")
        return type(self)._subset(self._part, tuple(found))

    def getByBoundingBox(  # noqa: N802 - host API name
        self,
        xMin: float = -math.inf,  # noqa: N803
        yMin: float = -math.inf,  # noqa: N803
        zMin: float = -math.inf,  # noqa: N803
        xMax: float = math.inf,  # noqa: N803
        yMax: float = math.inf,  # noqa: N803
        zMax: float = math.inf,  # noqa: N803
        **extra: Any,
    ) -> Any:
        """Members inside the closed box (an element when all its nodes are), one pass."""
        reject_keywords(extra)
        bounds = []
        for value, what in ((xMin, "xMin"), (yMin, "yMin"), (zMin, "zMin"),
                            (xMax, "xMax"), (yMax, "yMax"), (zMax, "zMax")):
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                finite(value, what)
            if value != value:
                raise ValueError(f"{what} must be a number; got nan")
            bounds.append(float(value))
        return type(self)._subset(self._part, self._inside(*bounds))

    def _inside(self, x0: float, y0: float, z0: float,
                x1: float, y1: float, z1: float) -> tuple[Any, ...]:
        raise NotImplementedError


def _node_inside(x0: float, y0: float, z0: float, x1: float, y1: float, z1: float) -> Any:
    def inside(node: MeshNode) -> bool:
        x, y, z = node.coordinates
        return x0 <= x <= x1 and y0 <= y <= y1 and z0 <= z <= z1
    return inside


class MeshNodeArray(_MeshArray):
    """A sequence of nodes of one part."""

    __slots__ = ()
    _noun = "node"
    _entity_type = MeshNode

    def _store(self) -> dict[int, Any]:
        return self._part._nodes  # type: ignore[union-attr]

    def _inside(self, x0: float, y0: float, z0: float,
                x1: float, y1: float, z1: float) -> tuple[Any, ...]:
        inside = _node_inside(x0, y0, z0, x1, y1, z1)
        return tuple(node for node in self if inside(node))

    def getClosest(  # noqa: N802 - host API name
        self, coordinates: Any, searchTolerance: float | None = None,  # noqa: N803
        **extra: Any,
    ) -> Any:
        """The nearest node to a point (or a tuple of them for a sequence of points).

        ``None`` stands for "no node within ``searchTolerance``"; without a tolerance the
        nearest node of a non-empty array is always found.
        """
        reject_keywords(extra)
        tolerance = None if searchTolerance is None else finite(searchTolerance,
                                                                 "searchTolerance")
        if tolerance is not None and tolerance < 0:
            raise ValueError(f"searchTolerance must be at least 0; got {tolerance!r}")
        single = _is_point(coordinates)
        points = [vec3(coordinates, "coordinates")] if single else [
            vec3(point, f"coordinates[{i}]") for i, point in enumerate(coordinates)]
        from sam.spatial import nearest_nodes

        found = nearest_nodes(tuple(self), points, tolerance)
        return found[0] if single else tuple(found)


def _is_point(value: Any) -> bool:
    try:
        first = value[0]
    except (TypeError, IndexError, KeyError):
        return False
    return isinstance(first, (int, float)) and not isinstance(first, bool)


class MeshElementArray(_MeshArray):
    """A sequence of elements of one part."""

    __slots__ = ()
    _noun = "element"
    _entity_type = MeshElement

    def _store(self) -> dict[int, Any]:
        return self._part._elements  # type: ignore[union-attr]

    def _inside(self, x0: float, y0: float, z0: float,
                x1: float, y1: float, z1: float) -> tuple[Any, ...]:
        if self._part is None:
            return ()
        inside = _node_inside(x0, y0, z0, x1, y1, z1)
        nodes = self._part._nodes
        flags: dict[int, bool] = {}
        picked = []
        for element in self:
            for label in element.connectivity:
                flag = flags.get(label)
                if flag is None:
                    flag = flags[label] = inside(nodes[label])
                if not flag:
                    break
            else:
                picked.append(element)
        return tuple(picked)
