"""A design answer read as a spec (docs/architecture.md §4 "The spec").

The answer is one JSON object: the whole content, one fenced block (prose around it is
allowed), or the one object found in prose. ``<think>`` blocks are not the answer. The object
must meet the mode's schema (``schema.py``); every problem is named by its field with what is
legal there, never as a wall of schema errors, so one design repair round can fix it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError as SchemaError
from pydantic import TypeAdapter, ValidationError

from sam_plugin.compilers.protocol import quote
from sam_plugin.compilers.selectors import Selector
from sam_plugin.compilers.spec.ir import Expected, Spec, Step
from sam_plugin.compilers.spec.problem import SpecProblem
from sam_plugin.compilers.spec.schema import (
    SCOPE_DESCRIPTION,
    as_stated,
    step_schema,
    top_schema,
)
from sam_plugin.compilers.spec.values import is_claim, normalize
from sam_plugin.compilers.spec.vocabulary import ActionDef, Vocabulary
from sam_plugin.errors import SpecRejected, StrictJSONError

MAX_PROBLEMS = 8
_THINK = re.compile(r"<think>.*?(?:</think>|$)", re.S | re.I)
_FENCE = re.compile(r"```[ \t]*[A-Za-z]*[ \t]*\r?\n(.*?)```", re.S)
_SELECTOR = TypeAdapter(Selector)


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise StrictJSONError(f"the key {quote(key)} appears twice in one object; "
                                  "each key may appear once")
        out[key] = value
    return out


def _reject_constant(token: str) -> float:
    raise StrictJSONError(f"{token} is not a finite number; JSON numbers must be finite")


_DECODER = json.JSONDecoder(object_pairs_hook=_unique_keys, parse_constant=_reject_constant)

PROSE = ("the answer is prose, not a spec: answer with one JSON object "
         '{"summary": ..., "steps": [...], "expected": {...}} and nothing else')


def read_spec(content: str, vocabulary: Vocabulary) -> Spec:
    """The spec in a design answer; raises :class:`SpecRejected` naming every problem."""
    return spec_from_json(json_object_of(content), vocabulary)


def json_object_of(content: str) -> Any:
    """The one JSON object of an answer (whole, fenced, or alone in prose)."""
    text = _THINK.sub("", content or "").strip()
    broken = ""
    if text.startswith("{"):
        try:
            value, end = _DECODER.raw_decode(text)
        except ValueError as error:
            broken = str(error)
        else:
            if not text[end:].strip():
                return value
    fenced = [m.group(1).strip() for m in _FENCE.finditer(text)]
    objects = [obj for obj in map(_try_strict, fenced) if isinstance(obj, dict)]
    if not objects and not broken:
        objects = [obj for obj in _bare_objects(text)
                   if "steps" in obj or "summary" in obj or "refuse" in obj]
    if len(objects) > 1:
        raise SpecRejected([f"the answer holds {len(objects)} JSON objects; send exactly one, "
                            "the whole spec"])
    if objects:
        return objects[0]
    if broken or any(block.startswith("{") for block in fenced):
        reason = broken or "the fenced block is not valid JSON"
        raise SpecRejected([f"the JSON object does not parse: {reason}"])
    raise SpecRejected([PROSE], found_json=False)


def _strict(text: str) -> Any:
    value, end = _DECODER.raw_decode(text)
    if text[end:].strip():
        raise ValueError(f"extra text after the object at character {end}")
    return value


def _try_strict(text: str) -> Any:
    try:
        return _strict(text)
    except ValueError:
        return None


def _bare_objects(text: str) -> Iterable[dict[str, Any]]:
    """Objects that stand in prose by themselves (one nested in another is part of it; one
    inside broken JSON is not taken: callers keep only objects with a spec's fields)."""
    position = text.find("{")
    while position >= 0:
        try:
            value, end = _DECODER.raw_decode(text, position)
        except ValueError:
            position = text.find("{", position + 1)
            continue
        if isinstance(value, dict):
            yield value
        position = text.find("{", end)


# -- the schema, named field by field -------------------------------------------------------


def spec_from_json(document: Any, vocabulary: Vocabulary) -> Spec:
    """``document`` as a :class:`Spec` of ``vocabulary``; raises :class:`SpecRejected`. A
    value a step states under the key a person counts it by (an array's new ``copies``,
    ``ActionDef.asked_as``) is read as the value it makes (``count``, the instances)."""
    document = _counted_as_stated(document, vocabulary)
    problems = spec_problems(document, vocabulary)
    if problems:
        raise SpecRejected(problems)
    steps = []
    for index, raw in enumerate(document["steps"]):
        action = vocabulary.action(raw["action"])
        assert action is not None  # spec_problems checked it
        try:
            steps.append(_step(raw, action))
        except ValidationError as error:
            problems.append(SpecProblem(f"steps[{index}].scope", _pydantic_words(error)))
    if problems:
        raise SpecRejected(problems[:MAX_PROBLEMS])
    return Spec(summary=one_line(document["summary"]), steps=tuple(steps),
                expected=Expected(**document.get("expected", {})))


def _counted_as_stated(document: Any, vocabulary: Vocabulary) -> Any:
    if not isinstance(document, dict) or not isinstance(document.get("steps"), list):
        return document
    steps = []
    for raw in document["steps"]:
        action = vocabulary.action(str(raw.get("action"))) if isinstance(raw, dict) else None
        values = raw.get("values") if isinstance(raw, dict) else None
        if action is not None and action.asked_as and isinstance(values, dict) and not any(
                key in values for key in action.asked_as):
            raw = {**raw, "values": as_stated(action, values)}
        steps.append(raw)
    return {**document, "steps": steps}


def one_line(text: str) -> str:
    """``text`` on one line: every run of whitespace (newlines, tabs, line and paragraph
    separators) one space, so that a summary or a step text cannot lay out a fake "Steps:"
    block of the rendering's own form."""
    return " ".join(str(text).split())


def _step(raw: Mapping[str, Any], action: ActionDef) -> Step:
    scope = _SELECTOR.validate_python(raw["scope"]) if raw.get("scope") is not None else None
    given = {**action.defaults, **raw.get("values", {})}  # a default left out is stated
    values = {key: normalize(value_def, given[key])
              for key, value_def in action.values.items() if key in given}
    if action.paired is not None and all(key in values for key in action.paired):
        labels_key, points_key = action.paired
        order = [int(x) for x in given[labels_key]]
        by_label = dict(zip(order, values[points_key], strict=True))
        values[points_key] = [by_label[label] for label in values[labels_key]]
    return Step(capability=action.capability, action=action.name, scope=scope, values=values,
                text=one_line(raw.get("text", "")))


def spec_problems(document: Any, vocabulary: Vocabulary) -> list[str]:
    """Every problem of ``document`` as a spec of ``vocabulary``, field by field."""
    if not isinstance(document, dict):
        return ["the answer must be one JSON object with summary, steps and expected"]
    loose = top_schema(vocabulary, {"type": "object"})
    problems: list[str] = [_words(e, "", missing=m) for e, m in _errors(loose, document)]
    steps = document.get("steps")
    if isinstance(steps, list):
        for index, step in enumerate(steps[: 2 * MAX_PROBLEMS]):
            problems += _step_problems(index, step, vocabulary)
    return problems[:MAX_PROBLEMS]


def _step_problems(index: int, step: Any, vocabulary: Vocabulary) -> list[str]:
    here = f"steps[{index}]"
    if not isinstance(step, dict):
        return [SpecProblem(here, "a step is an object with capability, action, scope, values "
                            "and text")]
    action = vocabulary.action(step.get("action"))  # type: ignore[arg-type]  # checked inside
    if action is None:
        return [SpecProblem(f"{here}.action", f"{quote(step.get('action'))} is not a "
                            f"{vocabulary.title} action; legal actions: "
                            f"{', '.join(vocabulary.names())}")]
    if step.get("capability") != action.capability:
        return [SpecProblem(f"{here}.capability", f"{action.name} is a {action.capability} "
                            f"action, not {quote(step.get('capability'))}")]
    if action.scope == "none" and "scope" in step:
        return [SpecProblem(f"{here}.scope",
                            f"{action.name} acts on no existing entities; leave scope out")]
    if action.scope == "required" and step.get("scope") is None:
        return [SpecProblem(f"{here}.scope", f"{action.name} needs a scope, the entities it "
                            'acts on ({"by":"all"} for the whole part)')]
    problems: list[str] = [_words(e, here, action, m)
                           for e, m in _errors(step_schema(action), step)]
    if not problems:
        problems += _consistency(here, step, action)
    return problems


def _consistency(here: str, step: Mapping[str, Any], action: ActionDef) -> list[str]:
    """What the schema cannot say: one way of stating the values, one point per label, each
    label once."""
    values = step.get("values", {})
    stated = [keys for keys in (_stated(group, values, action) for group in action.alternatives)
              if keys]
    if len(stated) > 1:
        ways = " or ".join(", ".join(group) for group in action.alternatives)
        return [SpecProblem(f"{here}.values",
                            f"states {'; '.join(', '.join(keys) for keys in stated)}: "
                            f"{action.name} takes one of {ways}, not both (they can disagree)")]
    if action.paired is None or not all(key in values for key in action.paired):
        return []
    labels_key, points_key = action.paired
    labels = [int(x) for x in values[labels_key]]
    twice = sorted({label for label in labels if labels.count(label) > 1})
    if twice:
        return [SpecProblem(f"{here}.values.{labels_key}",
                            f"{', '.join(map(str, twice))} given twice; name each label once")]
    points = normalize(action.values[points_key], values[points_key])
    if len(points) != len(labels):
        return [SpecProblem(f"{here}.values.{points_key}",
                            f"{len(points)} point(s) for {len(labels)} label(s); give one point "
                            f"[x, y, z] per label, in the order of {labels_key}")]
    return []


def _stated(group: tuple[str, ...], values: Mapping[str, Any],
            action: ActionDef) -> list[str]:
    """The keys of ``group`` a step states (a count it claims states no geometry)."""
    return [key for key in group
            if key in values and not is_claim(action.values[key], values[key])]


def _errors(schema: dict[str, Any], document: Any) -> list[tuple[SchemaError, str | None]]:
    """The schema's errors by path, each with the key it finds missing (a ``required``
    error). jsonschema yields one ``required`` error per missing key, in the order of the
    keyword's list, and names the key only in its message: the instance and the list say
    which one each is."""
    validator = Draft202012Validator(schema)
    errors = sorted(validator.iter_errors(document), key=lambda e: [str(p) for p in e.path])
    claimed: dict[tuple[Any, ...], int] = {}
    out: list[tuple[SchemaError, str | None]] = []
    for error in errors:
        missing = None
        if error.validator == "required" and isinstance(error.instance, dict):
            where = (*error.absolute_path, *error.absolute_schema_path)
            lacking = [key for key in error.validator_value if key not in error.instance]
            index = claimed.get(where, 0)
            claimed[where] = index + 1
            missing = lacking[index] if index < len(lacking) else None
        out.append((error, missing))
    return out


def _path(prefix: str, error: SchemaError) -> str:
    """The field's JSON path (``""``: the whole spec)."""
    path = prefix
    for part in error.absolute_path:
        path += f"[{part}]" if isinstance(part, int) else (f".{part}" if path else str(part))
    return path


def _words(error: SchemaError, prefix: str, action: ActionDef | None = None,
           missing: str | None = None) -> SpecProblem:
    path = _path(prefix, error)
    return SpecProblem(path, _said(error, path, action), missing)


def _said(error: SchemaError, path: str, action: ActionDef | None) -> str:
    if error.validator == "additionalProperties":
        legal = list(error.schema.get("properties", {})) if isinstance(error.schema, dict) else []
        extra = sorted(set(error.instance) - set(legal)) if isinstance(error.instance, dict) \
            else []
        owner = f" of {action.name}" if action is not None and path.endswith(".values") else ""
        return (f"{', '.join(quote(k) for k in extra)} not allowed; legal fields"
                f"{owner}: {', '.join(legal) or 'none'}")
    if error.validator == "anyOf" and path.endswith(".scope"):
        return f"not a selector; {SCOPE_DESCRIPTION}"
    if error.validator == "required" and action is not None and path.endswith(".values"):
        return f"{error.message}; {action.name} states {', '.join(action.required)}"
    return _bounded_message(error)


def _bounded_message(error: SchemaError) -> str:
    message = error.message
    return message if len(message) <= 300 else message[:300] + "…"


def _pydantic_words(error: ValidationError) -> str:
    return "; ".join(str(item.get("msg", "")) for item in error.errors()) or str(error)
