"""A rerun's expected counts, restated for each target (docs/architecture.md §6 "rerun").

The source spec's expected nodes, elements and shapes were counted on the source part: on a
part of another size they warned whatever the change did ("the spec expects 45 nodes; the
calls leave 20"), so no rerun onto another part passed ``--yes``. What carries over is the
change itself. A count the source run left as it was is expected to stay as it is on the
target too (restated: the target's own count before). A count the source run changed is
compared as a change: the target's plan is its own prediction, and it warns only when the
change goes another way there (the source added nodes; on the target the calls add none, or
remove some). A count without the source's before count, and ``selected`` (what the scope
picked on the source part), are left out. Each is a ``Restated`` entry that every channel
words from its fields.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from sam_plugin.compilers.evidence import Prediction, Range, Readback, ShapeName
from sam_plugin.compilers.spec.ir import Expected, Spec
from sam_plugin.runtime.store.run_store import StateSummary

# unchanged: kept, as the target's own count; change: compared as a change with the target's
# prediction; no_before / selected: left out
Why = Literal["unchanged", "change", "no_before", "selected"]


@dataclass(frozen=True)
class Restated:
    """One expected count of the source spec as the target's plan compares it: ``what`` is
    ``nodes``, ``elements``, a shape (``QUAD`` …) or ``selected``."""

    what: str
    source_count: int
    why: Why
    source_before: int | None = None
    target_before: int | None = None
    target_after: str = ""  # the target's plan's own After (``20``, ``18..20``) once planned

    @property
    def change(self) -> int:
        return self.source_count - (self.source_before or 0)

    @property
    def noun(self) -> str:
        return self.what if self.what in ("nodes", "elements") else f"{self.what} elements"

    def words(self, source_part: str, target_part: str) -> str:
        """The English line the CLI prints with the plan."""
        if self.why == "selected":
            return (f"the spec's {self.source_count} acted on counted what the scope picks on "
                    f"{source_part}; not compared on {target_part}")
        if self.why == "no_before":
            return (f"the spec's {self.source_count} {self.noun} were counted on {source_part}, "
                    f"whose count before its run was not kept; not compared on {target_part}")
        if self.why == "unchanged":
            return (f"the spec's {self.source_count} {self.noun} on {source_part} are its "
                    f"count before the run; on {target_part} that is {self.target_before}")
        after = f"; the calls leave {self.target_after}" if self.target_after else ""
        return (f"the spec's {self.source_count} {self.noun} on {source_part} "
                f"({self.source_before} before, {self.change:+d}) are compared as a change on "
                f"{target_part} ({self.target_before} before{after})")


@dataclass(frozen=True)
class RestatedSpec:
    """The spec the target's run confirms, and how its expected counts were restated."""

    spec: Spec
    counts: tuple[Restated, ...]


def restate(spec: Spec, source_before: StateSummary | None,
            read_target: Callable[[], Readback], *, same_part: bool = False) -> RestatedSpec:
    """``spec`` with its expected counts restated for the target part as ``read_target``
    reads it (as it is on ``same_part``: the counts are the part's own). The target is
    read only when the spec expects counts."""
    expected = spec.expected
    if same_part or expected.empty:
        return RestatedSpec(spec=spec, counts=())
    target_before = read_target()
    found: list[Restated] = []
    nodes = _count("nodes", expected.nodes, _before(source_before, "nodes"),
                   target_before.node_count, found)
    elements = _count("elements", expected.elements, _before(source_before, "elements"),
                      target_before.element_count, found)
    now = {str(shape): n for shape, n in target_before.shape_counts.items()}
    shapes: dict[ShapeName, int] = {}
    for shape, wanted in expected.shapes.items():
        kept = _count(shape, wanted, _before(source_before, shape), now.get(shape, 0), found)
        if kept is not None:
            shapes[shape] = kept
    if expected.selected is not None:
        found.append(Restated(what="selected", source_count=expected.selected, why="selected"))
    again = Expected(nodes=nodes, elements=elements, shapes=shapes, sets=expected.sets)
    return RestatedSpec(spec=spec.model_copy(update={"expected": again}), counts=tuple(found))


def change_warnings(counts: Sequence[Restated], prediction: Prediction, source_part: str,
                    target_part: str) -> list[str]:
    """A warning for each count the source run changed that the target's calls may not
    change the same way (the source added; on the target they may add none, or remove)."""
    found = []
    for count in counts:
        predicted = _predicted(prediction, count.what)
        if count.why != "change" or predicted is None or count.target_before is None:
            continue
        low, high = predicted.min - count.target_before, predicted.max - count.target_before
        if (count.change > 0 and low > 0) or (count.change < 0 and high < 0):
            continue
        verb = "added" if count.change > 0 else "removed"
        found.append(f"the spec expects {count.noun} {verb}, as on {source_part} "
                     f"({count.source_before} to {count.source_count}); on {target_part} the "
                     f"calls leave {predicted.describe()} {count.noun} "
                     f"({count.target_before} before)")
    return found


def planned(counts: Sequence[Restated], after: dict[str, str]) -> tuple[Restated, ...]:
    """``counts`` with the target's own After from its plan (``after``: what → count)."""
    from dataclasses import replace

    return tuple(replace(c, target_after=after.get(c.what, "")) if c.why == "change" else c
                 for c in counts)


def _predicted(prediction: Prediction, what: str) -> Range | None:
    if what == "nodes":
        return prediction.node_count
    if what == "elements":
        return prediction.element_count
    return {str(shape): r for shape, r in prediction.shape_counts.items()}.get(what)


def _before(summary: StateSummary | None, what: str) -> int | None:
    if summary is None:
        return None
    if what == "nodes":
        return summary.node_count
    if what == "elements":
        return summary.element_count
    return {str(shape): n for shape, n in summary.shape_counts.items()}.get(what, 0)


def _count(what: str, wanted: int | None, source_before: int | None, target_before: int,
           found: list[Restated]) -> int | None:
    """The count the target's spec keeps (None: left out of it); its entry appended to
    ``found`` unless it is kept as it was."""
    if wanted is None:
        return None
    if source_before is None:
        found.append(Restated(what=what, source_count=wanted, why="no_before"))
        return None
    if wanted == source_before:  # the source run left it as it was: so on the target
        if target_before != wanted:
            found.append(Restated(what=what, source_count=wanted, why="unchanged",
                                  source_before=source_before, target_before=target_before))
        return target_before
    found.append(Restated(what=what, source_count=wanted, why="change",
                          source_before=source_before, target_before=target_before))
    return None
