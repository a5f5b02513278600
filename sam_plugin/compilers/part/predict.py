"""Prediction arithmetic for Part calls: exact where knowable, ranges where not."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from sam_plugin.compilers.evidence import SHAPES, Prediction, Range
from sam_plugin.compilers.protocol import CompileContext


def state_is_live(ctx: CompileContext) -> bool:
    """True when nothing earlier in the run changed the part: the live part is the state."""
    state = ctx.state
    part = ctx.part
    if part is None or not state.geometry_unchanged:
        return False
    return (state.node_count.is_exact and state.element_count.is_exact
            and state.node_count.min == len(part.nodes)
            and state.element_count.min == len(part.elements))


def part_expected(ctx: CompileContext) -> bool:
    """Whether the part exists now or an earlier call of the run creates it."""
    return ctx.part is not None or ctx.state.node_count.max > 0 or ctx.state.element_count.max > 0


def exact_shapes(counts: Mapping[str, int]) -> dict[str, Range]:
    return {s: Range.exact(counts.get(s, 0)) for s in SHAPES}


def changed(state: Prediction, **fields: Any) -> Prediction:
    """A copy of ``state`` after a geometry-changing call."""
    return state.model_copy(update={"geometry_unchanged": False, **fields})


def add_ranges(a: Range, low: int, high: int) -> Range:
    return Range(min=max(0, a.min + low), max=max(0, a.max + high))


def at_most(a: Range) -> Range:
    return Range(min=0, max=a.max)


def merged_sets(existing: Iterable[str], added: Iterable[str]) -> list[str]:
    return sorted(set(existing) | set(added))
