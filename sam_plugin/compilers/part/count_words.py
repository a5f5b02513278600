"""What the counts a request states indirectly are in Part's values (docs/architecture.md
§4 "The design, asked in parts"): "four more times" is 4 new copies, and "3 total" is 2, the
original counted among the 3 (the key and its offset are the array's own,
``ActionDef.asked_as``); an element size is the divisions it makes of the lengths the
request names ("one element every 500" from the origin to (0, 0, 3000): divisions 6)."""

from __future__ import annotations

from sam_plugin.compilers.part.actions import VOCABULARY
from sam_plugin.compilers.spec.request_counts import CountReading, counts_in
from sam_plugin.compilers.spec.request_spacing import spacing_readings

_ARRAY = VOCABULARY.action("linear_array")
assert _ARRAY is not None and "count" in _ARRAY.asked_as
_ASKED, _OFFSET, _MEANS = _ARRAY.asked_as["count"]


def part_counts(request: str) -> tuple[CountReading, ...]:
    """The request's indirect counts: its copies, then the divisions of its element size."""
    return copy_counts(request) + spacing_readings(request)


def copy_counts(request: str) -> tuple[CountReading, ...]:
    """The request's indirect counts of copies, as the array's new copies."""
    readings = []
    for count in counts_in(request):
        if count.kind == "more":
            readings.append(CountReading(count.said, _ASKED, count.value, because=_MEANS))
        elif count.kind == "total" and count.value > _OFFSET:
            readings.append(CountReading(
                count.said, _ASKED, count.value - _OFFSET,
                because=f"{count.value} in all, the original counted"))
    return tuple(readings)
