"""The design asked in parts (docs/architecture.md §4 "The design, asked in parts"): first the
actions a request needs, each with the words of the request it answers, or the one category
the mode does not do; then each action's values under that action's own grammar. The spec
the parts make up is the one the analyst confirms (``ir.Spec``), read by the same reader.

Everything here is derived from the mode's vocabulary: the first question's enum and words,
each action's grammar (its alternatives, its kinds, the names it refers to), and the example
of an answer, built from the part the analyst is looking at, so that no literal example is
the same across parts.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from sam_plugin.compilers import schema_common as sc
from sam_plugin.compilers.spec.ir import Step
from sam_plugin.compilers.spec.model_json import model_json
from sam_plugin.compilers.spec.refusal_category import REFUSAL_CATEGORIES, RefusalCategory
from sam_plugin.compilers.spec.refusal_words import CATEGORY_WORDS
from sam_plugin.compilers.spec.render import step_phrase
from sam_plugin.compilers.spec.request_counts import CountReading, counts_words
from sam_plugin.compilers.spec.request_directions import directions_words
from sam_plugin.compilers.spec.request_quantities import quantities_in
from sam_plugin.compilers.spec.schema import (
    HELD_SUMMARY_CHARS,
    SCOPE_DESCRIPTION,
    ScopeBounds,
    as_stated,
    held_values,
    scope_schema,
    step_schema,
    ways,
)
from sam_plugin.compilers.spec.values import Language, ValueDef
from sam_plugin.compilers.spec.vocabulary import ActionDef, Vocabulary
from sam_plugin.compilers.units import UnitSystem

WORDS_MAX_CHARS = 60  # the quote of the request an action answers: a few words
NAMES_SHOWN = 40

ACTIONS_FORMAT = """\
First question, asked with the request alone: the actions. Answer with ONE compact JSON object
on one line and nothing else:
{"cannot":"none","actions":[{"action":<an action below>,"words":<request words it answers>},...]}
listing, in order, only the actions the request asks for, each with the few words of the
request it answers. Only when the request asks for
nothing this mode does, "cannot" names the category below of what it asks for, and "actions"
is []."""

VALUES_FORMAT = """\
Then, one action at a time, its values: you write ONE step of the spec the analyst reviews
before anything runs, for the one action named at the end. Answer with ONE compact JSON object
on one line and nothing else: {"scope":{...},"values":{...}} ("scope" only for an action that acts
on existing entities).
- "values" holds the numbers, names and labels the request states for this step, in the
  model's own units; leave out a value the request does not state unless it is required.
- "scope" picks existing entities: """ + SCOPE_DESCRIPTION + """. Use only labels and set
  names the part has.
- The answer's form is shown on this part with made-up numbers: never copy them; write the
  request's own."""


@dataclass(frozen=True)
class PlannedAction:
    """One action the first answer planned, with the words of the request it answers."""

    action: str
    words: str


@dataclass(frozen=True)
class ActionsAnswer:
    """The first answer: the planned actions, or a refusal ``category`` with its words."""

    actions: tuple[PlannedAction, ...] = ()
    category: RefusalCategory | None = None
    words: str = ""


@dataclass(frozen=True)
class StepFacts:
    """What the part (and the steps before) let one step name: the scope's bounds, and per
    kind of name (``sections``, ``materials``) the names that exist or an earlier step
    defines; the part's extent, for an example of its own size."""

    bounds: ScopeBounds = field(default_factory=ScopeBounds)
    names: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    first_labels: tuple[int, ...] = ()
    extent: tuple[float, float, float] = (0.0, 0.0, 0.0)


# -- the first question: the actions ----------------------------------------------------------


def actions_schema(vocabulary: Vocabulary,
                   legal: Sequence[str] | None = None) -> dict[str, Any]:
    """The first answer's schema: ``cannot`` first, ``"none"`` or a category this mode does
    not do, then the ordered actions (an enum of the mode's actions with a short quote each).
    Held to a choice between planning and refusing, a small model takes whichever the
    structure offers first (docs/models.md): this one plans, and the refusal comes from the
    request's own words (``out_of_mode.refused_by_words``). ``legal``: the actions the target
    as it is allows (an empty part can only be built, an existing one never), in vocabulary
    order; None: all of them."""
    words = {"type": "string", "minLength": 1, "maxLength": WORDS_MAX_CHARS}
    names = [n for n in vocabulary.names() if legal is None or n in legal]
    item = sc.obj({"action": {"type": "string", "enum": names or list(vocabulary.names())},
                   "words": dict(words)}, ["action", "words"])
    return sc.obj({"cannot": {"type": "string", "enum": ["none", *outside(vocabulary)]},
                   "actions": sc.array(item, min_items=0, max_items=vocabulary.max_steps)},
                  ["cannot", "actions"])


def outside(vocabulary: Vocabulary) -> tuple[RefusalCategory, ...]:
    """The refusal categories of what the mode does not do (every one but its own)."""
    return tuple(c for c in REFUSAL_CATEGORIES if CATEGORY_WORDS[c].mode != vocabulary.mode)


def parts_prompt(vocabulary: Vocabulary, intro: str, language: str = "en") -> str:
    """The system prompt of every request of the parts: the same for every run of the mode
    and for both questions, so that a server's prompt cache serves it and each request after
    the first shares its prefix with the one before (one slot: the target and the request
    too); each action and each category in the analyst's terms."""
    lines = [intro, "", ACTIONS_FORMAT, "",
             f"Actions of the {vocabulary.title} mode (action: what the analyst asks for):"]
    lines += [f"- {a.name}: {a.asks or a.description or a.name}" for a in vocabulary.actions]
    lines += ["", f"Categories the {vocabulary.title} mode does not do (category: what it "
              "covers):"]
    lines += [f"- {c}: {CATEGORY_WORDS[c].covers}" for c in outside(vocabulary)]
    lines += ["", VALUES_FORMAT]
    if language.lower().startswith("zh"):
        lines += ["", "The request may be in Chinese; quote its words as written."]
    return "\n".join(lines)



def read_actions(document: Any, vocabulary: Vocabulary) -> ActionsAnswer | None:
    """The first answer as planned actions or a category; None when it is neither (a whole
    spec, a ``refuse`` answer: the caller reads those as ever). Planned actions win over a
    category named beside them; ``{"actions": [...]}`` alone and ``{"cannot": category,
    "words": ...}`` alone are read too (scripted providers, the earlier form)."""
    if not isinstance(document, dict) or "steps" in document:
        return None
    listed = document.get("actions")
    planned = []
    for item in (listed if isinstance(listed, list) else [])[: vocabulary.max_steps]:
        name = item.get("action") if isinstance(item, dict) else item
        if isinstance(name, str) and vocabulary.action(name) is not None:
            planned.append(PlannedAction(name, _words(item.get("words"))
                                         if isinstance(item, dict) else ""))
    if planned:
        return ActionsAnswer(actions=tuple(planned))
    category = next((c for c in REFUSAL_CATEGORIES if c == document.get("cannot")), None)
    if category is not None:
        return ActionsAnswer(category=category, words=_words(document.get("words")))
    return None


def _words(value: Any) -> str:
    return " ".join(str(value).split())[:WORDS_MAX_CHARS] if isinstance(value, str) else ""


# -- then each action's values --------------------------------------------------------------


def asks_values(action: ActionDef) -> bool:
    """Whether an action has anything to ask (an audit of the properties has not)."""
    return bool(action.values) or action.scope == "required"


def step_grammar(action: ActionDef, facts: StepFacts,
                 needs: tuple[str, ...] = ()) -> dict[str, Any]:
    """One action's answer ``{"scope", "values"}`` under its own grammar: a variant per way
    of stating it (a rectangle or coordinates; a shell section with a thickness, a beam
    section with a profile), names held to those that exist or an earlier step defines,
    scopes held to the part; ``needs``: what a repair's remedy has it state (``scope``)."""
    ways_ = ways(action)
    fixed_by = {tuple(n.split(":", 1)) for n in needs if ":" in n}
    ways_ = [w for w in ways_ if w[1] in fixed_by] or ways_
    variants = [_variant(action, facts, leave_out, fixed, needs)
                for leave_out, fixed in ways_]
    return variants[0] if len(variants) == 1 else {"anyOf": variants}


def _variant(action: ActionDef, facts: StepFacts, leave_out: frozenset[str],
             fixed: tuple[str, str] | None, needs: tuple[str, ...]) -> dict[str, Any]:
    full = step_schema(action, scope_schema(facts.bounds), facts.bounds, leave_out=leave_out)
    values = full["properties"]["values"]
    properties, required = held_values(action, values["properties"], values["required"], fixed)
    for unstated in (n[1:] for n in needs if n.startswith("-")):  # schema.one_step_schema
        properties.pop(unstated, None)
        required = [k for k in required if k != unstated]
    for key, kind in action.refers.items():
        known = facts.names.get(kind, ())
        if key in properties and known:
            properties[key] = {"type": "string", "enum": list(known)}
    answer: dict[str, Any] = {"values": sc.obj(properties, required)}
    needed = ["values"]
    if "scope" in full["properties"]:
        answer = {"scope": full["properties"]["scope"], **answer}
        if action.scope == "required" or "scope" in needs:
            needed.insert(0, "scope")
    return sc.obj(answer, needed, action.asks or action.name)


def step_problems(action: ActionDef, answer: Mapping[str, Any], facts: StepFacts) -> list[str]:
    """Where an answer leaves its action's grammar (a server may not hold it), each named by
    its field with what is legal there."""
    values = answer.get("values") if isinstance(answer.get("values"), dict) else {}
    assert isinstance(values, dict)
    found = []
    if action.kinds is not None:
        key, options = action.kinds
        option = values.get(key)
        if isinstance(option, str) and option in options:
            for other, keys in options.items():
                found += [f"values.{k}: a {option} {action.name.split('_')[-1]} states "
                          f"{', '.join(options[option]) or 'no such value'}, never {k}"
                          for k in keys if other != option and k in values
                          and k not in options[option]]
    for key, kind in action.refers.items():
        name = values.get(key)
        known = facts.names.get(kind, ())
        if isinstance(name, str) and name not in known:
            found.append(f"values.{key}: {name!r} is no {kind[:-1]} of the model nor of an "
                         f"earlier step; {kind}: {', '.join(known[:NAMES_SHOWN]) or 'none'}")
    found += _stated_problems(action, values)
    scope = answer.get("scope")
    if isinstance(scope, dict):
        found += _scope_problems(scope, facts.bounds)
    return found


def _stated_problems(action: ActionDef, values: Mapping[str, Any]) -> list[str]:
    """A way of stating that has ``ActionDef.states`` used without them, or with a choice it
    narrows away (a rectangle build with no plane, a BEAM rectangle)."""
    group = next((g for g in action.alternatives if any(k in g for k in action.states)), ())
    if not action.states or not any(key in values for key in group):
        return []
    found = [f"values.{key}: a step stating {' and '.join(group[:2])} states its {key} too: "
             f"{' or '.join(_choices(action, key))}"
             for key in action.states if key not in values]
    for key, options in action.narrows.items():
        if key in values and values[key] not in options:
            found.append(f"values.{key}: {values[key]!r} cannot be stated by "
                         f"{' and '.join(group[:2])}; legal: {', '.join(options)} (else give "
                         "the coordinates: a line by its start and end)")
    return found


def _choices(action: ActionDef, key: str) -> tuple[str, ...]:
    return action.narrows.get(key) or tuple(action.values[key].choice_words) or (key,)


def _scope_problems(scope: Mapping[str, Any], bounds: ScopeBounds) -> list[str]:
    if scope.get("by") == "set" and scope.get("name") not in bounds.sets:
        return [f"scope.name: the part has no set {scope.get('name')!r}; sets: "
                f"{', '.join(bounds.sets[:NAMES_SHOWN]) or 'none'}"]
    labels = scope.get("labels")
    if scope.get("by") == "labels" and isinstance(labels, list) and bounds.max_label:
        outside = [x for x in labels if isinstance(x, int) and not 1 <= x <= bounds.max_label]
        if outside:
            return [f"scope.labels: {', '.join(map(str, outside[:8]))} lie outside the part's "
                    f"labels 1–{bounds.max_label}"]
    return []


def value_lines(action: ActionDef) -> str:
    """``vector* — [dx, dy, dz]``, one line a value (``*``: required)."""
    lines = []
    for key, value in action.values.items():
        asked, _, description = action.asked_as.get(
            key, (key, 0, str(value.schema.get("description", key))))
        lines.append(f"- {asked}{'*' if key in action.required else ''}: {description}")
    if action.kinds is not None:
        key, options = action.kinds
        lines += [f"- a {key} {option} states {', '.join(keys)}"
                  for option, keys in options.items()]
    return "\n".join(lines) or "- no values"


def example_answer(action: ActionDef, facts: StepFacts) -> dict[str, Any]:
    """The answer's form on this part: a scope of its own sets or labels, values made of its
    own size (so a copy carries this part's numbers, never a fixed example's)."""
    answer: dict[str, Any] = {}
    if action.scope != "none":
        if facts.bounds.sets:
            answer["scope"] = {"by": "set", "name": facts.bounds.sets[-1]}
        elif facts.first_labels:
            answer["scope"] = {"by": "labels", "labels": list(facts.first_labels)}
        else:
            answer["scope"] = {"by": "all"}
    leave_out, fixed = ways(action)[-1]
    values: dict[str, Any] = {}
    for key in _example_keys(action, leave_out):
        made = _example_value(action.values[key], facts, key)
        if made is not None:
            values[action.asked_as.get(key, (key,))[0]] = made
    _one_point_each(action, values)
    if fixed is not None:
        values[fixed[0]] = fixed[1]
    answer["values"] = values
    return answer


def _example_keys(action: ActionDef, leave_out: frozenset[str]) -> list[str]:
    """The values the example shows: the required ones, and where those only claim a count
    ("count" of add_nodes), the geometry that makes it (its points): an example of a count
    alone was answered with a count alone, which adds nothing."""
    keys = [k for k in action.required or tuple(action.values)[:2] if k not in leave_out]
    if keys and all(action.values[k].claim for k in keys):
        keys += [k for k, value in action.values.items()
                 if k not in leave_out and k not in keys and value.kind == "points"][:1]
    return keys


def _one_point_each(action: ActionDef, values: dict[str, Any]) -> None:
    """As many example points as the example's labels (``ActionDef.paired``) or its count
    claims: an example of one point for two labels was copied as one."""
    count = None
    if action.paired is not None and action.paired[0] in values:
        count = len(values[action.paired[0]])
    elif isinstance(values.get("count"), int):
        count = values["count"]
    for key, value in list(values.items()):
        if count and key in action.values and action.values[key].kind == "points" \
                and isinstance(value, list) and value:
            x, y, z = value[0]
            values[key] = [[round(x * (i + 1), 3), y, z] for i in range(count)]


def _example_value(value: ValueDef, facts: StepFacts, key: str) -> Any:
    span = max(facts.extent) or 10.0
    made = round(span * 0.37, 3)
    kind = value.kind
    schema = value.schema
    if kind == "number":
        low, high = schema.get("minimum"), schema.get("maximum")
        number = made if high is None else (low + high) / 3 if low is not None else high / 3
        return round(number, 3)
    if kind == "integer":
        return max(int(schema.get("minimum", 1)), 2)
    if kind == "bool":
        return True
    if kind == "vector":
        return [made, 0.0, 0.0]
    if kind in ("numbers", "integers"):
        count = int(schema.get("minItems", 1))
        return [made if kind == "numbers" else 2] * count
    if kind == "labels":
        return list(facts.first_labels[:2]) or [1]
    if kind == "points":
        return [[made, made, 0.0]]
    if kind == "name":
        return f"{key.upper()}_{int(span) % 97}"
    if kind in ("choice", "choices"):
        first = next(iter(value.choice_words), None)
        return first if kind == "choice" else [first] if first else None
    if kind == "record":
        record = {k: _example_value(v, facts, k) for k, v in value.fields.items()
                  if k in schema.get("required", ())}
        return {k: v for k, v in record.items() if v is not None}
    return None


def quantities_words(request: str, system: UnitSystem) -> str:
    """Every quantity the request states with a unit, in the model's units, converted by
    the product (the model is never asked to convert, nor to keep a unit it was given):
    ``The request's quantities in this model's units (write these numbers): 70 GPa = 70000
    MPa in this model; 3 MPa = 3 MPa in this model.``; ``""`` when there are none."""
    said = [q.conversion_words(system, for_model=True) for q in quantities_in(request)
            if q.value_in(system) is not None]
    said = list(dict.fromkeys(said))
    if not said:
        return ""
    return ("The request's quantities in this model's units (write these numbers): "
            + "; ".join(said) + ".")


def readings_words(request: str, system: UnitSystem, counts: Sequence[CountReading]) -> str:
    """What the product read of the request for the model that writes the spec: its
    quantities in the model's units, its indirect counts in the mode's values, then the
    directions, axes and planes it names as vectors (each a line; ``""`` when there is
    none)."""
    return "\n".join(line for line in (quantities_words(request, system), counts_words(counts),
                                       directions_words(request, system)) if line)


def values_messages(*, system: str, head: str, facts_text: str, planned: Sequence[PlannedAction],
                    index: int, written: Sequence[Step], vocabulary: Vocabulary,
                    example: Mapping[str, Any]) -> list[dict[str, Any]]:
    """One values request: the mode's values prompt, then what every step of this run shares
    (``head``: target and request), then this action's facts and its question."""
    action = vocabulary.action(planned[index].action)
    assert action is not None
    plan = "; ".join(f"{i + 1}. {p.action} (“{p.words}”)" if p.words else f"{i + 1}. {p.action}"
                     for i, p in enumerate(planned))
    earlier = (f"Steps written so far: {model_json([s.as_json() for s in written])}\n"
               if written else "")
    scope = {"required": "required: the existing entities it acts on",
             "optional": "optional: leave it out for the whole part",
             "none": "none"}[action.scope]
    words = f", for “{planned[index].words}”" if planned[index].words else ""
    user = (f"{head}\nThe steps planned for it: {plan}\n{facts_text}\n{earlier}"
            f"Now step {index + 1} of {len(planned)}: {action.name}{words}: "
            f"{action.asks or action.description or action.name}.\n"
            f"Its values (* required):\n{value_lines(action)}\nIts scope: {scope}.\n"
            "The form of the answer, on this part (made-up numbers: write the request's own): "
            f"{model_json(example)}")
    return [{"role": "system", "content": system}, {"role": "user", "content": user}]


def assembled(planned: Sequence[PlannedAction], answers: Sequence[Mapping[str, Any]],
              vocabulary: Vocabulary, language: str = "en") -> dict[str, Any]:
    """The parts as the one spec document the reader reads: each step its action, scope,
    values and the request words it answers; the summary said from the steps."""
    steps = []
    for item, answer in zip(planned, answers, strict=True):
        action = vocabulary.action(item.action)
        assert action is not None
        step: dict[str, Any] = {"capability": action.capability, "action": action.name}
        if isinstance(answer.get("scope"), dict):
            step["scope"] = answer["scope"]
        values = answer.get("values")
        step["values"] = as_stated(action, values) if isinstance(values, dict) else {}
        if item.words:
            step["text"] = item.words
        steps.append(step)
    return {"summary": _summary(steps, vocabulary, language), "steps": steps}


def _summary(steps: Sequence[Mapping[str, Any]], vocabulary: Vocabulary, language: str) -> str:
    said = []
    words: Language = "zh" if language.lower().startswith("zh") else "en"
    for data in steps:
        try:
            said.append(step_phrase(Step.model_validate({**data, "text": ""}), vocabulary,
                                    words))
        except (ValueError, TypeError, AttributeError):  # a value of the wrong kind: the
            # reader names it after this
            said.append(str(data.get("action")))
    text = ("；" if words == "zh" else "; ").join(said)
    text = text[:1].upper() + text[1:]
    return text if len(text) <= HELD_SUMMARY_CHARS else text[: HELD_SUMMARY_CHARS - 1] + "…"


def one_step_spec(step: Mapping[str, Any]) -> dict[str, Any]:
    """One step alone as a spec document, so that the reader names its problems alone."""
    return {"summary": "one step", "steps": [dict(step)]}


def copied_example(answer: Mapping[str, Any], example: Mapping[str, Any]) -> bool:
    """Whether an answer is the example's, value for value (it states nothing of its own)."""
    return bool(answer.get("values")) and dict(answer) == dict(example)


def defined_names(action: ActionDef, answer: Mapping[str, Any]) -> tuple[str, str] | None:
    """(kind, name) a step defines (``define_section`` adds a section), for later steps."""
    if action.defines is None:
        return None
    kind, key = action.defines
    values = answer.get("values")
    name = values.get(key) if isinstance(values, dict) else None
    return (kind, name) if isinstance(name, str) else None

