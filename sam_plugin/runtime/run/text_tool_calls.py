"""Tool calls a model wrote as text in its message content, recovered (docs/architecture.md §4).

Small local models often answer a tools request with the call in ``content`` and no
structured ``tool_calls``. The forms users of llama.cpp, llama-cpp-python and Ollama report
against Qwen, Gemma and Llama models, all read here:

- a fenced ```` ```json ```` block holding ``{"name": ..., "arguments": {...}}``;
- ``<tool_call>{...}</tool_call>`` blocks holding JSON (Hermes/Qwen templates);
- the XML form of coder models:
  ``<tool_call><function=NAME><parameter=KEY>VALUE</parameter>...</function></tool_call>``;
- bare ``{"name": ..., "arguments": ...}`` objects, one or several, also separated by ``;``
  (Llama 3.x), or a JSON array of them (Mistral's ``[TOOL_CALLS]``);
- ``"parameters"`` for ``"arguments"``, arguments given as a JSON string, and the OpenAI
  wire shape ``{"type": "function", "function": {"name": ..., "arguments": ...}}``.

Prose around the calls and ``<think>...</think>`` blocks are ignored. What is found here is
only a candidate: the collection step keeps the names of the module's tools, and the calls
then go through the same order, schema and compile checks as structured ones.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

# A longer answer is not a tool call written by a chatty model but something else; scanning
# is linear in practice, this bounds the pathological case (many unclosed braces).
MAX_SCANNED_CHARS = 256 * 1024

_THINK = re.compile(r"<think>.*?(?:</think>|\Z)", re.S | re.I)
_XML_FUNCTION = re.compile(
    r"<function\s*=\s*[\"']?(?P<name>[A-Za-z_][\w.-]*)[\"']?\s*>(?P<body>.*?)(?:</function>|\Z)",
    re.S,
)
_XML_PARAMETER = re.compile(
    r"<parameter\s*=\s*[\"']?(?P<key>[A-Za-z_][\w.-]*)[\"']?\s*>(?P<value>.*?)"
    r"(?=</parameter>|<parameter\s*=|\Z)(?:</parameter>)?",
    re.S,
)
_JSON_START = re.compile(r"[{\[]")
_NAME_KEYS = ("name", "tool", "tool_name")
_ARGUMENT_KEYS = ("arguments", "parameters", "args", "input")
_ENVELOPE_KEYS = frozenset({"type", "id", "index", "call_id"})


@dataclass(frozen=True)
class TextCall:
    """A call found in the content: ``arguments`` is JSON text (not validated here)."""

    name: str
    arguments: str
    offset: int  # where it starts in the content; calls are returned in this order


def find_text_calls(content: str) -> list[TextCall]:
    """Every call-shaped object in ``content``, in the order written."""
    text = _THINK.sub(lambda m: " " * len(m.group(0)), content[:MAX_SCANNED_CHARS])
    found: list[TextCall] = []
    masked = list(text)
    for match in _XML_FUNCTION.finditer(text):
        found.append(_xml_call(match))
        masked[match.start() : match.end()] = " " * (match.end() - match.start())
    found += _json_calls("".join(masked))
    return sorted(found, key=lambda call: call.offset)


def _xml_call(match: re.Match[str]) -> TextCall:
    arguments: dict[str, Any] = {}
    for parameter in _XML_PARAMETER.finditer(match.group("body")):
        arguments[parameter.group("key")] = _xml_value(parameter.group("value"))
    return TextCall(match.group("name"), _dumps(arguments), match.start())


def _xml_value(raw: str) -> Any:
    value = raw.strip("\r\n")
    try:
        return json.loads(value)
    except ValueError:
        return value.strip()


def _json_calls(text: str) -> list[TextCall]:
    decoder = json.JSONDecoder()
    calls: list[TextCall] = []
    position = 0
    while (match := _JSON_START.search(text, position)) is not None:
        start = match.start()
        try:
            value, end = decoder.raw_decode(text, start)
        except ValueError:
            position = start + 1
            continue
        calls += [TextCall(name, arguments, start) for name, arguments in _calls_in(value)]
        position = end
    return calls


def _calls_in(value: Any, depth: int = 0) -> list[tuple[str, str]]:
    """Call-shaped objects in a parsed JSON value: the value itself, or inside a wrapper."""
    if depth > 8:
        return []
    if isinstance(value, list):
        return [call for item in value for call in _calls_in(item, depth + 1)]
    if not isinstance(value, dict):
        return []
    call = _as_call(value)
    if call is not None:
        return [call]
    return [call for item in value.values() for call in _calls_in(item, depth + 1)]


def _as_call(value: dict[str, Any]) -> tuple[str, str] | None:
    function = value.get("function")
    if isinstance(function, dict):
        return _as_call(function)
    name = next((value[k] for k in _NAME_KEYS if isinstance(value.get(k), str)), None)
    if not name or not name.strip():
        return None
    argument_key = next((k for k in _ARGUMENT_KEYS if k in value), None)
    if argument_key is None:
        # {"name": "audit_mesh"} is a call without arguments; {"name": "Steel", "E": 210e3}
        # is a material, not a call
        extra = set(value) - set(_NAME_KEYS) - _ENVELOPE_KEYS
        return (name.strip(), "{}") if not extra else None
    arguments = value[argument_key]
    if isinstance(arguments, str):
        return name.strip(), arguments  # JSON text (or not: the compiler says so)
    if isinstance(arguments, dict):
        return name.strip(), _dumps(arguments)
    if arguments is None:
        return name.strip(), "{}"
    return None


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)
