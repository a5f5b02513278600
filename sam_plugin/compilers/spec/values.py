"""The kinds of value a spec step may commit to (docs/architecture.md §4 "The spec").

Each kind gives its JSON Schema (what the model fills in), normalizes what the model wrote
the way the tool IR normalizes the call's side (numbers at the IR's fixed precision, labels
sorted and unique, checks in canonical order), and says the value in words. Two normalized
values compare with :func:`same_value`: names and labels exactly, numbers within 1e-9
relative.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from sam_plugin.compilers import schema_common as sc
from sam_plugin.compilers.ir_common import fixed_precision
from sam_plugin.compilers.units import Quantity, UnitSystem, with_unit
from sam_plugin.samops.records import plain_exponent

ValueKind = Literal["number", "integer", "bool", "vector", "numbers", "integers", "labels",
                    "points", "name", "names", "choice", "choices", "record", "records",
                    "count_or_records"]
Language = Literal["en", "zh"]
# a value's own words, when its kind's are not enough (a patch, an element by its corners)
Render = Callable[[Any, Language], str]

RELATIVE_TOLERANCE = 1e-9
# Every list a spec may hold is bounded, so that a grammar built from the schema cannot let a
# model count on and on ("labels": [1, 2, 3, ..., 494] on a 4-element part).
LABELS_MAX = 64
POINTS_MAX = 16
NAMES_MAX = 16
RECORDS_MAX = 4


@dataclass(frozen=True)
class ValueDef:
    """One value key of an action: its kind, its JSON Schema and how it reads.

    ``words`` are a boolean's words (true_en, false_en, true_zh, false_zh) or a choice's
    (value -> (en, zh)); ``order`` is the canonical order of a ``choices`` list; ``fields``
    the members of a ``record`` (a beam profile) or of each item of ``records`` (patches).

    ``claim``: the value is the model's arithmetic about the outcome (a count of nodes or
    elements), not an instruction: it is compared with the plan's prediction as a warning,
    never bound as a contradiction. ``render``: the value's own words (else its kind's).
    ``quantity``: what the number measures (a length, a stress), whose unit the words for
    people add (``compilers/units.py``)."""

    kind: ValueKind
    schema: Mapping[str, Any]
    flag_words: tuple[str, str, str, str] = ("yes", "no", "是", "否")
    choice_words: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    order: tuple[str, ...] = ()
    fields: Mapping[str, ValueDef] = field(default_factory=dict)
    claim: bool = False
    render: Render | None = field(default=None, compare=False)
    quantity: Quantity | None = field(default=None, compare=False)
    # what a grammar holds the value to, where that is narrower than what any spec may state
    # (each element its shape's number of nodes); None: the schema
    held: Mapping[str, Any] | None = field(default=None, compare=False)

    def json_schema(self) -> dict[str, Any]:
        return dict(_copy(self.schema))

    def held_schema(self) -> dict[str, Any]:
        return dict(_copy(self.held if self.held is not None else self.schema))


def _copy(schema: Any) -> Any:
    if isinstance(schema, Mapping):
        return {key: _copy(value) for key, value in schema.items()}
    if isinstance(schema, list | tuple):
        return [_copy(value) for value in schema]
    return schema


# -- constructors ---------------------------------------------------------------------------


def number(description: str, *, minimum: float | None = None,
           maximum: float | None = None, quantity: Quantity | None = None) -> ValueDef:
    return ValueDef("number", sc.number(description, minimum=minimum, maximum=maximum),
                    quantity=quantity)


def integer(description: str, *, minimum: int | None = None,
            maximum: int | None = None, claim: bool = False) -> ValueDef:
    return ValueDef("integer", sc.integer(description, minimum=minimum, maximum=maximum),
                    claim=claim)


def flag(description: str, words: tuple[str, str, str, str]) -> ValueDef:
    return ValueDef("bool", sc.boolean(description), flag_words=words)


def vector(description: str, *, quantity: Quantity | None = None) -> ValueDef:
    return ValueDef("vector", sc.vec3(description), quantity=quantity)


def numbers(description: str, *, min_items: int, max_items: int,
            minimum: float | None = None, quantity: Quantity | None = None) -> ValueDef:
    return ValueDef("numbers", sc.array(sc.number(minimum=minimum), description,
                                        min_items=min_items, max_items=max_items),
                    quantity=quantity)


def integers(description: str, *, min_items: int, max_items: int,
             minimum: int | None = None) -> ValueDef:
    return ValueDef("integers", sc.array(sc.integer(minimum=minimum), description,
                                         min_items=min_items, max_items=max_items))


def labels(description: str) -> ValueDef:
    return ValueDef("labels", sc.array(sc.integer(minimum=1), description, min_items=1,
                                       max_items=LABELS_MAX))


def points(description: str, *, render: Render | None = None) -> ValueDef:
    """One point ``[x, y, z]`` or a list of them (one per label, or one per new node): the
    model's coordinates, lengths."""
    return ValueDef("points", {"anyOf": [sc.vec3(), sc.array(sc.vec3(), min_items=1,
                                                             max_items=POINTS_MAX)],
                               "description": description}, render=render,
                    quantity="length")


def corners(description: str, *, count: tuple[int, int]) -> ValueDef:
    """A list of ``count`` (min, max) points, in order: a patch's corners, an element's
    nodes."""
    return ValueDef("points", sc.array(sc.vec3(), description, min_items=count[0],
                                       max_items=count[1]), quantity="length")


def name(description: str) -> ValueDef:
    return ValueDef("name", sc.name(description))


def names(description: str) -> ValueDef:
    return ValueDef("names", sc.array(sc.name(), description, min_items=1,
                                      max_items=NAMES_MAX))


def choice(description: str, words: Mapping[str, tuple[str, str]]) -> ValueDef:
    return ValueDef("choice", sc.shape(tuple(words), description), choice_words=dict(words))


def choices(description: str, words: Mapping[str, tuple[str, str]]) -> ValueDef:
    """A list of choices, held in the canonical order of ``words`` (value -> (en, zh))."""
    return ValueDef("choices", sc.array(sc.shape(tuple(words)), description, min_items=1,
                                        max_items=len(words)),
                    order=tuple(words), choice_words=dict(words))


def record(description: str, fields: Mapping[str, ValueDef],
           required: Sequence[str] = ()) -> ValueDef:
    schema = sc.obj({key: value.json_schema() for key, value in fields.items()}, required,
                    description)
    return ValueDef("record", schema, fields=dict(fields))


def records(description: str, fields: Mapping[str, ValueDef], required: Sequence[str],
            render: Render, *,
            held_by: tuple[str, Mapping[str, Mapping[str, ValueDef]]] | None = None
            ) -> ValueDef:
    """A list of records of the same fields, in order (patches, lines, elements by their
    corners), with their own words. ``held_by`` (key, option -> fields): a grammar holds
    each record to the fields of its ``key``'s option (a QUAD element has 4 nodes)."""
    item = sc.obj({key: value.json_schema() for key, value in fields.items()}, required)
    held = None
    if held_by is not None:
        key, options = held_by
        held = sc.array({"anyOf": [sc.obj({**{k: v.json_schema() for k, v in fields.items()},
                                           key: {"type": "string", "enum": [option]},
                                           **{k: v.json_schema() for k, v in narrowed.items()}},
                                          required) for option, narrowed in options.items()]},
                        description, min_items=1, max_items=RECORDS_MAX)
    return ValueDef("records", sc.array(item, description, min_items=1, max_items=RECORDS_MAX),
                    fields=dict(fields), render=render, held=held)


def count_or_records(description: str, listed: ValueDef, render: Render) -> ValueDef:
    """A count the model claims (an integer) or the listed records themselves: ``build``'s
    ``elements`` is either, as the contract names both."""
    count = sc.integer("how many, as you count them", minimum=1)
    held = None if listed.held is None else {"anyOf": [count, listed.held_schema()],
                                             "description": description}
    return ValueDef("count_or_records", {"anyOf": [count, listed.json_schema()],
                                         "description": description},
                    fields=listed.fields, render=render, held=held)


def is_count(value: Any) -> bool:
    """A ``count_or_records`` value that is a count (not a list)."""
    return isinstance(value, int) and not isinstance(value, bool)


def is_claim(value_def: ValueDef, value: Any) -> bool:
    """Whether ``value`` is the model's arithmetic about the outcome (a count it claims),
    checked against the prediction rather than bound."""
    return value_def.claim or (value_def.kind == "count_or_records" and is_count(value))


# -- normalization ----------------------------------------------------------------------------


def normalize(value_def: ValueDef, raw: Any) -> Any:
    """``raw`` (already valid against the kind's schema) in the form calls are compared in."""
    kind = value_def.kind
    if kind == "number":
        return fixed_precision(float(raw))
    if kind == "integer":
        return int(raw)
    if kind == "bool":
        return bool(raw)
    if kind in ("vector", "numbers"):
        return [fixed_precision(float(x)) for x in raw]
    if kind == "integers":
        return [int(x) for x in raw]
    if kind == "labels":
        return sorted({int(x) for x in raw})
    if kind == "points":
        items = raw if raw and isinstance(raw[0], list | tuple) else [raw]
        return [[fixed_precision(float(x)) for x in point] for point in items]
    if kind == "names":
        return sorted({str(x) for x in raw})
    if kind == "choices":
        chosen = {str(x) for x in raw}
        return [item for item in value_def.order if item in chosen]
    if kind == "record":
        return {key: normalize(value_def.fields[key], raw[key])
                for key in value_def.fields if key in raw}
    if kind == "records" or (kind == "count_or_records" and not is_count(raw)):
        return [{key: normalize(value_def.fields[key], item[key])
                 for key in value_def.fields if key in item} for item in raw]
    if kind == "count_or_records":
        return int(raw)
    return str(raw)


def same_value(a: Any, b: Any) -> bool:
    """Equal as a step and a call must be: numbers within 1e-9 relative, the rest exactly."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, int | float) and isinstance(b, int | float):
        if a == b:
            return True
        return math.isclose(float(a), float(b), rel_tol=RELATIVE_TOLERANCE, abs_tol=0.0)
    if isinstance(a, list | tuple) and isinstance(b, list | tuple):
        return len(a) == len(b) and all(same_value(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        return set(a) == set(b) and all(same_value(a[k], b[k]) for k in a)
    return bool(a == b)


# -- words ------------------------------------------------------------------------------------


def number_words(value: float | int) -> str:
    """A number as the analyst reads it: ``5`` not ``5.0``, every digit that matters."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, int):
        return str(value)
    if value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    return repr(value)


def json_number_words(value: float | int) -> str:
    """A number as a JSON grammar lets a model write it: :func:`number_words` with no
    leading zero or ``+`` in an exponent (``7.85e-9``, not ``7.85e-09``: llama.cpp's number
    rule ends an exponent at its first ``0``, so a model copying ``e-09`` writes ``e-0``)."""
    words = number_words(value)
    return words if isinstance(value, bool) else plain_exponent(words)


def point_words(point: Sequence[float]) -> str:
    return "(" + ", ".join(number_words(x) for x in point) + ")"


def label_words(numbers_: Sequence[int]) -> str:
    """Sorted labels with consecutive runs joined: ``1-5, 9``."""
    ordered = sorted(set(numbers_))
    runs: list[str] = []
    start = prev = None
    for label in [*ordered, None]:
        if label is not None and prev is not None and label == prev + 1:
            prev = label
            continue
        if start is not None:
            runs.append(str(start) if start == prev else f"{start}-{prev}")
        start = prev = label
    return ", ".join(runs)


def value_words(value_def: ValueDef, value: Any, language: Language,
                units: UnitSystem | None = None) -> str:
    """A normalized value in words (``en`` or ``zh``); with ``units`` (the words for people,
    never a model's) a number says its unit (``2 mm``, ``210000 MPa``)."""
    if value_def.kind == "record":
        return _record_words(value_def, value, language, units)
    said = (value_def.render(value, language) if value_def.render is not None
            else _kind_words(value_def, value, language))
    return with_unit(said, value_def.quantity, units) if value_def.kind in _MEASURED else said


# the kinds whose numbers a quantity measures (a count, a label, a name has no unit)
_MEASURED = frozenset({"number", "vector", "numbers", "points"})


def _record_words(value_def: ValueDef, value: Any, language: Language,
                  units: UnitSystem | None) -> str:
    return ", ".join(
        (f"{key} {value_words(value_def.fields[key], item, language, units)}"
         if value_def.fields[key].kind != "choice"
         else value_words(value_def.fields[key], item, language))
        for key, item in value.items())


def _kind_words(value_def: ValueDef, value: Any, language: Language) -> str:
    kind = value_def.kind
    zh = language == "zh"
    if kind == "bool":
        true_en, false_en, true_zh, false_zh = value_def.flag_words
        return (true_zh if value else false_zh) if zh else (true_en if value else false_en)
    if kind in ("number", "integer"):
        return number_words(value)
    if kind == "vector":
        return point_words(value)
    if kind in ("numbers", "integers"):
        return " x ".join(number_words(x) for x in value)
    if kind == "labels":
        return label_words(value)
    if kind == "points":
        return "; ".join(point_words(p) for p in value)
    if kind == "choice":
        en, zh_word = value_def.choice_words.get(str(value), (str(value), str(value)))
        return zh_word if zh else en
    if kind == "choices":
        said = [value_def.choice_words.get(str(v), (str(v), str(v))) for v in value]
        return "、".join(w[1] for w in said) if zh else ", ".join(w[0] for w in said)
    if kind == "names":
        return ("、" if zh else ", ").join(str(v) for v in value)
    return str(value)
