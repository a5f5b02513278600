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

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from sam_plugin.compilers.plan_phrases import CATALOGUE as _PLAN_WORDS  # noqa: F401 (registers)
from sam_plugin.compilers.protocol import Diagnostic
from sam_plugin.compilers.selectors import selector_literal
from sam_plugin.compilers.spec.ir import Spec
from sam_plugin.compilers.spec.values import is_claim, label_words, same_value, value_words
from sam_plugin.compilers.spec.vocabulary import (
    ActionDef,
    CallOperation,
    Vocabulary,
    scope_words,
)
from sam_plugin.errors import SelectionError
from sam_plugin.samops import selection
from sam_plugin.words.phrase import Phrase, phrase, render


@dataclass(frozen=True)
class Resolved:
    """What an operation's scope picked on the part as it is when the operation runs:
    ``kind`` elements or nodes, and their labels."""

    kind: str
    labels: frozenset[int]


@dataclass(frozen=True)
class BoundStep:
    """Step ``step`` (0-based) carried out by ``operation``; ``resolved`` what its scope
    picked (None: no scope, or not resolved)."""

    step: int
    operation: CallOperation
    resolved: Resolved | None = None


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
    claim_phrases: tuple[Phrase, ...] = ()  # the claims as phrases, one each

    @property
    def holds(self) -> bool:
        return not self.contradictions


# (the operation's 0-based position in its call) -> the part as it is when that operation
# runs (after the run's earlier calls and the call's earlier operations), or None
PartAt = Callable[[int], Any]


def bind_call(spec: Spec, vocabulary: Vocabulary, capability: str,
              operations: Sequence[CallOperation], part: Any,
              part_at: PartAt | None = None) -> Binding:
    """Bind one call (of ``capability``'s tool) to the steps of that capability. Scopes are
    resolved on ``part_at(i)`` for operation ``i`` (else on ``part``, as observed)."""
    steps = [i for i, step in enumerate(spec.steps) if step.capability == capability]
    return _Binder(spec, vocabulary, part, part_at).bind(steps, list(operations))


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
    def __init__(self, spec: Spec, vocabulary: Vocabulary, part: Any,
                 part_at: PartAt | None) -> None:
        self.spec = spec
        self.vocabulary = vocabulary
        self.part = part
        self.part_at = part_at
        self._states: dict[int, Any] = {}
        self._members: dict[tuple[int, str, str], _Picked | None] = {}
        self._position: dict[int, int] = {}
        self._resolved: dict[tuple[int, int], Resolved] = {}

    def bind(self, steps: list[int], operations: list[CallOperation]) -> Binding:
        self._position = {id(op): i for i, op in enumerate(operations)}
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
                bound.append(BoundStep(match, operation,
                                       self._resolved.get((match, id(operation)))))
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
        return Binding(tuple(bound), tuple(found), tuple(render(c) for c in claims),
                       tuple(claims))

    def _claims(self, bound: BoundStep) -> list[Phrase]:
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
                found.append(phrase("plan.claim", step=bound.step + 1, key=key,
                                    wanted=value_words(value_def, wanted, "en"),
                                    got=value_words(value_def, got, "en")))
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
                *self._scope_differences(action, index, operation)]

    def _scope_differences(self, action: ActionDef, index: int,
                           operation: CallOperation) -> list[str]:
        """The operation's scope against the step's, both resolved on the part as it is when
        the operation runs: a copy by the elements it copies, a move by the nodes it moves
        (a narrower move only of whole elements of the step's scope), the rest by their
        members. What it picked is kept for the plan's step line."""
        step = self.spec.steps[index]
        if step.scope is None:
            return []
        kind = _kind(action, operation)
        wanted = scope_words(step.scope, action.members)
        if operation.scope is None:
            return [f"the call acts on no existing entities, the step on {wanted}"]
        at = self._position.get(id(operation), 0)
        same = selector_literal(step.scope) == selector_literal(operation.scope)
        if same and not _small(self.part):
            return []  # the step's own selector picks what the step says (words: elsewhere)
        mine = self._pick(operation.scope, kind, at)
        theirs = mine if same else self._pick(step.scope, kind, at)
        got = scope_words(operation.scope, action.members)
        if mine is None or theirs is None:
            if same:
                return []  # the step's own selector: it picks what the step says
            return [f"the call's scope ({got}) is not the step's ({wanted}) and cannot be "
                    "compared on the part as the earlier operations leave it; use the "
                    "step's scope"]
        self._resolved[(index, id(operation))] = Resolved(
            "nodes" if kind in ("nodes", "moves") else "elements", mine.labels)
        if same:
            return []
        noun = "node" if kind in ("nodes", "moves") else "element"
        if not mine.labels <= theirs.labels:
            outside = len(mine.labels - theirs.labels)
            return [f"the call's scope ({got}: {_count(len(mine.labels), noun)}) goes beyond "
                    f"the step's ({wanted}: {_count(len(theirs.labels), noun)}); "
                    f"{_count(outside, noun)} outside it"]
        if kind == "moves" and mine.labels != theirs.labels:
            torn = theirs.torn_by(mine.labels)
            if torn:
                return [f"the call's scope ({got}) moves some, not all, of the nodes of "
                        f"{_count(len(torn), 'element')} of the step's scope ({wanted}), "
                        f"which it would distort: {label_words(sorted(torn))}; a narrower "
                        "move may move whole elements of the step's scope only"]
        return []

    def _pick(self, selector: BaseModel, kind: str, at: int) -> _Picked | None:
        literal = selector_literal(selector)
        key = (at, kind, repr(literal))
        if key not in self._members:
            self._members[key] = _picked(self._state(at), literal, kind)
        return self._members[key]

    def _state(self, at: int) -> Any:
        """The part as it is when operation ``at`` of the call runs."""
        if self.part_at is None:
            return self.part
        if at not in self._states:
            self._states[at] = self.part_at(at)
        return self._states[at]


@dataclass(frozen=True)
class _Picked:
    """The labels a scope picks, and, for a move, the connectivity of the elements it
    picks (to tell a narrower move of whole elements from one that tears them)."""

    labels: frozenset[int]
    elements: tuple[tuple[int, frozenset[int]], ...] = ()

    def torn_by(self, moved: frozenset[int]) -> list[int]:
        """The elements ``moved`` takes some, not all, of the nodes of."""
        return [label for label, nodes in self.elements
                if nodes & moved and not nodes <= moved]


# a part this small is resolved for the plan's step line even where the selector is the
# step's own (on a larger one the plan's operation lines say what is touched)
RESOLVED_FOR_WORDS = 50_000


def _small(part: Any) -> bool:
    try:
        return part is not None and len(part.nodes) + len(part.elements) <= RESOLVED_FOR_WORDS
    except TypeError:
        return False


def _kind(action: ActionDef, operation: CallOperation) -> str:
    """What a scope's members are for this operation: ``elements``, ``nodes``, ``copies``
    (the elements a copy copies) or ``moves`` (the nodes a move moves)."""
    if action.members != "transform":
        return action.members
    copies = action.copies or (action.copies_if is not None
                               and bool(operation.values.get(action.copies_if)))
    return "copies" if copies else "moves"


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def _picked(part: Any, literal: Mapping[str, Any], kind: str) -> _Picked | None:
    """What ``literal`` picks on ``part``, or ``None`` when it cannot tell."""
    if part is None:
        return None
    try:
        if kind == "elements":
            return _Picked(frozenset(e.label for e in selection.select_elements(part, literal)))
        if kind == "nodes":
            return _Picked(frozenset(n.label for n in selection.select_nodes(part, literal)))
        elements, nodes = selection.select_transform_nodes(part, literal)
        if kind == "copies":
            return _Picked(frozenset(e.label for e in elements))
        return _Picked(frozenset(n.label for n in nodes),
                       tuple((e.label, frozenset(e.connectivity)) for e in elements))
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
        # a record (a beam profile) binds whole: a field the step leaves out is not free
        if not same_value(wanted, got):
            found.append(f"{key} {value_words(value_def, got, 'en')}, not "
                         f"{value_words(value_def, wanted, 'en')}")
    return found
