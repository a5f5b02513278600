"""A collection round held to its tool's schema, the way each server can do it
(docs/architecture.md §6 "Requests").

The plugin knows which tool comes next (the canonical order), so a constrained round asks
for exactly that one:

- ``wrapped`` (llama.cpp): no ``tools``, and a ``response_format`` whose schema is the call
  itself, ``{"name": <the tool>, "arguments": <its parameters>}``: llama.cpp applies a
  response format's grammar from the first token, while ``tool_choice: "required"`` still
  lets content come before the call (measured on build b11434 with Qwen2.5-Coder 0.5B: 60
  tokens of prose and no call). The tool's schema in ``tools`` would cost up to 3,000 prompt
  tokens a round (minutes on a CPU); the round's message says what the tool does and its
  arguments' signature instead (compilers/signature.py; small models do better prompted
  than with native function calling: BFCL, Llama-3.1-8B 50.7 against 27.6). The call is read
  from the content;
- ``format`` (Ollama): no ``tools`` (``format`` and ``tools`` conflict there); the tool's
  arguments schema as ``response_format`` (Ollama's OpenAI layer sends it as ``format``), the
  arguments read from the content;
- ``named`` (vLLM, hosted OpenAI): the tool with a named ``tool_choice``, which both hold to
  the schema (vLLM through structured outputs, OpenAI with strict schemas);
- ``none`` (DeepSeek, generic): the request as before.

Schemas go in the grammar subset (compilers/grammar_schema.py). Every check of ours stays.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, get_args

from sam_plugin.compilers import strict_json
from sam_plugin.compilers.grammar_schema import SPEC_UNROLLED_ITEMS, grammar_schema
from sam_plugin.errors import StrictJSONError
from sam_plugin.runtime.config.settings import Constraint, SpecFormat
from sam_plugin.runtime.provider.types import RequestOptions

CONSTRAINTS: tuple[Constraint, ...] = get_args(Constraint)

_FENCE = re.compile(r"^```(?:json)?\s*(.*?)\s*```$", re.S)


@dataclass(frozen=True)
class RoundShape:
    """How one collection round asks: its ``tools`` and request options, and how its answer
    is read (``constraint``; ``tool`` is the one tool a constrained round asks for)."""

    tools: list[dict[str, Any]] | None
    options: RequestOptions
    constraint: Constraint = "none"
    tool: str = ""

    @property
    def constrained(self) -> bool:
        return self.constraint != "none"

    @property
    def reads_content(self) -> bool:
        return self.constraint in ("wrapped", "format")


def round_shape(definitions: Sequence[dict[str, Any]], constraint: Constraint, *,
                max_tokens: int | None) -> RoundShape:
    """The shape of a round offering ``definitions`` (OpenAI tool entries); only a round of
    one tool is constrained."""
    tools = [dict(d) for d in definitions]
    if constraint == "none" or len(tools) != 1:
        return RoundShape(tools or None, RequestOptions(max_tokens=max_tokens))
    function = tools[0]["function"]
    name = str(function["name"])
    params = grammar_schema(function.get("parameters") or {"type": "object"})
    if constraint == "named":
        choice = {"type": "function", "function": {"name": name}}
        return RoundShape(tools, RequestOptions(tool_choice=choice, max_tokens=max_tokens),
                          "named", name)
    if constraint == "wrapped":
        schema = {"type": "object",
                  "properties": {"name": {"const": name}, "arguments": params},
                  "required": ["name", "arguments"], "additionalProperties": False}
        return RoundShape(None, RequestOptions(response_format=_format(name, schema),
                                               max_tokens=max_tokens), "wrapped", name)
    return RoundShape(None, RequestOptions(response_format=_format(name, params),
                                           max_tokens=max_tokens), "format", name)


def unconstrained(shape: RoundShape, definitions: Sequence[dict[str, Any]]) -> RoundShape:
    """The same round asked the way it was before constraints (the retry of a refused or
    broken constrained request)."""
    return RoundShape([dict(d) for d in definitions] or None,
                      RequestOptions(max_tokens=shape.options.max_tokens))


def content_arguments(content: str, shape: RoundShape) -> str | None:
    """The call's arguments (JSON text) in a constrained answer's content, or None when the
    content is not what the constraint asked for (the server broke it, or ignored it).
    Raises ``StrictJSONError`` for a key twice or a non-finite number: the model's mistake,
    which a repair round names."""
    text = content.strip()
    fenced = _FENCE.match(text)
    if fenced:
        text = fenced.group(1)
    try:
        value = strict_json.loads(text)
    except StrictJSONError as error:
        if not error.syntax:
            raise
        return None
    except (ValueError, RecursionError):
        return None
    if shape.constraint == "format":
        return text if isinstance(value, dict) else None
    if shape.constraint == "wrapped":
        if not (isinstance(value, dict) and value.get("name") == shape.tool
                and isinstance(value.get("arguments"), dict) and len(value) == 2):
            return None
        value = value["arguments"]
    if not isinstance(value, dict):
        return None
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))  # strict: no loss


def spec_response_format(schema: dict[str, Any], spec_format: SpecFormat
                         ) -> dict[str, Any] | None:
    """The design request's ``response_format`` for the spec's JSON Schema (already in the
    grammar subset: ``runtime/run/design.py`` holds it to the observed part), as the profile
    can take it; None where it takes none."""
    if spec_format == "json_schema":
        return _format("spec", grammar_schema(schema, max_unrolled=SPEC_UNROLLED_ITEMS))
    if spec_format == "json_object":
        return {"type": "json_object"}
    return None


def _format(name: str, schema: dict[str, Any]) -> dict[str, Any]:
    return {"type": "json_schema", "json_schema": {"name": name, "schema": schema}}
