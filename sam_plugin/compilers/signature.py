"""A tool's arguments in one compact line per shape, for prompts that show no JSON Schema.

A constrained round on llama.cpp or Ollama sends no ``tools`` (runtime/provider/constraint.py):
the server's grammar holds the answer to the schema, and the model reads what the call is for
in words. The full schema of ``transform_part`` is about 3,000 prompt tokens, minutes of
prompt processing per round for a small CPU model; its signature is a few hundred:

    {"operations": [{"op": "translate", "vector": [x, y, z], "selection"?: Selector} | ...]}
    Selector: {"by": "all"} | {"by": "labels", "labels": [integer, ...]} | ...

``?`` marks an optional field. A union of objects told apart by ``"by"`` is the Selector of
docs/architecture.md §4, written once below the line that uses it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

SELECTOR = "Selector"


def signature(schema: Mapping[str, Any]) -> str:
    """``schema`` (a tool's parameters) as compact text: the arguments, then the Selector."""
    named: dict[str, str] = {}
    line = _render(schema, named)
    extra = [f"{name}: {text}" for name, text in named.items()]
    return "\n".join([line, *extra])


def _render(schema: Mapping[str, Any], named: dict[str, str]) -> str:
    if "const" in schema:
        return json.dumps(schema["const"])
    if "enum" in schema:
        return " | ".join(json.dumps(v) for v in schema["enum"])
    variants = schema.get("anyOf") or schema.get("oneOf")
    if variants:
        if _is_selector(variants):
            if SELECTOR not in named:
                named[SELECTOR] = ""  # reserve the name first: variants may nest it
                named[SELECTOR] = " | ".join(_render(v, named) for v in variants)
            return SELECTOR
        return " | ".join(_render(v, named) for v in variants)
    kind = schema.get("type")
    if kind == "object" or "properties" in schema:
        required = set(schema.get("required") or ())
        fields = [f"{json.dumps(key)}{'' if key in required else '?'}: {_render(sub, named)}"
                  for key, sub in (schema.get("properties") or {}).items()]
        return "{" + ", ".join(fields) + "}"
    if kind == "array":
        items = schema.get("items") or {}
        if (schema.get("minItems") == schema.get("maxItems") == 3
                and items.get("type") == "number"):
            return "[x, y, z]"
        if schema.get("minItems") == schema.get("maxItems") == 2:
            inner = _render(items, named)
            return f"[{inner}, {inner}]"
        return f"[{_render(items, named)}, ...]"
    if isinstance(kind, list):
        return " | ".join(str(k) for k in kind)
    return str(kind or "value")


def _is_selector(variants: list[Any]) -> bool:
    return all(isinstance(v, Mapping) and "const" in ((v.get("properties") or {}).get("by") or {})
               for v in variants)
