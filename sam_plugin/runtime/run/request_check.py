"""The steps a request's own words contradict, read before any compile (docs/architecture.md
§4 "One repair before Review"): a change where a report alone is asked, a report alone where
a change is asked, a step standing in for an action the words name, a count or a quantity the
words make written otherwise, a place or a node the words name that a step's scope ignores.
Each is the first such step, with its diagnostic and what its answer is held to. Nothing is
read from the host but the places (``named_places``)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from sam_plugin.compilers.protocol import DomainModule
from sam_plugin.compilers.spec.computed import step_said
from sam_plugin.compilers.spec.count_contradiction import miscounted
from sam_plugin.compilers.spec.ir import Spec
from sam_plugin.compilers.spec.request_actions import stand_in, stand_in_words
from sam_plugin.compilers.spec.request_places import box_words
from sam_plugin.compilers.spec.request_words import fold
from sam_plugin.compilers.spec.unconverted import unconverted
from sam_plugin.compilers.spec.values import json_number_words, number_words
from sam_plugin.compilers.units import DEFAULT as DEFAULT_UNITS
from sam_plugin.compilers.units import UnitSystem
from sam_plugin.runtime.run.context import StepContext
from sam_plugin.runtime.run.failing import FailingStep
from sam_plugin.runtime.run.named_places import region_boxes
from sam_plugin.runtime.run.plan_attention import asks_a_report, only_reports
from sam_plugin.runtime.run.state import RunState


def contradicted_by_words(ctx: StepContext, run: RunState, spec: Spec) -> FailingStep | None:
    """The first step the request's words contradict, of the checks in this order; None
    when none does."""
    module, request = run.inputs.module, run.inputs.request
    return _changing_step(spec, module.vocabulary, request) or \
        _reporting_step(spec, module.vocabulary, request) or \
        _standing_in(spec, module.vocabulary, request) or \
        _miscounted_step(module, spec, request) or \
        _unconverted_step(spec, module.vocabulary, request, ctx.units or DEFAULT_UNITS) or \
        _unplaced_step(spec, module.vocabulary, region_boxes(ctx, run), _entities(run)) or \
        _every_node_step(spec, module.vocabulary, request)


def _changing_step(spec: Spec, vocabulary: Any, request: str) -> FailingStep | None:
    """Where the request asks for a report alone ("only report", "什么都不要改"), the steps
    that change the part, asked again as one step that changes nothing (``read_only``):
    with the report the spec already has, else the first with the last that changes it.
    Before any compile: a change that also fails to compile is still no answer. None where
    the mode has no step that changes nothing."""
    words = only_reports(request)
    if not words or not any(not action.mutating for action in vocabulary.actions):
        return None
    kinds = [(i, action.mutating) for i, step in enumerate(spec.steps)
             if (action := vocabulary.action(step.action)) is not None]
    changing = [i for i, mutating in kinds if mutating]
    if not changing:
        return None
    reports = [i for i, mutating in kinds if not mutating]
    pair = sorted({changing[0], reports[0] if reports else changing[-1]})
    said = "; ".join(step_said(spec, i, vocabulary) for i in changing)
    verb = "changes" if len(changing) == 1 else "change"
    return FailingStep(pair[-1], f"the request says “{words}”, and {said} {verb} the part: "
                       "write a step that changes nothing (a report of what the request "
                       "asks about)", joins=pair[0] if len(pair) == 2 else None,
                       needs=("read_only",))


def _reporting_step(spec: Spec, vocabulary: Any, request: str) -> FailingStep | None:
    """A spec of reports alone (every step changes nothing: "audit the mesh") where the
    request asks for a change and for no report ("split every beam element in half",
    "把网格加密三次"): its first step asked again, held to the actions that change the part
    (``changing``). Never where the request asks anything (a check, a count, a question)."""
    actions = [vocabulary.action(step.action) for step in spec.steps]
    if any(a is None or a.mutating for a in actions) or asks_a_report(request) \
            or only_reports(request) or not any(a.mutating for a in vocabulary.actions):
        return None
    return FailingStep(0, f"{step_said(spec, 0, vocabulary)} changes nothing, and the request "
                       "asks for a change, not a report: write the step that makes the change "
                       "it asks for", needs=("changing",))


def _standing_in(spec: Spec, vocabulary: Any, request: str) -> FailingStep | None:
    """A step standing in the place of an action the request's words name and the spec does
    not plan ("rm free nodes" answered with "delete nodes 1, 11"), asked again held to the
    actions named (``action=<name>``). Before any compile: the step computes and compiles,
    and does something else."""
    found = stand_in(spec, vocabulary, request)
    if found is None:
        return None
    return FailingStep(found.step, stand_in_words(found, vocabulary,
                                                  step_said(spec, found.step, vocabulary)),
                       needs=tuple(f"action={name}" for name in found.actions))


def _miscounted_step(module: DomainModule, spec: Spec, request: str) -> FailingStep | None:
    """A step stating another count than the one the request's words make, which the design
    request stated ("3 total": an array of 3 instances), asked again naming both."""
    found = miscounted(spec, module.vocabulary, module.request_counts(request))
    if found is None:
        return None
    because = f" ({found.reading.because})" if found.reading.because else ""
    return FailingStep(found.step, f"the request says “{found.reading.said}”: "
                       f"{found.reading.key} {found.reading.value}{because}, and "
                       f"{step_said(spec, found.step, module.vocabulary)} states {found.key} "
                       f"{found.stated}: write that step with {found.key} {found.wanted}")


def _unconverted_step(spec: Spec, vocabulary: Any, request: str,
                      units: UnitSystem | None) -> FailingStep | None:
    """A step that writes a quantity of the request unconverted ("7850 kg/m3" as 7850),
    asked again naming the value in the model's units, which the design request stated."""
    found = unconverted(spec, request, units)
    if found is None:
        return None
    return FailingStep(found.step, f"the request says “{found.quantity.said}”, and "
                       f"{step_said(spec, found.step, vocabulary)} writes "
                       f"{number_words(found.quantity.value)}, the number in "
                       f"{found.quantity.unit}: write {json_number_words(found.converted)}, its "
                       "value in this model's units")


def _entities(run: RunState) -> tuple[int, int]:
    """The part's nodes and elements as observed (0, 0 where it was not)."""
    before = run.before
    return (before.node_count, before.element_count) if before is not None else (0, 0)


def _unplaced_step(spec: Spec, vocabulary: Any,
                   boxes: Sequence[tuple[str, Sequence[float], Sequence[float]]],
                   entities: tuple[int, int] = (0, 0)) -> FailingStep | None:
    """A place the request names, stated as a box on the design request ("the top row"),
    that no step takes, while a step that acts on what its scope picks takes the whole part
    or a whole shape ("create the set TOP_ROW of the QUAD elements"), or lists every label
    of the part (``entities``: its nodes and elements; "fix the nodes along x = 0" came as
    nodes 1-9 of 9): that step asked again, held to state a scope. Not where another step
    picks by box, set or some labels (the place may be its), nor for a transform (a place
    may be its origin: "mirror about the right edge"), nor for an action of the whole
    part."""
    scopes = [_as_scoped(step.scope.model_dump(mode="json"), entities,
                         _members(vocabulary, step.action))
              for step in spec.steps if step.scope is not None]
    if not boxes or any(scope.get("by") in ("box", "labels", "set") for scope in scopes):
        return None
    for index, step in enumerate(spec.steps):
        action = vocabulary.action(step.action)
        scope = _as_scoped(step.scope.model_dump(mode="json"), entities,
                           _members(vocabulary, step.action)) if step.scope is not None else {}
        if action is None or not action.mutating or action.whole_part or \
                action.members == "transform" or scope.get("by") not in ("all", "shape"):
            continue
        words, low, high = boxes[0]
        return FailingStep(index, f"the request says “{words}”, which the box "
                           f"{box_words(low, high)} picks on this part, and "
                           f"{step_said(spec, index, vocabulary)} takes more than it: write "
                           "its scope as that box", needs=("scope",))
    return None


def _members(vocabulary: Any, name: str) -> str:
    action = vocabulary.action(name)
    return action.members if action is not None else ""


def _as_scoped(scope: dict[str, Any], entities: tuple[int, int],
               members: str) -> dict[str, Any]:
    """A labels scope of nodes (or of elements) that lists as many labels as the part has
    nodes (or elements) is every one of them, as ``all`` is."""
    total = entities[0] if members == "nodes" else entities[1] if members == "elements" else 0
    if scope.get("by") != "labels" or total < 2:
        return scope
    return {"by": "all"} if len(set(scope.get("labels", ()))) == total else scope


# a node the request names: by its label ("node 25", "节点 25", "25 号节点") or its point
# ("the corner node at (0, 40, 0)")
_NAMED_NODE = re.compile(r"\bnode\s*#?\s*\d+|\bnodes?\s+(?:at|on)\s*[(\[]\s*-?\d"
                         r"|节点\s*\d+|\d+\s*号节点", re.IGNORECASE)


def _every_node_step(spec: Spec, vocabulary: Any, request: str) -> FailingStep | None:
    """A step that acts on every node ("apply the force SIDE on all nodes") where the
    request names one node ("pull node 25"), asked again for a scope that is not the whole
    part (the 0.5B answered "all" again when held only to state one). Not an action of the
    whole part."""
    named = _NAMED_NODE.search(fold(request))
    if named is None:
        return None
    for index, step in enumerate(spec.steps):
        action = vocabulary.action(step.action)
        scope = step.scope.model_dump(mode="json") if step.scope is not None else {}
        if action is None or not action.mutating or action.whole_part or \
                action.members != "nodes" or scope.get("by") != "all":
            continue
        return FailingStep(index, f"the request names “{named.group(0).strip()}”, and "
                           f"{step_said(spec, index, vocabulary)} acts on every node: write "
                           "its scope as the node the request names (its label, or a box "
                           "around its point)", needs=("scope", "partial_scope"))
    return None
