"""The JSON Schema of a mode's spec (docs/architecture.md §4 "The spec"), sent as
``response_format`` / ``format`` where the profile supports it and checked on every answer.

Kept within what llama.cpp, vLLM and Ollama grammars accept: one ``$ref`` (to the Selector in
``$defs``, never a cycle), no ``oneOf``/``if``/``allOf``, single-value and flat ``enum`` s,
``additionalProperties: false`` on every object. A step is
one ``anyOf`` variant per action of the mode, so a grammar lets a translate carry a vector
and nothing a scale would: the model cannot write an action the mode does not have, nor a
value the action does not take.
"""

from __future__ import annotations

from typing import Any

from sam_plugin.compilers import schema_common as sc
from sam_plugin.compilers.spec.vocabulary import ActionDef, Vocabulary

SUMMARY_MAX_CHARS = 500
TEXT_MAX_CHARS = 500
MAX_STEPS = 20
SCOPE_DESCRIPTION = (
    'the existing entities the step acts on: {"by":"all"} | {"by":"labels","labels":[1,2]} | '
    '{"by":"set","name":"S"} | {"by":"shape","shape":"QUAD"} | '
    '{"by":"box","min":[x,y,z],"max":[x,y,z]}'
)


def spec_json_schema(mode: str) -> dict[str, Any]:
    """The JSON Schema a design answer in ``mode`` (part, property, mesh) must meet."""
    from sam_plugin.compilers import registry

    return schema_for(registry.get_module(mode).vocabulary)


def schema_for(vocabulary: Vocabulary) -> dict[str, Any]:
    """The spec schema of one vocabulary (a fresh dict each call)."""
    steps = {"anyOf": [step_schema(a, scope=SCOPE_REF) for a in vocabulary.actions]}
    return {**top_schema(vocabulary, steps), "$defs": {"selector": scope_schema()}}


def top_schema(vocabulary: Vocabulary, step: dict[str, Any]) -> dict[str, Any]:
    """The spec object around ``step`` (the step schema, or a loose one to check the rest)."""
    summary = {"type": "string", "minLength": 1, "maxLength": SUMMARY_MAX_CHARS,
               "description": f"one sentence: what the {vocabulary.title} change does"}
    return sc.obj({
        "summary": summary,
        "steps": sc.array(step, "the steps, in order; one per operation",
                          min_items=1, max_items=MAX_STEPS),
        "expected": expected_schema(),
    }, ["summary", "steps"], f"a {vocabulary.title} spec")


SCOPE_REF = {"$ref": "#/$defs/selector"}


def step_schema(action: ActionDef, scope: dict[str, Any] | None = None) -> dict[str, Any]:
    """One action's step: its capability and action fixed, its own values, its scope rule
    (``scope``: the Selector schema or a reference to it; inline when not given)."""
    properties: dict[str, Any] = {
        "capability": {"type": "string", "enum": [action.capability]},
        "action": {"type": "string", "enum": [action.name]},
    }
    required = ["capability", "action"]
    if action.scope != "none":
        properties["scope"] = dict(scope) if scope is not None else scope_schema()
        if action.scope == "required":
            required.append("scope")
    values = {key: value.json_schema() for key, value in action.values.items()}
    properties["values"] = sc.obj(values, action.required,
                                  "the numbers, names and labels this step commits to")
    properties["text"] = {"type": "string", "maxLength": TEXT_MAX_CHARS,
                          "description": "the step in the analyst's words"}
    required += ["values", "text"]
    return sc.obj(properties, required, action.description or action.name)


def scope_schema() -> dict[str, Any]:
    """The tool IR's Selector, described once (each step variant repeats it: kept short)."""
    return {**_undescribed(sc.selector()), "description": SCOPE_DESCRIPTION}


def _undescribed(schema: Any) -> Any:
    if isinstance(schema, dict):
        return {k: _undescribed(v) for k, v in schema.items() if k != "description"}
    if isinstance(schema, list):
        return [_undescribed(v) for v in schema]
    return schema


def expected_schema() -> dict[str, Any]:
    count = sc.integer(minimum=0)
    return sc.obj({
        "nodes": sc.integer("nodes of the whole part after the change", minimum=0),
        "elements": sc.integer("elements of the whole part after the change", minimum=0),
        "shapes": sc.obj({shape: count for shape in sc.SHAPE_VALUES},
                         description="elements per shape after the change"),
        "sets": sc.array(sc.name(), "sets the part has after the change"),
        "selected": sc.integer("how many elements (or nodes) the change acts on", minimum=0),
    }, description="the results you expect, counted on the whole part; all optional")
