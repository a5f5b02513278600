"""Output bounds per phase: every request carries ``max_tokens`` (docs/architecture.md §6
"Requests").

A small model asked for a plate build once wrote more than 5,300 tokens of one design answer
(14 minutes at 6 tokens/s). A design answer gets the profile's ``design_tokens``; a tool call
what its schema and the observed part call for, within the profile's ``call_tokens_max``; the
settings ``design_max_tokens`` and ``call_max_tokens`` override both. An answer cut at its
bound gets a repair round with twice the bound (:func:`after_cut`), never a silent truncation.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sam_plugin.runtime.config.settings import ProviderSettings

CALL_BASE = 256  # the call's name, braces, a short reasoning preamble
PER_FIELD = 12  # a filled leaf field, about
PER_ENTITY = 16  # a node or element a call may list (label, coordinates or connectivity)
LISTED_MAX = 256  # entities a call is expected to list at most; selectors pick the rest
CALL_MIN = 512
# The design answer under a grammar: the largest answer its schema allows, within a ceiling
# of about ten times a typical spec (160 tokens measured on the 0.5B): every list and string
# of the grammar is bounded, so an answer that runs to it is repeating itself (a loop), and
# one that did took 10 minutes of a two-core machine at the old unbounded grammar.
DESIGN_HELD_CEILING = 1536
NUMBER_TOKENS = 8  # Qwen and Llama tokenizers split numbers into digits: "-12.375" is 7
KEY_TOKENS = 4  # a quoted key, its colon and a separator


def design_tokens(settings: ProviderSettings, held: Mapping[str, Any] | None = None) -> int:
    """A design answer's bound: the setting, else, for an answer held to the spec's grammar
    (``held``: the schema sent), the largest answer that schema allows (within
    :data:`DESIGN_HELD_CEILING`), else the profile's."""
    if settings.design_max_tokens:
        return settings.design_max_tokens
    if held is not None:
        largest = largest_answer_tokens(held)
        return max(CALL_MIN, min(DESIGN_HELD_CEILING, largest))
    return settings.capabilities.design_tokens


def largest_answer_tokens(schema: Mapping[str, Any]) -> int:
    """About the most tokens an answer held to ``schema`` can take (compact JSON; numbers
    at :data:`NUMBER_TOKENS`, a string at one token per character of its ``maxLength``);
    an unbounded list or string counts as :data:`DESIGN_HELD_CEILING`."""
    return _largest(schema, schema.get("$defs") or {}, depth=0)


def _largest(schema: Any, defs: Mapping[str, Any], depth: int) -> int:
    if not isinstance(schema, Mapping) or depth > 32:
        return DESIGN_HELD_CEILING
    ref = schema.get("$ref")
    if isinstance(ref, str):
        return _largest(defs.get(ref.rsplit("/", 1)[-1]), defs, depth + 1)
    for key in ("anyOf", "oneOf"):
        if key in schema:
            return max(_largest(sub, defs, depth + 1) for sub in schema[key])
    if "enum" in schema or "const" in schema:
        values = schema.get("enum") or [schema.get("const")]
        return 2 + max(len(str(v)) for v in values)
    kind = schema.get("type")
    if kind == "object" or "properties" in schema:
        return 2 + sum(KEY_TOKENS + len(key) // 3 + _largest(sub, defs, depth + 1)
                       for key, sub in (schema.get("properties") or {}).items())
    if kind == "array":
        limit = schema.get("maxItems")
        if not isinstance(limit, int):
            return DESIGN_HELD_CEILING
        return 2 + limit * (1 + _largest(schema.get("items"), defs, depth + 1))
    if kind == "string":
        limit = schema.get("maxLength") or _pattern_length(schema.get("pattern"))
        return 2 + limit if limit else DESIGN_HELD_CEILING
    if kind == "boolean":
        return 2
    return NUMBER_TOKENS


def _pattern_length(pattern: Any) -> int:
    """The longest text a simple anchored name pattern allows (``^[A-Z][a-z]{0,63}$``: 64)."""
    if not isinstance(pattern, str):
        return 0
    import re

    total = 0
    for _, low, high, mark in re.findall(r"\[([^\]]*)\](?:\{(\d+)(?:,(\d+))?\}|([*+?]))?",
                                         pattern):
        if mark in ("*", "+"):
            return 0
        total += int(high or low or 1)
    return total


def call_tokens(settings: ProviderSettings, parameters: Mapping[str, Any] | None,
                entities: int) -> int:
    """The bound of one round's answer: from the tool's schema (its leaf fields) and the
    observed part (how many entities a call could list)."""
    if settings.call_max_tokens:
        return settings.call_max_tokens
    schema = parameters or {}
    listed = min(max(0, entities), LISTED_MAX) if lists_entities(schema) else 0
    need = CALL_BASE + PER_FIELD * leaf_fields(schema) + PER_ENTITY * listed
    return max(CALL_MIN, min(settings.capabilities.call_tokens_max, need))


def after_cut(tokens: int, settings: ProviderSettings) -> int:
    """The bound of the repair round after an answer was cut at ``tokens``."""
    ceiling = max(tokens, settings.capabilities.call_tokens_max, settings.call_max_tokens or 0)
    return min(2 * tokens, 2 * ceiling)


def after_design_cut(tokens: int) -> int:
    """The bound of the design repair round after a spec was cut at ``tokens``."""
    return 2 * tokens


def lists_entities(schema: Any) -> bool:
    """Whether a schema holds a list of labels or of objects (nodes, elements, operations)."""
    if not isinstance(schema, Mapping):
        return False
    items = schema.get("items")
    if schema.get("type") == "array" and isinstance(items, Mapping) and (
            items.get("type") in ("integer", "object") or "properties" in items):
        return True
    subs = [*(schema.get("properties") or {}).values(), *(schema.get("$defs") or {}).values(),
            *(schema.get("anyOf") or []), *(schema.get("oneOf") or []),
            *(schema.get("allOf") or [])]
    return any(lists_entities(sub) for sub in subs) or (
        isinstance(items, Mapping) and lists_entities(items))


def leaf_fields(schema: Mapping[str, Any]) -> int:
    """Leaf values a schema describes (every variant of a union counted)."""
    count = 0
    for key in ("properties", "$defs"):
        for sub in (schema.get(key) or {}).values():
            count += leaf_fields(sub)
    for key in ("anyOf", "oneOf", "allOf"):
        for sub in schema.get(key) or []:
            count += leaf_fields(sub)
    items = schema.get("items")
    if isinstance(items, Mapping):
        count += leaf_fields(items)
    structural = any(k in schema for k in ("properties", "anyOf", "oneOf", "allOf", "items"))
    return count if structural else 1
