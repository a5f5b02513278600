"""The design prompt's shared part (docs/architecture.md §4 "The spec"): the answer is one
JSON object of the mode's schema, and the mode's actions with their values, said from its
vocabulary (one source of truth with the schema and the binding).

Each mode adds its own introduction, its rules and short worked examples: a request on
another part and its answer, every number and name of the answer taken from that request (so
that a copy carries nothing of its own), no placeholder to copy, no step text.
"""

from __future__ import annotations

from collections.abc import Sequence

from sam_plugin.compilers.spec.vocabulary import ActionDef, Vocabulary

ANSWER_FORMAT = """\
Answer with ONE JSON object and nothing else. It is either the spec:
{"summary": one sentence, "steps": [one object per operation, in the order they happen],
 "expected": the counts you expect (optional)}
where a step is {"capability", "action", "scope" (only for actions that act on existing
entities), "values"}, or, when no action of this mode can do what is asked:
{"refuse": "why, in one sentence"}.
- Write only the steps the request asks for, each once.
- "values" holds the numbers, names and labels the step commits to, in the model's own units,
  taken from the request and the observation: the tool calls are computed from them exactly,
  so give every number the request states, and new geometry by its coordinates.
- "scope" picks existing entities: {"by":"all"} | {"by":"labels","labels":[...]} |
  {"by":"set","name":...} | {"by":"shape","shape":"QUAD"} | {"by":"box","min":[x,y,z],
  "max":[x,y,z]}. Use only labels and set names the observation lists.
- "expected" counts the whole part after the change (nodes, elements, shapes, sets,
  selected); give only what you can count, or leave it out.
- Do not write code and do not call tools."""

_ZH = ("Write the summary and every text in Chinese; keys, capabilities, actions and names "
       "stay as they are.")


def actions_text(vocabulary: Vocabulary) -> str:
    """The mode's actions, one line each: ``- transform: rotate (scope) — angle_deg*, ...;
    for "rotate or turn elements about an axis"`` (what an analyst asks it for)."""
    lines = [f"Actions of the {vocabulary.title} mode (capability: action; * = required "
             "value):"]
    lines += [f"- {_action_line(action)}" for action in vocabulary.actions]
    return "\n".join(lines)


def _action_line(action: ActionDef) -> str:
    scope = {"required": " (scope required)", "optional": " (scope optional)",
             "none": ""}[action.scope]
    if action.selects and action.scope != "none":
        scope = f"{scope[:-1]}: by {' or '.join(action.selects)})"
    values = ", ".join(_value_word(action, key) for key in action.values) or "no values"
    note = f"; {action.description}" if action.description else ""
    if action.kinds is not None:
        key, options = action.kinds
        note += "".join(f"; {key} {option} states {', '.join(keys)}"
                        for option, keys in options.items())
    asked = f'; for "{action.asks}"' if action.asks else ""
    return f"{action.capability}: {action.name}{scope} — {values}{note}{asked}"


def _value_word(action: ActionDef, key: str) -> str:
    """``vector*``; a value asked under another key says what it counts: ``copies* (the new
    copies, the original not counted)``."""
    star = "*" if key in action.required else ""
    if key not in action.asked_as:
        return f"{key}{star}"
    asked, _, description = action.asked_as[key]
    return f"{asked}{star} ({description})"


def examples_text(examples: Sequence[tuple[str, str]]) -> str:
    """Worked examples, each a request on another part and its answer: every number and
    name of an answer comes from its own request, so a copy says nothing about yours."""
    lines = ["Examples on other parts (their numbers and names are their own requests'):"]
    for request, answer in examples:
        lines += [f"Request: {request}", f"Answer: {answer}"]
    return "\n".join(lines)


def spec_prompt(vocabulary: Vocabulary, *, intro: str, rules: str,
                examples: Sequence[tuple[str, str]], language: str = "en") -> str:
    """The whole design prompt of one mode: the same text for every run of the mode (the
    observation and the request follow in the user turn), so a server's prompt cache serves
    it."""
    parts = [intro, ANSWER_FORMAT, actions_text(vocabulary), rules, examples_text(examples)]
    if language.lower().startswith("zh"):
        parts.append(_ZH)
    return "\n\n".join(parts)
