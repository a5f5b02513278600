"""The places the analyst's request names, on the target part (``compilers/spec/
request_places.py``): the design request's line that states them as boxes and points, and
their numbers, which count as the request's own at Review (the product converted the words,
as it converts a unit). Nothing is read from the host unless the request names a place."""

from __future__ import annotations

import logging

from sam_plugin.compilers.spec.request_places import (
    flat_part,
    place_boxes,
    place_numbers,
    places_in,
    places_words,
)
from sam_plugin.runtime.run.context import StepContext
from sam_plugin.runtime.run.state import RunState

log = logging.getLogger(__name__)


def named_places(ctx: StepContext, run: RunState) -> tuple[str, frozenset[float]]:
    """(the places line, or ``""``; the numbers it states), read once a run: the request
    stays and the part is held to what was observed (the drift checks)."""
    if run.conversation.places is None:
        run.conversation.places = _read_places(ctx, run)
    return run.conversation.places


def _read_places(ctx: StepContext, run: RunState) -> tuple[str, frozenset[float]]:
    places = places_in(run.inputs.request)
    if not places:
        return "", frozenset()
    try:
        part = ctx.host.part(run.target)
        flat = flat_part((node.label, tuple(node.coordinates)) for node in part.nodes) \
            if part is not None else None
    except Exception:  # noqa: BLE001 - a host that cannot say: no places are said
        log.debug("the part's nodes could not be read for the request's places",
                  exc_info=True)
        return "", frozenset()
    run.conversation.place_boxes = place_boxes(places, flat)
    return places_words(places, flat), place_numbers(places, flat)


def region_boxes(ctx: StepContext, run: RunState
                 ) -> tuple[tuple[str, tuple[float, ...], tuple[float, ...]], ...]:
    """The places the request names that are regions of the part: (their words, the box's
    low and high corners), read with the places line."""
    named_places(ctx, run)
    return run.conversation.place_boxes
