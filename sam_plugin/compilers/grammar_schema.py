"""A tool's JSON Schema in the subset that servers turn into a decoding grammar.

llama.cpp builds its grammar from ``type`` (a name or a list), ``properties``, ``required``,
``additionalProperties``, ``items``/``prefixItems``, ``minItems``/``maxItems``, ``enum``,
``const``, ``anyOf``/``oneOf``, ``allOf``, ``$ref``, anchored ``pattern``s and integer
bounds (``common/json-schema.cpp`` of the build the eval records with); Ollama uses the same
converter, vLLM's backends accept more. A schema the converter cannot read is either refused
(HTTP 400/500) or, on some builds, generated *unconstrained* with 200 OK (llama.cpp #19051),
so what is sent stays well inside the subset:

- only the keywords above survive (``description``, ``$schema`` and number bounds go: the
  tool's definition still carries the descriptions, and the compilers check every bound);
- a ``pattern`` survives only in the simple form our names use (``^``, character classes
  with ``{m,n}``/``*``/``+``/``?``, ``$``);
- a ``maxItems`` above :data:`MAX_UNROLLED_ITEMS` goes in a tool's schema (each bounded
  repetition unrolls into the grammar; the compilers bound sizes anyway). The spec's schema
  keeps every bound up to :data:`SPEC_UNROLLED_ITEMS`: it is built small on purpose
  (``compilers/spec/schema.py``), and an unbounded list there lets a small model count on and
  on ("labels": [1, 2, 3, ..., 494] on a 4-element part).

What the grammar no longer says, the schema check and the compilers still do (every check of
ours stays: a constraint can fail open).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

MAX_UNROLLED_ITEMS = 8
SPEC_UNROLLED_ITEMS = 64
GRAMMAR_KEYWORDS = frozenset({
    "type", "properties", "required", "additionalProperties", "items", "prefixItems",
    "minItems", "maxItems", "enum", "const", "anyOf", "oneOf", "allOf", "$ref", "$defs",
    "pattern", "minLength", "maxLength", "minimum", "maximum",
})
_SUBSCHEMA_MAPS = ("properties", "$defs")
_SUBSCHEMA_LISTS = ("anyOf", "oneOf", "allOf", "prefixItems")
_SIMPLE_PATTERN = re.compile(r"^\^(?:\[(?:[^\]\\]|\\.)+\](?:\{\d+(?:,\d+)?\}|[*+?])?)+\$$")


def grammar_schema(schema: Mapping[str, Any], *,
                   max_unrolled: int = MAX_UNROLLED_ITEMS) -> dict[str, Any]:
    """``schema`` reduced to the grammar subset (a new dict; ``schema`` is untouched);
    bounds on list sizes survive up to ``max_unrolled``."""
    out: dict[str, Any] = {}
    integer = schema.get("type") == "integer"
    for key, value in schema.items():
        if key not in GRAMMAR_KEYWORDS:
            continue
        if key in ("minimum", "maximum") and not integer:
            continue
        if key == "pattern" and not (isinstance(value, str) and _SIMPLE_PATTERN.match(value)):
            continue
        if key == "maxItems" and isinstance(value, int) and value > max_unrolled:
            continue
        if key in _SUBSCHEMA_MAPS and isinstance(value, Mapping):
            out[key] = {name: grammar_schema(sub, max_unrolled=max_unrolled)
                        for name, sub in value.items()}
        elif key in _SUBSCHEMA_LISTS and isinstance(value, list):
            out[key] = [grammar_schema(sub, max_unrolled=max_unrolled) for sub in value]
        elif key in ("items", "additionalProperties") and isinstance(value, Mapping):
            out[key] = grammar_schema(value, max_unrolled=max_unrolled)
        else:
            out[key] = value
    return out


def outside_subset(schema: Any, path: str = "#", *,
                   max_unrolled: int = MAX_UNROLLED_ITEMS) -> list[str]:
    """Where ``schema`` leaves the grammar subset (``#/properties/x/format``); [] inside it."""
    if not isinstance(schema, Mapping):
        return [f"{path}: not a schema object"]
    found: list[str] = []
    for key, value in schema.items():
        where = f"{path}/{key}"
        if key not in GRAMMAR_KEYWORDS:
            found.append(where)
        elif key == "pattern" and not (isinstance(value, str) and _SIMPLE_PATTERN.match(value)):
            found.append(where)
        elif key in ("minimum", "maximum") and schema.get("type") != "integer":
            found.append(where)
        elif key == "maxItems" and isinstance(value, int) and value > max_unrolled:
            found.append(where)
        elif key in _SUBSCHEMA_MAPS and isinstance(value, Mapping):
            for name, sub in value.items():
                found += outside_subset(sub, f"{where}/{name}", max_unrolled=max_unrolled)
        elif key in _SUBSCHEMA_LISTS and isinstance(value, list):
            for i, sub in enumerate(value):
                found += outside_subset(sub, f"{where}/{i}", max_unrolled=max_unrolled)
        elif key in ("items", "additionalProperties") and isinstance(value, Mapping):
            found += outside_subset(value, where, max_unrolled=max_unrolled)
    return found
