"""The spec in words (docs/architecture.md §4 "The spec"): what the analyst reads, confirms
and finds again in ``design.txt``.

Deterministic, from the IR only: the summary after one word for the spec ("Spec:",
"规格：", the word the dock's box is labelled with), each step numbered, said with its
numbers and scope in the action's own words (``compilers/<domain>/actions.py``), its
capability, the model's text for it, and the expected results. English or Chinese.

With a unit system the words are for people: each measured value says its unit, and how many
the change acts on says what it counts (``16 elements in the steps' scope``). Without one they
are the words a model is sent (a collection round, a repair), unchanged byte for byte.
"""

from __future__ import annotations

from dataclasses import fields

from sam_plugin.compilers.spec.ir import Expected, Spec, Step
from sam_plugin.compilers.spec.values import Language
from sam_plugin.compilers.spec.vocabulary import Vocabulary
from sam_plugin.compilers.units import UnitSystem
from sam_plugin.words.phrase import Computed, Phrase, Units

_WORDS = {
    "en": {"head": "Spec: ", "steps": "Steps:", "expected": "Expected results: ",
           "none": "not stated",
           "nodes": "{} nodes", "elements": "{} elements", "sets": "sets: {}",
           "selected": "selected: {}", "open": " (", "close": ")", "sep": ", ", "part": "; ",
           "shape": "{} {}", "capability": " — {}", "note": "   note: “{}”",
           "acts_on": "{} {} in the steps' scope", "elements_noun": "elements",
           "nodes_noun": "nodes"},
    "zh": {"head": "规格：", "steps": "步骤：", "expected": "预期结果：", "none": "未说明",
           "nodes": "{} 个节点", "elements": "{} 个单元", "sets": "集合：{}",
           "selected": "选中：{}", "open": "（", "close": "）", "sep": "，", "part": "；",
           "shape": "{} 个 {}", "capability": "（{}）", "note": "   说明：“{}”",
           "acts_on": "步骤范围内 {} 个{}", "elements_noun": "单元", "nodes_noun": "节点"},
}


def language_of(language: str) -> Language:
    """``zh`` for any Chinese locale (``zh_CN``), else ``en``."""
    return "zh" if language.lower().startswith("zh") else "en"


def render_spec(spec: Spec, vocabulary: Vocabulary, language: str = "en",
                units: UnitSystem | None = None) -> str:
    """The spec in words, one line per step (then the writer's note for it, quoted);
    ``units``: the words for people (module docstring)."""
    lang = language_of(language)
    words = _WORDS[lang]
    lines = [words["head"] + spec.summary, "", words["steps"]]
    for number, step in enumerate(spec.steps, start=1):
        lines.append(f"{number}. {step_phrase(step, vocabulary, lang, units)}"
                     + words["capability"].format(
                         vocabulary.capability_word(step.capability, lang)))
        if step.text:  # the writer's own words, one line, set apart from the rendering
            lines.append(words["note"].format(step.text))
    acted_on = _acted_on(spec, vocabulary) if units is not None else None
    lines += ["", words["expected"] + expected_words(spec.expected, lang, acted_on)]
    return "\n".join(lines)


def _acted_on(spec: Spec, vocabulary: Vocabulary) -> str:
    """What ``selected`` counts: nodes when every scoped step picks nodes, else elements."""
    members = {action.members for step in spec.steps if step.scope is not None
               for action in [vocabulary.action(step.action)] if action is not None}
    return "nodes" if members == {"nodes"} else "elements"


def step_phrase(step: Step, vocabulary: Vocabulary, language: Language = "en",
                units: UnitSystem | None = None) -> str:
    """One step in the action's words: ``translate set S1 by (5, 0, 0)``; with ``units``,
    for people: ``by (5, 0, 0) mm``."""
    action = vocabulary.action(step.action)
    if action is None:
        return step.action
    return action.phrase(step.values, step.scope, language, units=units)


def step_entry(vocabulary: Vocabulary) -> Computed:
    """A catalogue entry wording a spec step by its action (``<mode>.step``): one phrase
    says the step in the spec and on the plan's ``step 2 ✓`` line."""

    def words(said: Phrase, language: str, units: Units | None) -> str:
        step = Step.model_validate(said.data["step"])
        return step_phrase(step, vocabulary, language_of(language), _system(units))

    return words


def step_said(mode: str, step: Step) -> Phrase:
    """A step as its phrase (worded by :func:`step_entry` of ``mode``)."""
    return Phrase(key=f"{mode}.step", data={"step": step.model_dump(mode="json")})


def _system(units: Units | None) -> UnitSystem | None:
    if units is None:
        return None
    return UnitSystem(**{field.name: units.get(field.name, "") for field in fields(UnitSystem)})


def expected_words(expected: Expected, language: Language = "en",
                   acted_on: str | None = None) -> str:
    """``6 nodes, 2 elements (2 QUAD), sets: S1; selected: 2``; for people (``acted_on``:
    ``elements`` or ``nodes``) the last says what it counts: ``2 elements in the steps'
    scope``."""
    words = _WORDS[language]
    if expected.empty:
        return words["none"]
    counts = []
    if expected.nodes is not None:
        counts.append(words["nodes"].format(expected.nodes))
    if expected.elements is not None:
        counts.append(words["elements"].format(expected.elements))
    text = words["sep"].join(counts)
    if expected.shapes:
        shapes = words["sep"].join(words["shape"].format(n, shape)
                                   for shape, n in sorted(expected.shapes.items()))
        text = f"{text}{words['open']}{shapes}{words['close']}" if text else shapes
    parts = [text] if text else []
    if expected.sets:
        parts.append(words["sets"].format(", ".join(expected.sets)))
    if expected.selected is not None and acted_on is not None:
        parts.append(words["acts_on"].format(expected.selected, words[f"{acted_on}_noun"]))
    elif expected.selected is not None:
        parts.append(words["selected"].format(expected.selected))
    return words["part"].join(parts)
