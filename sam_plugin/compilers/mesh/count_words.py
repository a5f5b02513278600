"""What the counts a request states indirectly are in refine levels (docs/architecture.md
§4 "The design, asked in parts"): a level halves each element edge, so "twice as fine" is 1
level, and a QUAD or TRI splits into 4 per level, a BEAM into 2: "into 16" is 2 levels of a
QUAD, "in half" 1 level of a BEAM. A count that is no whole number of levels is not said."""

from __future__ import annotations

from sam_plugin.compilers.spec.request_counts import CountReading, counts_in
from sam_plugin.samops.mesh_ops import MAX_LEVELS

# (elements, pieces one level splits each into)
_SPLITS = (("QUAD or TRI elements", 4), ("BEAM elements", 2))


def refine_counts(request: str) -> tuple[CountReading, ...]:
    """The request's indirect counts as ``levels``, for the elements they fit."""
    readings: list[CountReading] = []
    for count in counts_in(request):
        if count.kind == "finer":
            levels = _levels(count.value, 2)
            if levels is not None:
                readings.append(CountReading(count.said, "levels", levels,
                                             because="each level halves the element size"))
        elif count.kind == "pieces":
            readings += [CountReading(count.said, "levels", levels, applies=elements)
                         for elements, per_level in _SPLITS
                         if (levels := _levels(count.value, per_level)) is not None]
    return tuple(readings)


def _levels(factor: int, per_level: int) -> int | None:
    """How many levels make ``factor`` of ``per_level`` each (None: no whole number)."""
    levels, made = 0, 1
    while made < factor and levels < MAX_LEVELS:
        levels, made = levels + 1, made * per_level
    return levels if made == factor and levels >= 1 else None
