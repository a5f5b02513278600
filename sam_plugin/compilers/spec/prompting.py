"""The design prompt's shared part (docs/architecture.md §4 "The spec"): the answer is one
JSON object of the mode's schema, and the mode's actions with their values, said from its
vocabulary (one source of truth with the schema and the binding).

Each mode adds its own introduction, its rules and one short example of the form, on
another part with other numbers than any task, with ``<placeholders>`` where a copy would be
wrong (a placeholder is not JSON: a verbatim copy is refused and repaired).
"""

from __future__ import annotations

from sam_plugin.compilers.spec.vocabulary import ActionDef, Vocabulary

ANSWER_FORMAT = """\
Answer with the spec as ONE JSON object and nothing else:
{"summary": "<one sentence>",
 "steps": [{"capability": "<capability>", "action": "<action>", "scope": <selector>,
            "values": {<the step's values>}, "text": "<the step in the analyst's words>"}],
 "expected": {"nodes": <n>, "elements": <n>, "shapes": {"QUAD": <n>}, "sets": ["<name>"],
              "selected": <n>}}
- One step per operation, in the order they happen.
- "values" holds the numbers, names and labels the step commits to, in the model's own units.
  Every tool call is checked against them exactly, so give every number the request states.
- "scope" (only for actions that act on existing entities) picks them: {"by":"all"} |
  {"by":"labels","labels":[...]} | {"by":"set","name":"..."} | {"by":"shape","shape":"QUAD"}
  | {"by":"box","min":[x,y,z],"max":[x,y,z]}. Use existing labels and set names from the
  observation.
- "expected" counts the whole part after the change; give only what you can count from the
  request and the observation ("selected": how many elements the change acts on).
- Do not write code and do not call tools."""

_ZH = ("Write the summary and every text in Chinese; keys, capabilities, actions and names "
       "stay as they are.")


def actions_text(vocabulary: Vocabulary) -> str:
    """The mode's actions, one line each: ``- transform: rotate (scope) — angle_deg*, ...``."""
    lines = [f"Actions of the {vocabulary.title} mode (capability: action; * = required "
             "value):"]
    lines += [f"- {_action_line(action)}" for action in vocabulary.actions]
    return "\n".join(lines)


def _action_line(action: ActionDef) -> str:
    scope = {"required": " (scope required)", "optional": " (scope optional)",
             "none": ""}[action.scope]
    values = ", ".join(f"{key}{'*' if key in action.required else ''}"
                       for key in action.values) or "no values"
    note = f"; {action.description}" if action.description else ""
    return f"{action.capability}: {action.name}{scope} — {values}{note}"


def spec_prompt(vocabulary: Vocabulary, *, intro: str, rules: str, example: str,
                language: str = "en") -> str:
    """The whole design prompt of one mode."""
    parts = [intro, ANSWER_FORMAT, actions_text(vocabulary), rules,
             "The form only, on another part (never copy it: take the numbers from the\n"
             "request and the observation; <...> marks what yours must fill in):\n" + example]
    if language.lower().startswith("zh"):
        parts.append(_ZH)
    return "\n\n".join(parts)
