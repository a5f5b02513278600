"""A step that states another count than the one the product read from the request's words
and stated for it ("3 total" is 2 new copies; "array … into 4 instances" makes 3): asked
again before Review (docs/architecture.md §4 "One repair before Review"). Only a count that
applies to every step of its action (``CountReading.applies`` empty), and only where no step
of that action states it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sam_plugin.compilers.spec.ir import Spec
from sam_plugin.compilers.spec.request_counts import CountReading
from sam_plugin.compilers.spec.vocabulary import ActionDef, Vocabulary


@dataclass(frozen=True)
class Miscounted:
    """Step ``step`` (0-based) states ``key`` ``stated``; the request's words make it
    ``wanted`` (``reading``)."""

    step: int
    key: str
    stated: object
    wanted: int
    reading: CountReading


def miscounted(spec: Spec, vocabulary: Vocabulary,
               readings: Sequence[CountReading]) -> Miscounted | None:
    """The first step that states a count the request's words contradict, else None."""
    for reading in readings:
        if reading.applies:
            continue
        stating = [(i, key, offset) for i, step in enumerate(spec.steps)
                   if (action := vocabulary.action(step.action)) is not None
                   for key, offset in _written(action, reading.key) if key in step.values]
        if not stating or any(spec.steps[i].values[key] == reading.value + offset
                              for i, key, offset in stating):
            continue
        index, key, offset = stating[0]
        return Miscounted(index, key, spec.steps[index].values[key], reading.value + offset,
                          reading)
    return None


def _written(action: ActionDef, asked: str) -> list[tuple[str, int]]:
    """The value keys of ``action`` that state the reading's key ``asked``, with what is
    added to make them (an array's instances are the new copies + 1)."""
    found = [(key, offset) for key, (name, offset, _) in action.asked_as.items()
             if name == asked]
    if asked in action.values and asked not in action.asked_as:
        found.append((asked, 0))
    return found
