"""The design answer read as the spec the analyst confirms (docs/architecture.md §4 "The
spec"): its steps route the run, its rendering is what the analyst reads, and where it
disagrees with the part as observed now is said before Confirm.

An answer that is prose, or JSON that fails the schema, gets one design repair round that
names each problem; a second failure ends the run at design, with advice.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from sam_plugin.compilers.protocol import DomainModule, Route
from sam_plugin.compilers.spec.ir import Spec, Step
from sam_plugin.compilers.spec.problem import SpecProblem
from sam_plugin.compilers.spec.provenance import Sources, unit_mismatches
from sam_plugin.compilers.spec.provenance import unsourced as unsourced_steps
from sam_plugin.compilers.spec.reading import PROSE, json_object_of, one_line, spec_from_json
from sam_plugin.compilers.spec.render import render_spec, step_phrase
from sam_plugin.compilers.spec.request_actions import stand_in_words, standing_in
from sam_plugin.compilers.spec.request_words import stated_numbers
from sam_plugin.compilers.spec.review import review_warnings
from sam_plugin.compilers.spec.schema import REFUSAL_MAX_CHARS
from sam_plugin.compilers.spec.unasked import Unasked, without_unasked
from sam_plugin.compilers.spec.vocabulary import Vocabulary
from sam_plugin.compilers.units import UnitSystem
from sam_plugin.errors import DesignRefused, RouteRefused, SpecRejected
from sam_plugin.runtime.run.plan_attention import do_not_change
from sam_plugin.runtime.text_safety import visible_text

DESIGN_REPAIR_ROUNDS = 1
QUOTED_ANSWER_CHARS = 300

ADVICE = (
    "Try a more capable model (Settings, or --api-model), or make the request more specific: "
    "name the operation and its numbers (sizes, counts, element shapes, labels or sets)."
)

_REPAIR = {
    "en": ("SAM Agent cannot use this answer as a spec:\n{problems}\n\nAnswer again with the "
           "whole spec as ONE JSON object that meets the schema (summary, steps, expected), "
           "and nothing else."),
    "zh": ("SAM Agent 无法把这个回答当作规格：\n{problems}\n\n请重新回答：只给出一个符合模式的 "
           "JSON 对象（summary、steps、expected），不要写其他内容。"),
}


@dataclass(frozen=True)
class DesignReading:
    """A design answer that is a spec of its mode: the IR, its route, its words."""

    spec: Spec
    route: Route
    text: str  # the rendering: shown, confirmed, stored as design.txt
    warnings: list[str]  # where it disagrees with the part as observed now
    # the steps' numbers its writer was not shown (also warnings of the plan: --yes stops)
    unsourced: list[str] = field(default_factory=list)
    # by step number: its numbers in neither the request nor the observation
    strays: dict[int, tuple[float, ...]] = field(default_factory=dict)
    # the answer's steps that stand (0-based), where whole steps were left out as unasked
    kept_steps: tuple[int, ...] | None = None


def read_answer(content: str, module: DomainModule, *, target_is_empty: bool, part: Any,
                counts: Mapping[str, Any], language: str = "en",
                part_name: str = "the part", sources: Sources | None = None,
                unchanged_from: Spec | None = None, said: Sequence[str] = (),
                units: UnitSystem | None = None, leave_unasked: bool = False
                ) -> DesignReading:
    """The spec in ``content``; raises :class:`SpecRejected` naming every problem, and
    :class:`DesignRefused` for the refusal answer ``{"refuse": "why"}``. ``sources``: the
    numbers the writer was shown (request and observation), when the writer is a model or
    an agent: a step number from neither is a Review warning; ``unchanged_from``: the spec
    an analyst edited into this one (only the values it left as they were are checked);
    ``said``: the person's words (a quantity in another unit than ``units``, the model's, is
    a warning too); ``leave_unasked``: what the words do not ask for, which the compile
    would leave out (a set), is left out of the spec, said as a warning (a model's or an
    agent's spec, never the analyst's own)."""
    document = json_object_of(content)
    if isinstance(document, dict) and list(document) == ["refuse"] and \
            isinstance(document["refuse"], str) and document["refuse"].strip():
        raise DesignRefused(" ".join(visible_text(document["refuse"]).split())
                            [:REFUSAL_MAX_CHARS])
    spec = _visible(spec_from_json(document, module.vocabulary))
    copied = copied_examples(spec, module, said)
    if copied:
        raise SpecRejected(copied)
    unasked = without_unasked(spec, module.vocabulary, said) if leave_unasked \
        else Unasked(spec, ())
    spec = unasked.spec
    try:
        route = module.route_steps(spec.capabilities(), target_is_empty)
    except RouteRefused as refused:
        raise SpecRejected([SpecProblem("steps", str(refused))]) from None
    planned = [c for c in module.capabilities if c in spec.capabilities()]
    if route.capabilities != planned:
        raise SpecRejected([_unfit(planned, route, target_is_empty, part_name, counts)])
    warnings = [*unasked.left_out,
                *review_warnings(spec, module.vocabulary, None if target_is_empty else part,
                                 counts, units)]
    found = (unsourced_steps(spec, module.vocabulary, sources,
                             unchanged_from=unchanged_from, units=units)
             if sources is not None else [])
    unsourced = [f.words() for f in found]
    if sources is not None:
        unsourced += [m.words() for m in unit_mismatches(said, spec, units)]
    warnings += changes_despite_words(spec, module.vocabulary, said, units)
    warnings += [found.diagnostic.message
                 for found in module.request_contradictions(spec, "\n".join(said))]
    return DesignReading(spec=spec, route=route,
                         text=render_spec(spec, module.vocabulary, language),
                         warnings=[*warnings, *unsourced], unsourced=unsourced,
                         strays={f.step: f.stray for f in found if f.stray},
                         kept_steps=unasked.kept)


def changes_despite_words(spec: Spec, vocabulary: Vocabulary, said: Sequence[str],
                          units: UnitSystem | None = None) -> list[str]:
    """The steps that change the part when the person's words say not to ("only report",
    "don't change anything", "什么都不要改"): said at Review, before Confirm, as the plan
    says it again before Approve (``plan_attention.py``)."""
    words = next((found for text in said if (found := do_not_change(text))), "")
    changing = [(number, step) for number, step in enumerate(spec.steps, start=1)
                if (action := vocabulary.action(step.action)) is not None and action.mutating]
    if not words or not changing:
        return []
    steps = "; ".join(f"step {number} ({step_phrase(step, vocabulary, units=units)})"
                      for number, step in changing)
    verb = "changes" if len(changing) == 1 else "change"
    return [f"the request says “{words}”, and {steps} {verb} the part: confirm only if it "
            "should"]


def copied_examples(spec: Spec, module: DomainModule,
                    said: Sequence[str] = ()) -> list[SpecProblem]:
    """A step that is, value for value, a step of the design prompt's examples (which carry
    their own requests' numbers and names): a model that copied it wrote no step of this
    request. Said as a design problem, so the repair round asks again. Not where every
    number and name of the step is the person's own (``said``): "call it PUSH" may name
    what an example names too."""
    found = []
    words = "\n".join(said)
    stated = stated_numbers(words).numbers if words else frozenset()
    for index, step in enumerate(spec.steps):
        items = _own_items(step)
        if not items:
            continue  # "audit the free nodes" is any request's step, not the example's
        if words and all(_said(item, words, stated) for item in items):
            continue
        for request, example in _example_steps(module):
            if any(e.action == step.action and e.values == step.values and e.scope == step.scope
                   for e in example.steps):
                found.append(SpecProblem(
                    f"steps[{index}]", f"this step is the prompt's example (for “{request}”), "
                    "not a step of this request: write the steps this request asks for, with "
                    "its own numbers, or refuse"))
                break
    return found


def _own_items(step: Step) -> list[float | str]:
    """What a step states of its own: its numbers other than 0 and 1, and its names (a set,
    a section), in its values or its scope."""
    data = [step.values, step.scope.model_dump(mode="json") if step.scope else {}]
    stack: list[Any] = list(data)
    items: list[float | str] = []
    while stack:
        item = stack.pop()
        if isinstance(item, Mapping):
            stack.extend(v for k, v in item.items() if k != "by")
        elif isinstance(item, list | tuple):
            stack.extend(item)
        elif isinstance(item, bool):
            continue
        elif isinstance(item, int | float) and item not in (0, 1):
            items.append(float(item))
        elif isinstance(item, str) and item not in _COMMON_WORDS:
            items.append(item)
    return items


def _said(item: float | str, words: str, stated: frozenset[float]) -> bool:
    if isinstance(item, str):
        return re.search(rf"(?<!\w){re.escape(item)}(?!\w)", words) is not None  # as named
    return item in stated


# choice words any request's step may state (shapes, checks, profile kinds)
_COMMON_WORDS = frozenset({"QUAD", "TRI", "BEAM", "shell", "beam", "rectangle", "circle", "pipe",
                           "I", "counts", "free_nodes", "duplicate_elements", "coincident_nodes",
                           "degenerate_elements", "quality", "all", "shape"})


def _example_steps(module: DomainModule) -> list[tuple[str, Spec]]:
    shown = []
    for request, answer in module.design_examples():
        try:
            document = json_object_of(answer)
            shown.append((request, spec_from_json(document, module.vocabulary)))
        except SpecRejected:
            continue  # the refusal example has no steps
    return shown


def _unfit(planned: list[str], route: Route, target_is_empty: bool, part_name: str,
           counts: Mapping[str, Any]) -> SpecProblem:
    """Steps the target cannot take, in the words the dock and the CLI show."""
    legal = ", ".join(route.capabilities)
    if target_is_empty:
        return SpecProblem("steps", f"{part_name} is missing or empty, so it can only be "
                           f"built; write steps of {legal} (the spec plans "
                           f"{', '.join(planned)})")
    return SpecProblem("steps", f"{part_name} already has {counts.get('nodes', 0)} nodes: ask "
                       f"to edit it, or pick a new part name (the spec plans "
                       f"{', '.join(planned)}; on an existing part: {legal})")


def named_not_planned(content: str, vocabulary: Vocabulary, request: str) -> list[str]:
    """For an answer that does not read as a spec: where one of its steps stands in the
    place of an action the request's words name (``request_actions.standing_in``), that
    said beside the reading's problems, as a spec that reads is told it before Review."""
    try:
        document = json_object_of(content)
    except SpecRejected:
        return []
    steps = document.get("steps") if isinstance(document, dict) else None
    if not isinstance(steps, list):
        return []
    actions = [str(s.get("action", "")) if isinstance(s, dict) else "" for s in steps]
    found = standing_in(actions, vocabulary, request)
    if found is None:
        return []
    return [stand_in_words(found, vocabulary,
                           f"step {found.step + 1} ({actions[found.step]})")]


def repair_message(problems: list[str], language: str = "en") -> str:
    """The user turn of the design repair round: each problem on its own line."""
    template = _REPAIR["zh" if language.lower().startswith("zh") else "en"]
    return template.format(problems="\n".join(f"- {p}" for p in problems))


def failure_message(problems: list[str], content: str = "") -> str:
    """How the run ends at design when the repair did not help; an answer in words (a
    refusal, say) is quoted, so the analyst reads what the model said."""
    said = ""
    if content and problems and problems[0] == PROSE:
        words = " ".join(content.split())
        said = f" The model answered: “{words[:QUOTED_ANSWER_CHARS]}" + (
            "…”" if len(words) > QUOTED_ANSWER_CHARS else "”")
    return (f"the model did not write a usable spec ({'; '.join(problems)}), also after a "
            f"repair round that named the problems.{said} {ADVICE}")


def refusal_message(refused: DesignRefused, module: DomainModule) -> str:
    """How a run ends when the model answered that the mode cannot do it (nothing ran)."""
    return (f"the model answered that {module.title} mode cannot do this: “{refused.reason}”. "
            "Nothing was run. If it can, name the operation and its numbers and submit again; "
            "else pick the mode that does it.")


def spec_json_text(spec: Spec) -> str:
    """The spec as ``spec.json`` holds it and as it is sent on (Ask for changes)."""
    return json.dumps(spec.as_json(), ensure_ascii=False, indent=2)


def collection_spec(words: str, spec: Spec | None) -> str:
    """The confirmed spec as a collection round states it: the words the analyst approved,
    then the same spec as data, which every call is bound to."""
    if spec is None:
        return words
    return (f"{words}\n\nThe same spec as data. Every operation of your calls must carry out "
            "exactly one of these steps: the same action, the same values, a scope no wider "
            f"than the step's; and every step must be carried out:\n"
            f"{json.dumps(spec.as_json(), ensure_ascii=False)}")


def _visible(spec: Spec) -> Spec:
    """The model's words without control or bidi characters (as every shown text)."""
    steps = tuple(step.model_copy(update={"text": one_line(visible_text(step.text))})
                  for step in spec.steps)
    return spec.model_copy(update={"summary": one_line(visible_text(spec.summary)),
                                   "steps": steps})
