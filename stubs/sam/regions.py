"""Sets, regions, section assignments and beam orientations of a part."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from sam._checks import reject_keywords, vec3
from sam.mesh import MeshElementArray, MeshNodeArray

if TYPE_CHECKING:
    from sam.part import Part

T = TypeVar("T")


class Set:
    """A named set of nodes and elements; ``nodes``/``elements`` are live arrays."""

    __slots__ = ("name", "_part", "_nodes", "_elements")

    def __init__(self, part: Part, name: str, nodes: MeshNodeArray,
                 elements: MeshElementArray) -> None:
        self.name = name
        self._part = part
        self._nodes = nodes
        self._elements = elements

    @property
    def nodes(self) -> MeshNodeArray:
        return self._nodes

    @property
    def elements(self) -> MeshElementArray:
        return self._elements

    def _rename(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"{self._part!r}.sets[{self.name!r}]"


class Region:
    """An anonymous region of a part (what a MeshElementArray becomes once assigned)."""

    __slots__ = ("_part", "_elements")

    def __init__(self, part: Part, elements: MeshElementArray) -> None:
        self._part = part
        self._elements = elements

    @property
    def elements(self) -> MeshElementArray:
        return self._elements

    @property
    def nodes(self) -> MeshNodeArray:
        return MeshNodeArray._subset(self._part, ())

    def __repr__(self) -> str:
        return f"Region({len(self._elements)} elements)"


class _RegionRef:
    """A region kept by set name (the host follows the set) or by its elements."""

    __slots__ = ("_part", "set_name", "elements")

    def __init__(self, part: Part, set_name: str | None,
                 elements: MeshElementArray | None) -> None:
        self._part = part
        self.set_name = set_name
        self.elements = elements

    def resolve(self) -> Set | Region:
        part = self._part
        if self.set_name is not None:
            found = part.sets.get(self.set_name)
            if found is not None:
                return found
            # the set was deleted: the region is empty, as in the host
            return Region(part, MeshElementArray._subset(part, ()))
        assert self.elements is not None
        return Region(part, self.elements)


def region_ref(part: Part, region: Any, what: str = "region") -> _RegionRef:
    """Accept a Set of ``part`` or a MeshElementArray of ``part``; anything else is refused."""
    if isinstance(region, Set):
        if region._part is not part:
            raise ValueError(f"{what} must be a set of part '{part.name}'; set "
                             f"'{region.name}' belongs to part '{region._part.name}'")
        if part.sets.get(region.name) is not region:
            raise ValueError(f"{what}: set '{region.name}' is no longer in part "
                             f"'{part.name}' (it was replaced or deleted); existing sets: "
                             f"{', '.join(repr(k) for k in part.sets.keys()) or 'none'}")
        return _RegionRef(part, region.name, None)
    if isinstance(region, Region):
        if region._part is not part:
            raise ValueError(f"{what} must belong to part '{part.name}'")
        return _RegionRef(part, None, region.elements)
    if isinstance(region, MeshElementArray):
        if region._part is not None and region._part is not part:
            raise ValueError(f"{what} must be elements of part '{part.name}'; these belong "
                             f"to part '{region._part.name}'")
        # the host keeps the elements selected now, not whatever the array shows later
        return _RegionRef(part, None, MeshElementArray._subset(part, tuple(region)))
    raise TypeError(f"{what} must be a Set or a MeshElementArray of part '{part.name}'; "
                    f"got {type(region).__name__}")


class SectionAssignment:
    """``part.SectionAssignment(region, sectionName)``: ``region``, ``sectionName``."""

    __slots__ = ("_part", "_region", "sectionName")

    def __init__(self, part: Part, region: _RegionRef, section_name: str) -> None:
        self._part = part
        self._region = region
        self.sectionName = section_name

    @property
    def region(self) -> Set | Region:
        return self._region.resolve()

    def setValues(self, region: Any = None, sectionName: str | None = None,  # noqa: N802,N803
                  **extra: Any) -> None:
        reject_keywords(extra)
        new_region = self._region if region is None else region_ref(self._part, region)
        new_name = self.sectionName if sectionName is None else \
            self._part._checked_section(sectionName)
        self._region = new_region
        self.sectionName = new_name

    def __repr__(self) -> str:
        return f"SectionAssignment(sectionName={self.sectionName!r})"


class BeamOrientation:
    """``part.assignBeamSectionOrientation(...)``: ``region``, ``method``, ``n1``.

    Orientations stay in the order given; for an element in several regions the latest
    entry is the one the host uses.
    """

    __slots__ = ("_part", "_region", "method", "n1")

    def __init__(self, part: Part, region: _RegionRef, method: Any,
                 n1: tuple[float, float, float]) -> None:
        self._part = part
        self._region = region
        self.method = method
        self.n1 = n1

    @property
    def region(self) -> Set | Region:
        return self._region.resolve()

    def setValues(self, region: Any = None, method: Any = None,  # noqa: N802
                  n1: Any = None, **extra: Any) -> None:
        reject_keywords(extra)
        part = self._part
        new_region = self._region if region is None else part._beam_region(region)
        new_method = self.method if method is None else check_method(method)
        new_n1 = self.n1 if n1 is None else check_n1(n1)
        self._region = new_region
        self.method = new_method
        self.n1 = new_n1

    def __repr__(self) -> str:
        return f"BeamOrientation(method={self.method!r}, n1={self.n1!r})"


def check_method(method: Any) -> Any:
    from samConstants import N1_COSINES, SymbolicConstant

    if isinstance(method, str):
        raise TypeError("found string, expecting enum")
    if not isinstance(method, SymbolicConstant) or method != N1_COSINES:
        raise ValueError(f"method must be N1_COSINES; got {method!r}")
    return N1_COSINES


def check_n1(n1: Any) -> tuple[float, float, float]:
    vector = vec3(n1, "n1")
    if vector == (0.0, 0.0, 0.0):
        raise ValueError("n1 must not be the zero vector")
    return vector


class EntryList(Generic[T]):
    """``part.sectionAssignments`` / ``part.beamOrientations``: index, iterate, ``del``."""

    __slots__ = ("_entries", "_kind")

    def __init__(self, kind: str) -> None:
        self._entries: list[T] = []
        self._kind = kind

    def __len__(self) -> int:
        return len(self._entries)

    def __iter__(self) -> Iterator[T]:
        return iter(list(self._entries))

    def __getitem__(self, index: int) -> T:
        try:
            return self._entries[index]
        except IndexError:
            raise IndexError(f"{self._kind} index {index} out of range: the part has "
                             f"{len(self._entries)} {self._kind}s") from None

    def __delitem__(self, index: int) -> None:
        try:
            del self._entries[index]
        except IndexError:
            raise IndexError(f"{self._kind} index {index} out of range: the part has "
                             f"{len(self._entries)} {self._kind}s") from None

    def __repr__(self) -> str:
        return f"[{', '.join(repr(entry) for entry in self._entries)}]"

    def _append(self, entry: T) -> None:
        self._entries.append(entry)
