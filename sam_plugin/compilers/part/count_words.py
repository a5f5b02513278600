"""What the counts a request states indirectly are in an array's copies (docs/architecture.md
§4 "The design, asked in parts"): "four more times" is 4 new copies, and "3 total" is 2, the
original counted among the 3. The key and its offset are the array's own
(``ActionDef.asked_as``)."""

from __future__ import annotations

from sam_plugin.compilers.part.actions import VOCABULARY
from sam_plugin.compilers.spec.request_counts import CountReading, counts_in

_ARRAY = VOCABULARY.action("linear_array")
assert _ARRAY is not None and "count" in _ARRAY.asked_as
_ASKED, _OFFSET, _MEANS = _ARRAY.asked_as["count"]


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
