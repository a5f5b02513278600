"""Binding calls to the confirmed spec (docs/architecture.md §4 "The spec", invariant I15).

Every operation of a compiled call carries out exactly one step of the same action; every
value the step states equals the call's (names and labels exactly, numbers within 1e-9
relative); the call's scope is no wider than the step's (the same selector, or members on the
observed part that are a subset of the step's); and every step is carried out. Anything else
is a contradiction: a compile error naming the step and the value, in the words the spec is
rendered in ("step 1 says translate set S1 by (5, 0, 0); the call translates all nodes by
(0, 500, 0)").

Pure: it reads the observed part (a host object, read-only) only to resolve selectors.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from sam_plugin.compilers.protocol import Diagnostic
from sam_plugin.compilers.selectors import selector_literal
from sam_plugin.compilers.spec.ir import Spec, Step
from sam_plugin.compilers.spec.values import is_claim, same_value, value_words
from sam_plugin.compilers.spec.vocabulary import (
    ActionDef,
    CallOperation,
    Members,
    Vocabulary,
    scope_words,
)
from sam_plugin.errors import SelectionError
from sam_plugin.samops import selection


@dataclass(frozen=True)
class BoundStep:
    """Step ``step`` (0-based) carried out by ``operation``."""

    step: int
    operation: CallOperation


@dataclass(frozen=True)
class Contradiction:
    """A call that says other than the spec: ``step`` (0-based) and/or the ``operation``."""

    message: str
    step: int | None = None
    operation: CallOperation | None = None

    def diagnostic(self) -> Diagnostic:
        return Diagnostic(path=self.operation.path if self.operation else "",
                          message=self.message)


@dataclass(frozen=True)
class Binding:
    """The steps a call carries out, its contradictions, and ``claims``: where a bound step's
    counts (the model's arithmetic) differ from what the call makes, a plan warning."""

    bound: tuple[BoundStep, ...]
    contradictions: tuple[Contradiction, ...]
    claims: tuple[str, ...] = ()

    @property
    def holds(self) -> bool:
        return not self.contradictions


def bind_call(spec: Spec, vocabulary: Vocabulary, capability: str,
              operations: Sequence[CallOperation], part: Any) -> Binding:
    """Bind one call (of ``capability``'s tool) to the steps of that capability."""
    steps = [i for i, step in enumerate(spec.steps) if step.capability == capability]
    return _Binder(spec, vocabulary, part).bind(steps, list(operations))


def unbound_steps(spec: Spec, vocabulary: Vocabulary, bound: Sequence[BoundStep],
                  capabilities: Sequence[str] | None = None) -> list[Contradiction]:
    """The steps no call carried out (of ``capabilities``, all when ``None``)."""
    done = {b.step for b in bound}
    return [
        Contradiction(f"{step_words(spec, i, vocabulary)}; no call carries it out", step=i)
        for i, step in enumerate(spec.steps)
        if i not in done and (capabilities is None or step.capability in capabilities)
    ]


def step_words(spec: Spec, index: int, vocabulary: Vocabulary) -> str:
    """``step 2 says translate set S1 by (5, 0, 0)``."""
    step = spec.steps[index]
    action = vocabulary.action(step.action)
    said = action.phrase(step.values, step.scope) if action is not None else step.action
    return f"step {index + 1} says {said}"


def call_words(operation: CallOperation, vocabulary: Vocabulary) -> str:
    """``the call translates all nodes by (0, 500, 0)``."""
    action = vocabulary.action(operation.action)
    if action is None:
        return f"the call performs {operation.action}"
    return "the call " + action.phrase(operation.values, operation.scope, person="call")


class _Binder:
    def __init__(self, spec: Spec, vocabulary: Vocabulary, part: Any) -> None:
        self.spec = spec
        self.vocabulary = vocabulary
        self.part = part
        self._members: dict[tuple[str, str], frozenset[int] | None] = {}

    def bind(self, steps: list[int], operations: list[CallOperation]) -> Binding:
        bound: list[BoundStep] = []
        found: list[Contradiction] = []
        free = list(steps)
        pending: list[CallOperation] = []
        for operation in operations:  # first: every operation a step states exactly
            match = next((i for i in free if self._same_action(i, operation)
                          and not self._differences(i, operation)), None)
            if match is None:
                pending.append(operation)
            else:
                free.remove(match)
                bound.append(BoundStep(match, operation))
        unmatched: list[CallOperation] = []
        for operation in pending:  # then: the step of that action it contradicts
            match = next((i for i in free if self._same_action(i, operation)), None)
            if match is None:
                unmatched.append(operation)
                continue
            free.remove(match)
            found.append(self._contradiction(match, operation))
        for operation in unmatched:  # an action no remaining step names
            other = free.pop(0) if free else None
            if other is not None:
                found.append(Contradiction(
                    f"{step_words(self.spec, other, self.vocabulary)}; "
                    f"{call_words(operation, self.vocabulary)} instead", other, operation))
            else:
                found.append(Contradiction(
                    f"{call_words(operation, self.vocabulary)}, which no step of the spec "
                    "states; remove it (the spec says what may change)", None, operation))
        found += [Contradiction(f"{step_words(self.spec, i, self.vocabulary)}; no call "
                                "carries it out", i) for i in free]
        claims = [claim for b in bound for claim in self._claims(b)]
        return Binding(tuple(bound), tuple(found), tuple(claims))

    def _claims(self, bound: BoundStep) -> list[str]:
        """The counts step ``bound.step`` claims that its operation does not make."""
        step = self.spec.steps[bound.step]
        action = self.vocabulary.action(step.action)
        if action is None:
            return []
        found = []
        for key, wanted in step.values.items():
            value_def = action.values.get(key)
            if value_def is None or not is_claim(value_def, wanted):
                continue
            got = bound.operation.counts.get(key)
            if got is not None and not same_value(wanted, got):
                found.append(f"step {bound.step + 1} counts {key} "
                             f"{value_words(value_def, wanted, 'en')}; the calls make "
                             f"{value_words(value_def, got, 'en')} (the step's count is the "
                             "model's arithmetic: check it)")
        return found

    def _same_action(self, index: int, operation: CallOperation) -> bool:
        return self.spec.steps[index].action == operation.action

    def _contradiction(self, index: int, operation: CallOperation) -> Contradiction:
        problems = self._differences(index, operation)
        return Contradiction(
            f"{step_words(self.spec, index, self.vocabulary)}; "
            f"{call_words(operation, self.vocabulary)} ({'; '.join(problems)})",
            index, operation)

    def _differences(self, index: int, operation: CallOperation) -> list[str]:
        step = self.spec.steps[index]
        action = self.vocabulary.action(step.action)
        if action is None:
            return [f"{step.action} is not an action of this mode"]
        return [*_value_differences(action, step.values, operation.values),
                *_unstated_additions(action, step.values, operation.values),
                *self._scope_differences(action, step, operation)]

    def _scope_differences(self, action: ActionDef, step: Step,
                           operation: CallOperation) -> list[str]:
        if step.scope is None:
            return []
        wanted = scope_words(step.scope, action.members)
        if operation.scope is None:
            return [f"the call acts on no existing entities, the step on {wanted}"]
        if selector_literal(step.scope) == selector_literal(operation.scope):
            return []
        mine = self._resolve(operation.scope, action.members)
        theirs = self._resolve(step.scope, action.members)
        got = scope_words(operation.scope, action.members)
        if mine is None or theirs is None:
            return [f"the call's scope ({got}) is not the step's ({wanted}) and cannot be "
                    "compared on the observed part; use the step's scope"]
        if mine <= theirs:
            return []
        noun = "node" if action.members in ("nodes", "transform") else "element"
        return [f"the call's scope ({got}: {_count(len(mine), noun)}) goes beyond the step's "
                f"({wanted}: {_count(len(theirs), noun)}); {_count(len(mine - theirs), noun)} "
                "outside it"]

    def _resolve(self, selector: BaseModel, members: Members) -> frozenset[int] | None:
        literal = selector_literal(selector)
        key = (members, repr(literal))
        if key not in self._members:
            self._members[key] = _members_of(self.part, literal, members)
        return self._members[key]


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def _members_of(part: Any, literal: Mapping[str, Any], members: Members) -> frozenset[int] | None:
    """Labels ``literal`` picks on the observed part, or ``None`` when it cannot tell."""
    if part is None:
        return None
    try:
        if members == "elements":
            return frozenset(e.label for e in selection.select_elements(part, literal))
        if members == "nodes":
            return frozenset(n.label for n in selection.select_nodes(part, literal))
        return frozenset(n.label for n in selection.select_transform_nodes(part, literal)[1])
    except (SelectionError, KeyError, AttributeError):
        return None


def _unstated_additions(action: ActionDef, stated: Mapping[str, Any],
                        given: Mapping[str, Any]) -> list[str]:
    """A step that states what it adds (patches, lines, elements) states all of it."""
    listed = [key for key in action.together
              if key in stated and not is_claim(action.values[key], stated[key])]
    if not listed:
        return []
    return [f"the call also adds {value_words(action.values[key], given[key], 'en')}, which "
            "the step does not state" for key in action.together
            if key not in listed and isinstance(given.get(key), list) and given[key]]


def _value_differences(action: ActionDef, stated: Mapping[str, Any],
                       given: Mapping[str, Any]) -> list[str]:
    found = []
    for key, wanted in stated.items():
        value_def = action.values.get(key)
        if value_def is None or is_claim(value_def, wanted):
            continue  # a count the model claims is checked against the plan, not bound
        if key not in given:
            stated_words = value_words(value_def, wanted, "en")
            found.append(f"the call gives no {key}, the step {stated_words}")
            continue
        got = given[key]
        if value_def.kind == "record" and isinstance(wanted, Mapping) and \
                isinstance(got, Mapping):
            equal = all(k in got and same_value(v, got[k]) for k, v in wanted.items())
        else:
            equal = same_value(wanted, got)
        if not equal:
            found.append(f"{key} {value_words(value_def, got, 'en')}, not "
                         f"{value_words(value_def, wanted, 'en')}")
    return found
