"""Elements a build or edit call creates on the node set of another element
(docs/architecture.md §4 "What the compilers check").

Two elements on the same nodes, in any order or rotation, are one element counted twice: the
part verifies, but every analysis over it is wrong. A call may not make one, against another
element it makes or against an element that survives on the part, unless the request asks for
duplicates. Each offending element, patch or line is named once with the element it repeats.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass

from sam_plugin.compilers.part.mesh_checks import MeshInput
from sam_plugin.compilers.protocol import Diagnostic
from sam_plugin.samops.mesh_plan import MeshPlan

ADVICE = ("an element may not repeat another's node set, in any order. Remove it, or say in "
          "the request that duplicate elements are wanted")


@dataclass(frozen=True)
class _Owner:
    """An element, patch or line of the call, as the diagnostic names it."""

    id: str
    field: str
    index: int
    explicit: bool  # one element (its path ends in node_ids) or a patch/line of many

    @property
    def path(self) -> str:
        return f"{self.field}[{self.index}]" + (".node_ids" if self.explicit else "")

    def cell(self, k: int, count: int) -> str:
        return "" if self.explicit else f"element {k + 1} of {count}"


@dataclass
class _Hit:
    first: int  # the owner's first repeating cell
    other: str  # what it repeats, in words
    more: int = 0


# existing element key -> its words ("existing element 7 (nodes 1, 2, 5, 4)"), built lazily
ExistingLookup = Callable[[frozenset[int]], str | None]


def duplicate_elements(mesh: MeshInput, plan: MeshPlan, existing_labels: Sequence[int] = (),
                       existing: ExistingLookup | None = None) -> list[Diagnostic]:
    """One diagnostic per owner whose cells repeat a node set. ``plan`` was made with the
    surviving part's points first (``existing_labels`` are their labels, in that order)."""
    owners = list(_owners(mesh))
    first_of: dict[frozenset[int], tuple[_Owner, int]] = {}
    hits: dict[str, _Hit] = {}
    for owner in owners:
        start, end = plan.owners[owner.id]
        for k, cell in enumerate(plan.cells[start:end]):
            key = frozenset(cell)
            if len(key) != len(cell):
                continue  # a degenerate element, reported by its own check
            other = _existing_words(key, plan, existing_labels, existing)
            if other is None and key in first_of:
                twin, j = first_of[key]
                other = _new_words(twin, j, plan)
            if other is None:
                first_of[key] = (owner, k)
            elif owner.id in hits:
                hits[owner.id].more += 1
            else:
                hits[owner.id] = _Hit(k, other)
    return [_diagnostic(owner, hits[owner.id], plan) for owner in owners if owner.id in hits]


def existing_lookup(elements: Callable[[], Mapping[int, Sequence[int]]]) -> ExistingLookup:
    """A lookup over the surviving elements (label -> connectivity), read and indexed only
    when a new element lands wholly on existing nodes."""
    index: dict[frozenset[int], str] = {}
    built = False

    def find(key: frozenset[int]) -> str | None:
        nonlocal built
        if not built:
            built = True
            for label, connectivity in elements().items():
                nodes = ", ".join(map(str, connectivity))
                index.setdefault(frozenset(connectivity), f"existing element {label} "
                                                          f"(nodes {nodes})")
        return index.get(key)

    return find


def _owners(mesh: MeshInput) -> Iterator[_Owner]:
    f = mesh.fields
    for i, element in enumerate(mesh.elements):
        yield _Owner(element.id, f.elements, i, explicit=True)
    for i, patch in enumerate(mesh.patches):
        yield _Owner(patch.id, f.patches, i, explicit=False)
    for i, line in enumerate(mesh.lines):
        yield _Owner(line.id, f.lines, i, explicit=False)


def _count(owner: _Owner, plan: MeshPlan) -> int:
    start, end = plan.owners[owner.id]
    return end - start


def _existing_words(key: frozenset[int], plan: MeshPlan, labels: Sequence[int],
                    existing: ExistingLookup | None) -> str | None:
    if existing is None or any(i >= plan.existing_count for i in key):
        return None
    return existing(frozenset(labels[i] for i in key))


def _new_words(owner: _Owner, k: int, plan: MeshPlan) -> str:
    cell = owner.cell(k, _count(owner, plan))
    return f"{owner.id} ({owner.path.removesuffix('.node_ids')}{', ' + cell if cell else ''})"


def _diagnostic(owner: _Owner, hit: _Hit, plan: MeshPlan) -> Diagnostic:
    cell = owner.cell(hit.first, _count(owner, plan))
    if cell and hit.more:
        cell += f", and {hit.more} more"
    name = f"{owner.id} ({cell})" if cell else owner.id
    return Diagnostic(path=owner.path,
                      message=f"{name} has the same nodes as {hit.other}; {ADVICE}")
