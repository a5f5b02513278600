"""Numbers come from somewhere (docs/architecture.md §4 "The spec"): a number a model wrote
into a step that is neither in the analyst's request nor in the observation it was shown is
said at Review, by step and value, so the analyst decides (and can edit it). A tolerance of
0.001 where the request says 0.01, or a box copied from a prompt's example, shows up here.

The request is read as words (``request_words.py``): "extend" states no 10 and "四边形" no 4.
A value counts as sourced when it equals (within 1e-6 relative) a number the request states,
one of the observation, or its negation; 0 and 1 are the axes and unit vectors a request
names in words. A scope and a move (a vector that is a length) are held closer, for they say
which entities change and by how much: only the request's own numbers source them, with the
sign it states ("up by 50" sources 50, not −50), a label range only where the request names
labels ("elements 1-4", never "ticket 100-2000"), and neither the observation's numbers nor
1 by itself. Counts a step claims are the plan's to check, not this.

A quantity the request states in another unit than the model's ("5 cm" of a model in mm)
is said too, with its value in the model's units (``request_quantities.py``): a step's bare
number is taken in the model's units.

A spec the analyst wrote is not checked: the analyst is the source of its numbers. An
analyst's edit of a model's spec keeps the warnings on the values it did not change.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from sam_plugin.compilers.spec.ir import Spec, Step
from sam_plugin.compilers.spec.render import step_phrase
from sam_plugin.compilers.spec.request_quantities import StatedQuantity, quantities_in
from sam_plugin.compilers.spec.request_words import StatedNumbers, stated_numbers
from sam_plugin.compilers.spec.values import ValueDef, is_claim, number_words
from sam_plugin.compilers.spec.vocabulary import ActionDef, Vocabulary
from sam_plugin.compilers.units import UnitSystem

_ALWAYS = (0.0, 1.0)


@dataclass(frozen=True)
class Sources:
    """What a spec's writer was shown: the person's words (``said``: the request and the
    remarks), the numbers of the observation and the exploration (``observed``), and the
    labels of the viewport's pick (``picked``)."""

    said: StatedNumbers = field(default_factory=StatedNumbers)
    observed: frozenset[float] = frozenset()
    picked: frozenset[float] = frozenset()

    def sources(self, value: float, *, label: bool = False) -> bool:
        """Whether ``value`` is in the request, the observation or the pick (either sign; a
        label range of the request too, for a scope's ``label``)."""
        if value in _ALWAYS:
            return True
        labels = self.said.labels if label else frozenset()
        return any(close(abs(value), abs(x))
                   for x in (*self.said.numbers, *labels, *self.observed, *self.picked))

    def states(self, value: float, *, label: bool) -> bool:
        """Whether the request's own words state ``value`` of a scope (``label``) or a move."""
        said = self.said
        if value == 0 or any(close(value, x) for x in said.numbers):
            return True
        if value < 0 and said.negative and any(close(-value, x) for x in said.numbers):
            return True
        return label and any(close(value, x) for x in (*said.labels, *self.picked))


def text_sources(texts: Iterable[str], observed: Iterable[str] = (), data: Any = None,
                 picked: Iterable[int] = ()) -> Sources:
    """``Sources`` of the person's ``texts`` (each read apart: no range spans two), the
    ``observed`` texts and JSON-like ``data`` (the observation), and the ``picked`` labels."""
    said = StatedNumbers()
    for text in texts:
        said |= stated_numbers(text)
    seen = numbers_in_data(data) if data is not None else set()
    for text in observed:
        seen |= set(stated_numbers(text).numbers)
    return Sources(said=said, observed=frozenset(seen),
                   picked=frozenset(float(n) for n in picked))


def numbers_in_data(data: Any) -> set[float]:
    """Every number in a JSON-like value (the observation shown to the model)."""
    found: set[float] = set()
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, bool):
            continue
        if isinstance(item, int | float):
            found.add(float(item))
        elif isinstance(item, str):
            continue
        elif isinstance(item, Mapping):
            stack.extend(item.values())
        elif isinstance(item, Iterable):
            stack.extend(item)
    return found


@dataclass(frozen=True)
class Unsourced:
    """The numbers of one step its writer was not shown, as data: ``stray`` ones are in
    neither the request nor the observation; ``unstated`` ones (of a scope or a move) the
    request's words do not state, with the sign given."""

    step: int
    phrase: str
    stray: tuple[float, ...] = ()
    unstated: tuple[float, ...] = ()

    def words(self) -> str:
        said = []
        if self.stray:
            said.append(f"{_listed(self.stray)} {_be(self.stray)} in neither the request nor "
                        "the observation")
        if self.unstated:
            said.append(f"{_listed(self.unstated)} {_be(self.unstated)} not stated by the "
                        "request (a scope or a move takes its numbers, with their signs, from "
                        "the request's own words)")
        return (f"step {self.step} ({self.phrase}): {'; '.join(said)}; check where "
                f"{'it comes' if len(self.stray) + len(self.unstated) == 1 else 'they come'} "
                "from (edit the step if it is wrong)")


def unsourced_values(spec: Spec, vocabulary: Vocabulary, sources: Sources, *,
                     unchanged_from: Spec | None = None,
                     units: UnitSystem | None = None) -> list[str]:
    """One warning per step whose numbers its writer was not shown, naming them.
    ``unchanged_from``: the spec an analyst edited; only the values the edit left as they
    were are checked (the analyst is the source of the others); ``units``: the step is said
    with them."""
    return [found.words() for found in unsourced(spec, vocabulary, sources,
                                                   unchanged_from=unchanged_from, units=units)]


def unsourced(spec: Spec, vocabulary: Vocabulary, sources: Sources, *,
              unchanged_from: Spec | None = None,
              units: UnitSystem | None = None) -> list[Unsourced]:
    found = []
    for number, step in enumerate(spec.steps, start=1):
        action = vocabulary.action(step.action)
        if action is None:
            continue
        earlier = _same_step(step, number - 1, unchanged_from) if unchanged_from else step
        if earlier is None:
            continue
        plain, moves, scope = _numbers(step, action, earlier)
        stray = ({n for n in [*plain, *moves] if not sources.sources(n)}
                 | {n for n in scope if not sources.sources(n, label=True)}) \
            - _counted_as_asked(step, action, sources)
        unstated = ({n for n in moves if not sources.states(n, label=False)}
                    | {n for n in scope if not sources.states(n, label=True)}) - stray
        if stray or unstated:
            found.append(Unsourced(number, step_phrase(step, vocabulary, units=units),
                                   tuple(sorted(stray)), tuple(sorted(unstated))))
    return found


def _numbers(step: Step, action: ActionDef, earlier: Step
             ) -> tuple[set[float], set[float], set[float]]:
    """The step's numbers: of its plain values, of its moves, of its scope (those the same
    in ``earlier``)."""
    plain: set[float] = set()
    moves: set[float] = set()
    for key, value in step.values.items():
        definition = action.values.get(key)
        if definition is None or is_claim(definition, value) or earlier.values.get(key) != value:
            continue
        (moves if _is_move(definition) else plain).update(numbers_in_data(value))
    scope: set[float] = set()
    if step.scope is not None and step.scope == earlier.scope:
        scope = numbers_in_data(step.scope.model_dump(mode="json"))
    return plain, moves, scope


def _counted_as_asked(step: Step, action: ActionDef, sources: Sources) -> set[float]:
    """Values a person counts another way (``ActionDef.asked_as``): "four more copies"
    sources an array of 5 instances."""
    found: set[float] = set()
    for key, (_, offset, _) in action.asked_as.items():
        value = step.values.get(key)
        if isinstance(value, int) and not isinstance(value, bool) and \
                sources.sources(value - offset):
            found.add(float(value))
    return found


def _is_move(definition: ValueDef) -> bool:
    """A vector that is a length: how far entities go (or where), not a direction."""
    return definition.kind == "vector" and definition.quantity == "length"


def _same_step(step: Step, index: int, spec: Spec) -> Step | None:
    """The step of ``spec`` an edit left as ``step`` (same place, else the first of its
    action), or ``None``: a step the analyst added."""
    steps = spec.steps
    if index < len(steps) and steps[index].action == step.action:
        return steps[index]
    return next((s for s in steps if s.action == step.action), None)


def close(a: float, b: float) -> bool:
    """Whether two numbers are the same number as written (to a millionth)."""
    return math.isclose(a, b, rel_tol=1e-6)


def _listed(numbers: tuple[float, ...]) -> str:
    return ", ".join(number_words(n) for n in numbers)


def _be(numbers: tuple[float, ...]) -> str:
    return "is" if len(numbers) == 1 else "are"


_PLURAL = {"length": "lengths", "stress": "stresses", "force": "forces",
           "density": "densities"}


@dataclass(frozen=True)
class UnitMismatch:
    """A quantity the request states in another unit than the model's (``5 cm`` of a model
    in mm), as data: said with its value in the model's units."""

    quantity: StatedQuantity
    system: UnitSystem

    def words(self) -> str:
        quantity = self.quantity
        return (f"the request says {quantity.said}, and this model's "
                f"{_PLURAL[quantity.kind]} are in {quantity.unit_in(self.system)}: "
                f"{quantity.conversion_words(self.system)}; "
                "a step's number is taken in the model's units, so check that the steps use "
                f"{_converted(quantity, self.system)} (edit the step if they do not)")


def unit_mismatches(texts: Iterable[str], spec: Spec, system: UnitSystem | None
                    ) -> list[UnitMismatch]:
    """The quantities ``texts`` state in a unit other than ``system``'s, each once, except
    those the spec already carries converted (its numbers hold the converted value and not
    the bare one)."""
    if system is None:
        return []
    carried = numbers_in_data([[s.values, s.scope.model_dump(mode="json") if s.scope else {}]
                               for s in spec.steps])
    found: list[UnitMismatch] = []
    for text in texts:
        for quantity in quantities_in(text):
            converted = quantity.value_in(system)
            if not quantity.differs_from(system) or converted is None:
                continue
            if any(close(converted, n) for n in carried) and \
                    not any(close(quantity.value, n) for n in carried):
                continue  # the writer converted it
            if all(f.quantity != quantity for f in found):
                found.append(UnitMismatch(quantity, system))
    return found


def _converted(quantity: StatedQuantity, system: UnitSystem) -> str:
    value = quantity.value_in(system)
    return number_words(value) if value is not None else ""
