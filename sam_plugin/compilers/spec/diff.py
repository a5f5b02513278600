"""What changed between two versions of a spec (Ask for changes, docs/architecture.md §4):
a list of changed fields, each with its path and its words.

Steps are compared by position; a step whose action changed is said as a whole (its old and
new words), one whose values, scope or text changed is said field by field.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sam_plugin.compilers.spec.ir import Expected, Spec, Step
from sam_plugin.compilers.spec.render import expected_words, language_of, step_phrase
from sam_plugin.compilers.spec.values import Language, value_words
from sam_plugin.compilers.spec.vocabulary import Vocabulary, scope_words
from sam_plugin.compilers.units import UnitSystem

_WORDS = {
    "en": {"summary": "summary", "step": "step {}", "added": "{}: added, {}",
           "removed": "{}: removed ({})", "changed": "{}: {} → {}", "text": "{} text",
           "scope": "{} scope", "value": "{} {}", "expected": "expected results",
           "none": "none"},
    "zh": {"summary": "摘要", "step": "步骤 {}", "added": "{}：新增，{}",
           "removed": "{}：删除（{}）", "changed": "{}：{} → {}", "text": "{} 说明",
           "scope": "{} 范围", "value": "{} {}", "expected": "预期结果", "none": "无"},
}


@dataclass(frozen=True)
class FieldChange:
    """One changed field: its JSON path in the spec and what it says, in words."""

    path: str
    words: str

    def as_json(self) -> dict[str, Any]:
        return {"path": self.path, "words": self.words}


def spec_changes(old: Spec, new: Spec, vocabulary: Vocabulary,
                 language: str = "en", units: UnitSystem | None = None) -> list[FieldChange]:
    """Every field that differs from ``old`` to ``new`` (empty: the same spec); with
    ``units`` a measured value says its unit (``(5, 0, 0) mm → (5, 7, 0) mm``)."""
    lang = language_of(language)
    words = _WORDS[lang]
    found: list[FieldChange] = []
    if old.summary != new.summary:
        found.append(FieldChange("summary", words["changed"].format(
            words["summary"], _quoted(old.summary), _quoted(new.summary))))
    for index in range(max(len(old.steps), len(new.steps))):
        label = words["step"].format(index + 1)
        path = f"steps[{index}]"
        if index >= len(old.steps):
            found.append(FieldChange(path, words["added"].format(
                label, step_phrase(new.steps[index], vocabulary, lang, units))))
        elif index >= len(new.steps):
            found.append(FieldChange(path, words["removed"].format(
                label, step_phrase(old.steps[index], vocabulary, lang, units))))
        else:
            found += _step_changes(old.steps[index], new.steps[index], path, label,
                                   vocabulary, lang, units)
    found += _expected_changes(old.expected, new.expected, lang)
    return found


def _step_changes(old: Step, new: Step, path: str, label: str, vocabulary: Vocabulary,
                  lang: Language, units: UnitSystem | None = None) -> list[FieldChange]:
    words = _WORDS[lang]
    if old.action != new.action:
        return [FieldChange(path, words["changed"].format(
            label, step_phrase(old, vocabulary, lang, units),
            step_phrase(new, vocabulary, lang, units)))]
    found: list[FieldChange] = []
    action = vocabulary.action(new.action)
    if old.scope != new.scope:
        members = action.members if action is not None else "elements"
        found.append(FieldChange(f"{path}.scope", words["changed"].format(
            words["scope"].format(label), _scope(old, members, lang, units),
            _scope(new, members, lang, units))))
    for key in dict.fromkeys([*old.values, *new.values]):
        before, after = old.values.get(key), new.values.get(key)
        if before == after:
            continue
        value_def = action.values.get(key) if action is not None else None
        found.append(FieldChange(f"{path}.values.{key}", words["changed"].format(
            words["value"].format(label, key), _value(value_def, before, lang, units),
            _value(value_def, after, lang, units))))
    if old.text != new.text:
        found.append(FieldChange(f"{path}.text", words["changed"].format(
            words["text"].format(label), _quoted(old.text), _quoted(new.text))))
    return found


def _expected_changes(old: Expected, new: Expected, lang: Language) -> list[FieldChange]:
    if old == new:
        return []
    words = _WORDS[lang]
    return [FieldChange("expected", words["changed"].format(
        words["expected"], expected_words(old, lang), expected_words(new, lang)))]


def _scope(step: Step, members: Any, lang: Language, units: UnitSystem | None = None) -> str:
    if step.scope is None:
        return _WORDS[lang]["none"]
    return scope_words(step.scope, members, lang, units)


def _value(value_def: Any, value: Any, lang: Language,
           units: UnitSystem | None = None) -> str:
    if value is None:
        return _WORDS[lang]["none"]
    return value_words(value_def, value, lang, units) if value_def is not None else str(value)


def _quoted(text: str) -> str:
    return f"“{text}”"
