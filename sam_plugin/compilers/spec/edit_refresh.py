"""An analyst's edit leaves no stale words (docs/architecture.md §4 "Review").

The model wrote its summary, its steps' notes, the counts its steps claim and the counts it
expects of the part from the values it chose. When the analyst edits a value (divisions
6 x 10 → 6 x 12) and leaves those words as they were, they no longer hold: the claims and
expected counts would raise a warning each at the plan, and the summary would say 10.

``refreshed`` drops what the edit made stale and the analyst did not rewrite: the claims of
an edited step, the expected node, element, shape and selected counts (the plan's After
says them, computed from the calls), each note that states a number the edit removed; a
summary that states such a number is said again from the steps. What the analyst wrote
themselves is kept as written.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sam_plugin.compilers.spec.ir import Expected, Spec, Step
from sam_plugin.compilers.spec.provenance import numbers_in_data
from sam_plugin.compilers.spec.render import step_phrase
from sam_plugin.compilers.spec.request_words import stated_numbers
from sam_plugin.compilers.spec.values import is_claim
from sam_plugin.compilers.spec.vocabulary import Vocabulary
from sam_plugin.compilers.units import UnitSystem

_WORDS = {
    "en": {"claims": "step {step}'s counts ({keys}): the plan states them again",
           "expected": "the expected counts ({keys}): the plan states them again",
           "note": "step {step}'s note (it said {numbers}): dropped",
           "summary": "the summary (it said {numbers}): said again from the steps"},
    "zh": {"claims": "第 {step} 步的计数（{keys}）：由计划重新给出",
           "expected": "预期计数（{keys}）：由计划重新给出",
           "note": "第 {step} 步的说明（其中说 {numbers}）：已删除",
           "summary": "摘要（其中说 {numbers}）：已按步骤重新表述"},
}


@dataclass(frozen=True)
class Refreshed:
    """The edited spec without its stale words, and one line per thing dropped or said
    again (empty: nothing was stale)."""

    spec: Spec
    dropped: tuple[str, ...]


def refreshed(before: Spec, edited: Spec, vocabulary: Vocabulary, language: str = "en",
              units: UnitSystem | None = None) -> Refreshed:
    words = _WORDS["zh" if language.startswith("zh") else "en"]
    changed = _edited_steps(before, edited, vocabulary)
    if not changed and len(before.steps) == len(edited.steps):
        return Refreshed(edited, ())
    stale = _stale_numbers(before, edited, vocabulary, changed)
    dropped: list[str] = []
    steps = list(edited.steps)
    for index in changed:
        old, new = before.steps[index], steps[index]
        keys = [k for k, v in new.values.items() if _claim(vocabulary, new, k, v)
                and old.values.get(k) == v]
        values = {k: v for k, v in new.values.items() if k not in keys}
        if keys:
            dropped.append(words["claims"].format(step=index + 1, keys=", ".join(keys)))
        text = new.text
        said = sorted(_numbers_in(text) & stale)
        if text and text == old.text and said:
            dropped.append(words["note"].format(step=index + 1, numbers=_numbers(said)))
            text = ""
        steps[index] = new.model_copy(update={"values": values, "text": text})
    expected, gone = _expected(before.expected, edited.expected)
    if gone:
        dropped.append(words["expected"].format(keys=", ".join(gone)))
    summary = edited.summary
    said = sorted(_numbers_in(summary) & stale)
    if summary == before.summary and said:
        summary = "; ".join(step_phrase(s, vocabulary, "zh" if language.startswith("zh")
                                        else "en", units) for s in steps)
        dropped.append(words["summary"].format(numbers=_numbers(said)))
    spec = edited.model_copy(update={"steps": tuple(steps), "expected": expected,
                                     "summary": summary})
    return Refreshed(spec, tuple(dropped))


def _claim(vocabulary: Vocabulary, step: Step, key: str, value: Any) -> bool:
    action = vocabulary.action(step.action)
    value_def = action.values.get(key) if action is not None else None
    return value_def is not None and is_claim(value_def, value)


def _chosen(vocabulary: Vocabulary, step: Step) -> dict[str, Any]:
    """The values the step acts with (its claims left out) and its scope."""
    values = {k: v for k, v in step.values.items() if not _claim(vocabulary, step, k, v)}
    return {"values": values, "scope": step.scope}


def _edited_steps(before: Spec, edited: Spec, vocabulary: Vocabulary) -> list[int]:
    """The steps of the same action whose values or scope the edit changed."""
    return [i for i, (old, new) in enumerate(zip(before.steps, edited.steps, strict=False))
            if old.action == new.action
            and _chosen(vocabulary, old) != _chosen(vocabulary, new)]


def _stale_numbers(before: Spec, edited: Spec, vocabulary: Vocabulary,
                   changed: list[int]) -> set[float]:
    """The numbers of the old values (and the old claims) that the edited spec no longer has."""
    old: set[float] = set()
    for index in changed:
        old |= numbers_in_data(before.steps[index].values)
    old |= numbers_in_data(before.expected.as_json())
    new: set[float] = set()
    for step in edited.steps:
        new |= numbers_in_data(_chosen(vocabulary, step)["values"])
    return old - new


def _expected(old: Expected, new: Expected) -> tuple[Expected, list[str]]:
    """``new`` without the counts the analyst left as the model wrote them."""
    gone = [key for key in ("nodes", "elements", "selected")
            if getattr(new, key) is not None and getattr(new, key) == getattr(old, key)]
    shapes = dict(new.shapes)
    if shapes and shapes == old.shapes:
        gone.append("shapes")
        shapes = {}
    update: dict[str, Any] = {key: None for key in gone if key != "shapes"}
    return new.model_copy(update={**update, "shapes": shapes}), gone


def _numbers(values: list[float]) -> str:
    return ", ".join(f"{v:g}" for v in values)


__all__ = ["Refreshed", "refreshed"]


def _numbers_in(text: str) -> set[float]:
    """The numbers a note or summary states, read as words, with and without their sign."""
    stated = stated_numbers(text)
    return set(stated.numbers) | set(stated.labels) | {abs(n) for n in stated.numbers}
