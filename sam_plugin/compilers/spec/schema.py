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

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from sam_plugin.compilers import schema_common as sc
from sam_plugin.compilers.spec.values import LABELS_MAX, NAMES_MAX
from sam_plugin.compilers.spec.vocabulary import ActionDef, Vocabulary

SUMMARY_MAX_CHARS = 500
TEXT_MAX_CHARS = 500
# what a design answer held to a grammar may write (a small model fills any room it is given)
HELD_SUMMARY_CHARS = 240
HELD_TEXT_CHARS = 160
MAX_STEPS = 20  # what a spec may hold at all; a mode's grammar holds it to its own limit
REFUSAL_MAX_CHARS = 300
SCOPE_DESCRIPTION = (
    'the existing entities the step acts on: {"by":"all"} | {"by":"labels","labels":[1,2]} | '
    '{"by":"set","name":"S"} | {"by":"shape","shape":"QUAD"} | '
    '{"by":"box","min":[x,y,z],"max":[x,y,z]}'
)


# the answer that leaves a step asked again out of the spec
REMOVE_STEP: dict[str, Any] = sc.obj({"remove": {"type": "boolean", "enum": [True]}},
                                     ["remove"], "leave this step out of the spec")


@dataclass(frozen=True)
class ScopeBounds:
    """What the observed part lets a step name, so that a grammar built from the schema
    cannot write what the part lacks: ``sets`` its set names (none: no set scope at all),
    ``max_label`` its largest node or element label, ``entities`` how many it has (a label
    list holds no more). The spec a model is asked for is held to them; a spec read from
    any other source is checked by the general schema and warned about at Review."""

    sets: tuple[str, ...] = ()
    max_label: int = 0
    entities: int = 0
    # the actions the target as it is allows (an empty part can only be built, an existing
    # one never); none: every action of the mode
    actions: tuple[str, ...] = ()
    # the shapes a shape scope may name; none: every shape. A step asked again because its
    # scope picked nothing names only the shapes the part has (:func:`picking`)
    shapes: tuple[str, ...] = ()
    # a scope picks less than the whole part: no ``all``, and a shape scope only of the
    # ``shapes`` (none: no shape scope). A step asked again because it emptied the part
    partial: bool = False

    def allows(self, action: ActionDef) -> bool:
        return not self.actions or action.name in self.actions

    @property
    def labels_max(self) -> int:
        return max(1, min(self.entities, LABELS_MAX))


def spec_json_schema(mode: str) -> dict[str, Any]:
    """The JSON Schema a design answer in ``mode`` (part, property, mesh) must meet."""
    from sam_plugin.compilers import registry

    return schema_for(registry.get_module(mode).vocabulary)


def schema_for(vocabulary: Vocabulary, bounds: ScopeBounds | None = None, *,
               refusal: bool = False) -> dict[str, Any]:
    """The spec schema of one vocabulary (a fresh dict each call). With ``bounds``: held to
    the observed part and the mode's step limit (what a design request is constrained to);
    with ``refusal``: an answer may instead be ``{"refuse": "why"}``."""
    steps = any_step(vocabulary, bounds)
    top = top_schema(vocabulary, steps, held=bounds is not None)
    defs = {"selector": scope_schema(bounds)}
    if refusal:
        return {"anyOf": [top, refusal_schema(vocabulary)], "$defs": defs}
    return {**top, "$defs": defs}


def any_step(vocabulary: Vocabulary, bounds: ScopeBounds | None) -> dict[str, Any]:
    """A step of any action of the mode the bounds allow (the scope a reference to
    ``$defs/selector``)."""
    return {"anyOf": [variant for a in vocabulary.actions if bounds is None or bounds.allows(a)
                      for variant in step_variants(a, SCOPE_REF, bounds)]}


def picking(bounds: ScopeBounds, needs: tuple[str, ...],
            shapes: Mapping[str, int]) -> tuple[ScopeBounds, tuple[str, ...]]:
    """The bounds and needs of a step asked again, ``shapes`` the part's elements by shape
    (in the schema's order): where its scope picked nothing (``picking_scope``), it states a
    scope, and a shape scope names a shape the part has; where it emptied the part
    (``partial_scope``), its scope takes less than every element: never ``all``, nor a shape
    that every element has."""
    present = tuple(shape for shape, count in shapes.items() if count > 0)
    if "partial_scope" in needs:
        total = sum(shapes.values())
        bounds = replace(bounds, partial=True,
                         shapes=tuple(s for s in present if shapes[s] < total))
        needs = tuple(n for n in needs if n != "partial_scope")
    if "picking_scope" not in needs:
        return bounds, needs
    rest = tuple(n for n in needs if n not in ("picking_scope", "scope"))
    return replace(bounds, shapes=present), ("scope", *rest)


def one_step_schema(vocabulary: Vocabulary, bounds: ScopeBounds,
                    needs: tuple[str, ...] = ()) -> dict[str, Any]:
    """One step of the mode alone, held as the spec's steps are: what a step asked again
    answers (docs/architecture.md §4 "One repair before Review"). ``needs``: what the
    diagnostic's remedy has the step state (``scope``): a step that cannot state it is no
    answer, and one that can must; ``key:option`` (``kind:beam``): the step is one that
    states that option (a section defined again as a beam section); ``read_only``: a step
    of an action that changes nothing (``changing``: one that changes the part);
    ``action=<name>``: a step of one of the actions so
    named (what the request's words name); ``-key``: a step that does not state ``key``
    (one element given for four: the patch or line that makes them); ``removable``: the
    answer may instead be :data:`REMOVE_STEP`, the step left out (a definition the model has
    already)."""
    named = tuple(n.split("=", 1)[1] for n in needs if n.startswith("action="))
    if named:  # one of the actions the request's words name
        bounds = replace(bounds, actions=tuple(a.name for a in vocabulary.actions
                                               if a.name in named and bounds.allows(a))
                         or bounds.actions)
        needs = tuple(n for n in needs if not n.startswith("action="))
    if "changing" in needs:  # a step that changes the part, where a report was written
        bounds = replace(bounds, actions=tuple(a.name for a in vocabulary.actions
                                               if a.mutating and bounds.allows(a))
                         or bounds.actions)
        needs = tuple(n for n in needs if n != "changing")
    if "read_only" in needs:  # a step that changes nothing (a report), where one exists
        bounds = replace(bounds, actions=tuple(a.name for a in vocabulary.actions
                                               if not a.mutating and bounds.allows(a))
                         or bounds.actions)
        needs = tuple(n for n in needs if n != "read_only")
    removable = "removable" in needs
    unstated = tuple(n[1:] for n in needs if n.startswith("-"))
    needs = tuple(n for n in needs if n != "removable" and not n.startswith("-"))
    variants = [_without(v, unstated) for v in any_step(vocabulary, bounds)["anyOf"]]
    fields = tuple(n for n in needs if ":" not in n)
    if fields:
        variants = [_stating(v, fields) for v in variants
                    if all(key in v["properties"] for key in fields)] or variants
    for need in (n for n in needs if ":" in n):
        key, option = need.split(":", 1)
        variants = [v for v in variants if v["properties"]["values"]["properties"]
                    .get(key, {}).get("enum") == [option]] or \
            [_narrowed(v, key, option) for v in variants
             if option in v["properties"]["values"]["properties"].get(key, {}).get("enum", ())] \
            or variants
    if removable:
        variants = [*variants, REMOVE_STEP]
    return {"anyOf": variants, "$defs": {"selector": scope_schema(bounds)}}


def _narrowed(step: dict[str, Any], key: str, option: str) -> dict[str, Any]:
    """The step's variant with the choice ``key`` held to ``option``, required (a build
    asked again in the plane the request names)."""
    values = step["properties"]["values"]
    held = {**values, "properties": {**values["properties"],
                                     key: {"type": "string", "enum": [option]}},
            "required": [*values.get("required", []),
                         *([key] if key not in values.get("required", []) else [])]}
    return {**step, "properties": {**step["properties"], "values": held}}


def _without(step: dict[str, Any], keys: tuple[str, ...]) -> dict[str, Any]:
    """The step's variant with none of the values ``keys`` (a step that gave one element
    for four is asked again for the patch or line that makes them)."""
    values = step["properties"]["values"]
    if not keys or not any(k in values.get("properties", {}) for k in keys):
        return step
    kept = {**values, "properties": {k: v for k, v in values["properties"].items()
                                     if k not in keys},
            "required": [k for k in values.get("required", []) if k not in keys]}
    return {**step, "properties": {**step["properties"], "values": kept}}


def _stating(step: dict[str, Any], needs: tuple[str, ...]) -> dict[str, Any]:
    return {**step, "required": [*step["required"], *(k for k in needs
                                                      if k not in step["required"])]}


def refusal_schema(vocabulary: Vocabulary) -> dict[str, Any]:
    """``{"refuse": "why"}``: the mode cannot do what is asked (nothing runs)."""
    return sc.obj({"refuse": {"type": "string", "minLength": 1,
                              "maxLength": REFUSAL_MAX_CHARS,
                              "description": f"why the {vocabulary.title} mode cannot do "
                              "what is asked, in one sentence"}}, ["refuse"],
                  "the answer when no action of the mode fits the request")


def top_schema(vocabulary: Vocabulary, step: dict[str, Any], *,
               held: bool = False) -> dict[str, Any]:
    """The spec object around ``step`` (the step schema, or a loose one to check the rest);
    ``held``: the tighter bounds of an answer a grammar holds."""
    max_steps = vocabulary.max_steps if held else MAX_STEPS
    summary = {"type": "string", "minLength": 1,
               "maxLength": HELD_SUMMARY_CHARS if held else SUMMARY_MAX_CHARS,
               "description": f"one sentence: what the {vocabulary.title} change does"}
    return sc.obj({
        "summary": summary,
        "steps": sc.array(step, "the steps, in order; one per operation",
                          min_items=1, max_items=max_steps),
        "expected": expected_schema(),
    }, ["summary", "steps"], f"a {vocabulary.title} spec")


SCOPE_REF = {"$ref": "#/$defs/selector"}


def step_variants(action: ActionDef, scope: dict[str, Any],
                  bounds: ScopeBounds | None) -> list[dict[str, Any]]:
    """The step schemas of one action in a spec schema: one, or with ``bounds`` (a grammar
    holds the answer) one per way of stating its values (:func:`ways`), each held to what
    that way states: a build is a rectangle in its plane or coordinates, never both; a shell
    section has a thickness and never a profile; an array states its new copies."""
    if bounds is None:
        return [step_schema(action, scope, bounds)]
    return [held_step(step_schema(action, scope, bounds, leave_out=leave_out), action, fixed)
            for leave_out, fixed in ways(action)]


def ways(action: ActionDef) -> list[tuple[frozenset[str], tuple[str, str] | None]]:
    """(values left out, (kind key, option) fixed) per way of stating the action: one per
    kind (``ActionDef.kinds``), else one per alternative (``ActionDef.alternatives``)."""
    if action.kinds is not None:
        key, options = action.kinds
        return [(frozenset(k for other, keys in options.items() if other != option
                           for k in keys), (key, option)) for option in options]
    if action.alternatives:
        return [(frozenset(k for other in action.alternatives if other != group
                           for k in other), None) for group in action.alternatives]
    return [(frozenset(), None)]


def held_step(step: dict[str, Any], action: ActionDef,
              fixed: tuple[str, str] | None) -> dict[str, Any]:
    """A step schema (:func:`step_schema`) with its values held to one way of stating them."""
    values = step["properties"]["values"]
    properties, required = held_values(action, values["properties"], values["required"], fixed)
    held_values_schema = {**values, "properties": properties, "required": required}
    return {**step, "properties": {**step["properties"], "values": held_values_schema}}


def held_values(action: ActionDef, properties: Mapping[str, Any], required: Sequence[str],
                fixed: tuple[str, str] | None) -> tuple[dict[str, Any], list[str]]:
    """One way's values: what the way states is required (a rectangle its plane) and the
    choices it narrows to (QUAD or TRI), the kind fixed with what that kind states (a shell
    its thickness), and a value asked under the key a person counts it by (new copies)."""
    properties, required = dict(properties), list(required)
    if action.states and all(key in properties for key in action.states):
        required += [key for key in action.states if key not in required]
        for key, options in action.narrows.items():
            if key in properties:
                properties[key] = {"type": "string", "enum": list(options)}
    if fixed is not None and action.kinds is not None:
        key, option = fixed
        properties[key] = {"type": "string", "enum": [option]}
        required += [k for k in action.kinds[1][option] if k not in required]
    for key, (asked, offset, description) in action.asked_as.items():
        if key in properties:
            properties = {asked if k == key else k: _offset(v, -offset, description)
                          if k == key else v for k, v in properties.items()}
            required = [asked if k == key else k for k in required]
    return properties, required


def _offset(schema: Mapping[str, Any], by: int, description: str) -> dict[str, Any]:
    """An integer's schema with its bounds moved ``by`` (asked as new copies, not instances)."""
    moved = {k: (v + by if k in ("minimum", "maximum") and isinstance(v, int) else v)
             for k, v in schema.items()}
    return {**moved, "description": description}


def as_stated(action: ActionDef, values: Mapping[str, Any]) -> dict[str, Any]:
    """An answer's values as the step states them (new copies back to instances)."""
    out = dict(values)
    for key, (asked, offset, _) in action.asked_as.items():
        if asked in out:
            given = out.pop(asked)
            out[key] = given + offset if isinstance(given, int) and not isinstance(
                given, bool) else given
    return out


def step_schema(action: ActionDef, scope: dict[str, Any] | None = None,
                bounds: ScopeBounds | None = None, *,
                leave_out: frozenset[str] = frozenset()) -> dict[str, Any]:
    """One action's step: its capability and action fixed, its own values (but those in
    ``leave_out``), its scope rule (``scope``: the Selector schema or a reference to it;
    inline when not given); label values held to ``bounds`` when given, and every value to
    what a grammar holds it (``ValueDef.held``)."""
    properties: dict[str, Any] = {
        "capability": {"type": "string", "enum": [action.capability]},
        "action": {"type": "string", "enum": [action.name]},
    }
    required = ["capability", "action"]
    if action.scope != "none":
        properties["scope"] = dict(scope) if scope is not None else scope_schema()
        if action.selects and bounds is not None:  # held: only the selectors it takes
            properties["scope"] = scope_schema(bounds, action.selects)
        if action.scope == "required":
            required.append("scope")
    values = {key: _bounded_labels(value.json_schema(), bounds)
              if value.kind == "labels" else
              value.held_schema() if bounds is not None else value.json_schema()
              for key, value in action.values.items() if key not in leave_out}
    for key in leave_out:  # a count the step claims is no way of stating the geometry
        if action.values[key].kind == "count_or_records":
            values[key] = _count_only(action.values[key].json_schema())
    properties["values"] = sc.obj(values, action.required,
                                  "the numbers, names and labels this step commits to")
    # optional: the analyst reads the rendering of the IR, never the model's own words first
    properties["text"] = {"type": "string",
                          "maxLength": HELD_TEXT_CHARS if bounds else TEXT_MAX_CHARS,
                          "description": "optional: a note on the step, in a few words"}
    required += ["values"]
    return sc.obj(properties, required, action.description or action.name)


def _count_only(schema: dict[str, Any]) -> dict[str, Any]:
    return next(v for v in schema["anyOf"] if v.get("type") == "integer")


def scope_schema(bounds: ScopeBounds | None = None,
                 selects: tuple[str, ...] = ()) -> dict[str, Any]:
    """The tool IR's Selector, described once (each step variant repeats it: kept short);
    with ``bounds``, labels within the part's and set names from its sets only; with
    ``selects``, only those selectors (``ActionDef.selects``)."""
    schema = {**_undescribed(sc.selector()), "description": SCOPE_DESCRIPTION}
    if bounds is None:
        return schema
    variants = []
    for variant in schema["anyOf"]:
        kind = variant["properties"]["by"]["const"]
        if selects and kind not in selects:
            continue
        if kind == "labels":
            variant["properties"]["labels"] = _bounded_labels(
                variant["properties"]["labels"], bounds)
        elif kind == "set":
            if not bounds.sets:
                continue  # the part has no set: a set scope cannot be written
            variant["properties"]["name"] = {"type": "string", "enum": list(bounds.sets)}
        elif kind == "shape" and (bounds.shapes or bounds.partial):
            if not bounds.shapes:
                continue  # every element is of one shape: naming it takes the whole part
            variant["properties"]["shape"] = {"type": "string", "enum": list(bounds.shapes)}
        elif kind == "all" and bounds.partial:
            continue
        variants.append(variant)
    return {**schema, "anyOf": variants}


def _bounded_labels(schema: dict[str, Any], bounds: ScopeBounds | None) -> dict[str, Any]:
    """A label list no longer than the part has entities, each label within its range."""
    if bounds is None:
        return schema
    item = {"type": "integer", "minimum": 1, "maximum": max(1, bounds.max_label)}
    return {**schema, "items": item, "maxItems": bounds.labels_max}


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
        "sets": sc.array(sc.name(), "sets the part has after the change",
                         max_items=NAMES_MAX),
        "selected": sc.integer("how many elements (or nodes) the change acts on", minimum=0),
    }, description="the results you expect, counted on the whole part; all optional")
