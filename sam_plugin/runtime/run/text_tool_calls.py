"""A tool call a model wrote as text in its message content, recovered only when it is the
whole answer (docs/architecture.md §4 "Text-recovered calls").

Small local models often answer a tools request with the call in ``content`` and no
structured ``tool_calls``. The answer, once leading ``<think>...</think>`` blocks are set
aside, must be exactly one of:

- one fenced block (```` ```json ```` or ```` ``` ````) holding the call object;
- one ``<tool_call>...</tool_call>`` block holding the call object, or the XML form of coder
  models: ``<function=NAME><parameter=KEY>VALUE</parameter>...</function>``;
- one bare call object, the entire content (also after the ``<|python_tag|>`` of Llama 3.x,
  or as the one-element array after Mistral's ``[TOOL_CALLS]``).

The call object is ``{"name": ..., "arguments": {...}}``, with ``"parameters"`` for
``"arguments"``, arguments given as a JSON string, or the OpenAI wire shape ``{"type":
"function", "function": {...}}``. Anything call-shaped anywhere else (inside prose, quoted, in
``<think>``, nested in another object, a second call) is never a call: a negated example, an
echoed set name holding ``<tool_call>`` or a "template reminder" once ran delete-all.
:func:`stray_call_text` tells such an answer apart, so that the round is refused in words.
What is found here is only a candidate: the call then goes through the same order, schema,
spec binding and compile checks as a structured one.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

# A longer answer is not a tool call written by a chatty model but something else.
MAX_SCANNED_CHARS = 256 * 1024

_LEADING_THINK = re.compile(r"\A\s*<think>.*?(?:</think>|\Z)", re.S | re.I)
_FENCE = re.compile(r"\A```[A-Za-z0-9_+-]*[ \t]*\r?\n(?P<body>.*?)\r?\n?```\Z", re.S)
_TOOL_CALL = re.compile(r"\A<tool_call>(?P<body>.*)</tool_call>\Z", re.S)
_XML_FUNCTION = re.compile(
    r"\A<function\s*=\s*[\"']?(?P<name>[A-Za-z_][\w.-]*)[\"']?\s*>(?P<body>.*)</function>\Z",
    re.S,
)
_XML_PARAMETER = re.compile(
    r"\s*<parameter\s*=\s*[\"']?(?P<key>[A-Za-z_][\w.-]*)[\"']?\s*>(?P<value>.*?)"
    r"</parameter>\s*",
    re.S,
)
_PREFIXES = ("<|python_tag|>", "[TOOL_CALLS]")
# call-shaped text anywhere (for the refusal's words only; never taken)
_CALL_SHAPED = re.compile(r"<tool_call>|<function\s*=|\"(?:name|tool|tool_name)\"\s*:", re.I)
_NAME_KEYS = ("name", "tool", "tool_name")
_ARGUMENT_KEYS = ("arguments", "parameters", "args", "input")
_ENVELOPE_KEYS = frozenset({"type", "id", "index", "call_id"})


@dataclass(frozen=True)
class TextCall:
    """A call found in the content: ``arguments`` is JSON text (not validated here)."""

    name: str
    arguments: str
    offset: int  # where the answer starts in the content (after any thinking)


def find_text_calls(content: str) -> list[TextCall]:
    """The call the whole answer is, as a one-element list; ``[]`` when it is not one."""
    if len(content) > MAX_SCANNED_CHARS:
        return []
    text = _after_thinking(content)
    answer = text.strip()
    call = _whole_call(answer) if answer else None
    if call is None:
        return []
    return [TextCall(call[0], call[1], len(content) - len(text.lstrip()))]


def stray_call_text(content: str) -> bool:
    """Whether ``content`` holds call-shaped text although it is no whole-answer call (and is
    not one whose JSON merely fails to parse, a cut-off answer: that is no call at all)."""
    if _CALL_SHAPED.search(content[:MAX_SCANNED_CHARS]) is None or find_text_calls(content):
        return False
    return not _unparsable_attempt(_after_thinking(content).strip())


def _after_thinking(content: str) -> str:
    text = content
    while (thought := _LEADING_THINK.match(text)) is not None:
        text = text[thought.end():]
    return text


def _unparsable_attempt(answer: str) -> bool:
    """An answer in one of the whole-answer forms whose JSON does not parse (cut off)."""
    body = answer
    if body.startswith("```"):
        body = body.partition("\n")[2].rstrip().removesuffix("```")
    body = body.removeprefix("<tool_call>").strip().removesuffix("</tool_call>")
    for prefix in _PREFIXES:
        body = body.removeprefix(prefix)
    body = body.strip()
    if not body.startswith(("{", "[")):
        return False
    try:
        json.loads(body)
    except (ValueError, RecursionError):
        return True
    return False


def _whole_call(answer: str) -> tuple[str, str] | None:
    fenced = _FENCE.match(answer)
    if fenced is not None:
        body = fenced.group("body").strip()
        return None if "```" in body else _block_call(body)
    return _block_call(answer)


def _block_call(text: str) -> tuple[str, str] | None:
    block = _TOOL_CALL.match(text)
    if block is not None:
        body = block.group("body").strip()
        if "<tool_call>" in body or "</tool_call>" in body:
            return None  # two blocks, not one
        function = _XML_FUNCTION.match(body)
        return _xml_call(function) if function is not None else _object_call(body)
    for prefix in _PREFIXES:
        if text.startswith(prefix):
            return _object_call(text[len(prefix):].strip(), one_element_array=True)
    return _object_call(text)


def _object_call(text: str, *, one_element_array: bool = False) -> tuple[str, str] | None:
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return None
    if one_element_array and isinstance(value, list) and len(value) == 1:
        value = value[0]
    return _as_call(value) if isinstance(value, dict) else None


def _xml_call(match: re.Match[str]) -> tuple[str, str] | None:
    body = match.group("body")
    arguments: dict[str, Any] = {}
    position = 0
    while position < len(body):
        parameter = _XML_PARAMETER.match(body, position)
        if parameter is None:
            return None if body[position:].strip() else _named(match, arguments)
        arguments[parameter.group("key")] = _xml_value(parameter.group("value"))
        position = parameter.end()
    return _named(match, arguments)


def _named(match: re.Match[str], arguments: dict[str, Any]) -> tuple[str, str]:
    return match.group("name"), _dumps(arguments)


def _xml_value(raw: str) -> Any:
    value = raw.strip("\r\n")
    try:
        return json.loads(value)
    except ValueError:
        return value.strip()


def _as_call(value: dict[str, Any]) -> tuple[str, str] | None:
    """The call a top-level object is (its own name and arguments), never one nested in it."""
    function = value.get("function")
    if isinstance(function, dict) and set(value) <= _ENVELOPE_KEYS | {"function"}:
        return _as_call(function)
    name = next((value[k] for k in _NAME_KEYS if isinstance(value.get(k), str)), None)
    if not name or not name.strip():
        return None
    argument_key = next((k for k in _ARGUMENT_KEYS if k in value), None)
    extra = set(value) - set(_NAME_KEYS) - _ENVELOPE_KEYS - {argument_key}
    if extra:
        # {"name": "Steel", "E": 210e3} is a material, not a call; nor is an object that
        # carries other fields beside a call's
        return None
    if argument_key is None:
        return name.strip(), "{}"  # {"name": "audit_mesh"}: a call without arguments
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
