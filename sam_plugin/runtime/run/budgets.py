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


def design_tokens(settings: ProviderSettings) -> int:
    return settings.design_max_tokens or settings.capabilities.design_tokens


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
