"""Checks on a collected call's arguments at the tool-call layer (the layers of
docs/architecture.md §7: the call itself is malformed), before anything is compiled or written.

- a size budget (``max_argument_bytes``): a huge call is refused before any parse;
- the API key: a call whose arguments hold the key (or a run of it) is refused, with a
  message that does not repeat it, so no artifact, script or saved workspace ever holds it;
  the raw text is checked, and every decoded string at every depth (a key hidden behind
  JSON escapes);
- strict JSON: text that is not one JSON object, or an object with a key twice.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sam_plugin.compilers import strict_json
from sam_plugin.errors import CollectionViolation
from sam_plugin.runtime.store.scrubber import Scrubber

_HOLDS_KEY = ("tool {tool}: the arguments contain the API key (or part of it); the call is "
              "refused and none of it is written")
_JSON_TYPES = {list: "an array", str: "a string", int: "a number", float: "a number",
               bool: "a boolean", type(None): "null"}


def check_calls(calls: Sequence[Any], *, scrubber: Scrubber, max_bytes: int) -> None:
    """Raise :class:`CollectionViolation` for the first call whose arguments are refused.

    ``calls`` are provider ``ToolCall``s (``.name``, ``.arguments`` as text)."""
    for call in calls:
        check_arguments(call.name, call.arguments, scrubber=scrubber, max_bytes=max_bytes)


def check_arguments(tool: str, arguments: str, *, scrubber: Scrubber, max_bytes: int) -> None:
    size = len(arguments.encode("utf-8", "surrogatepass"))
    if size > max_bytes:
        raise CollectionViolation(
            f"tool {tool}: the arguments are {size} bytes, over the budget of {max_bytes} "
            "bytes (setting max_argument_bytes); nothing was compiled. Describe regular "
            "meshes with patches and lines instead of listing every node"
        )
    if scrubber.contains(arguments):
        raise CollectionViolation(_HOLDS_KEY.format(tool=tool))
    try:
        value = strict_json.loads(arguments.strip() or "{}")
    except RecursionError:
        raise CollectionViolation(
            f"tool {tool}: the arguments are nested too deeply to be a tool call"
        ) from None
    except strict_json.StrictJSONError as error:
        found = f"are not valid JSON ({error})" if error.syntax else f"are refused: {error}"
        raise CollectionViolation(
            f"tool {tool}: the arguments {found}; send the call again as one JSON object"
        ) from None
    if scrubber.holds(value):  # hidden in the raw text behind \u escapes, seen decoded
        raise CollectionViolation(_HOLDS_KEY.format(tool=tool))
    if not isinstance(value, dict):
        kind = _JSON_TYPES.get(type(value), type(value).__name__)
        raise CollectionViolation(
            f"tool {tool}: the arguments must be one JSON object, got {kind}"
        )
