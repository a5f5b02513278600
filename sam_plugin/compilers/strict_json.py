"""Tool arguments parsed strictly: a key twice in one object, NaN or Infinity are errors.

``json.loads`` lets the last of two equal keys win silently; in a tool call that is never what
the model meant (``{"labels": [2], ..., "labels": "all"}`` must not delete everything), so a
repeated key is refused and named.
"""

from __future__ import annotations

import json
import math
from typing import Any

from sam_plugin.compilers.protocol import quote
from sam_plugin.compilers.spec.problem import SpecProblem
from sam_plugin.errors import StrictJSONError as StrictJSONError


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise StrictJSONError(
                f"the key {quote(key)} appears twice in one object; each key may appear once "
                "(send the object again with one value for it)"
            )
        out[key] = value
    return out


def _reject_constant(token: str) -> float:
    raise StrictJSONError(f"{token} is not a finite number; JSON numbers must be finite")


def loads(text: str) -> Any:
    """The value of ``text``; raises :class:`StrictJSONError` (or ``RecursionError`` for
    absurd nesting, which callers report as such)."""
    try:
        return json.loads(text, object_pairs_hook=_unique_keys, parse_constant=_reject_constant)
    except StrictJSONError:
        raise
    except ValueError as error:
        raise StrictJSONError(str(error), syntax=True) from None


# -- what a person or an agent types (a --spec file, the dock's JSON edit) ------------------

MAX_DEPTH = 64  # deeper than any spec or tool IR object nests
NESTED = f"nested deeper than {MAX_DEPTH} levels; nothing was read"


def loads_typed(text: str) -> Any:
    """``text`` read as :func:`loads` does, then held to what typed JSON may be
    (:func:`check_typed`); every refusal is one :class:`StrictJSONError` line."""
    try:
        value = loads(text)
    except RecursionError:
        raise StrictJSONError(NESTED) from None
    check_typed(value)
    return value


def check_typed(value: Any) -> None:
    """Nesting at most :data:`MAX_DEPTH` levels, every string and key whole Unicode (a lone
    surrogate is no character: it cannot be written as UTF-8), every number finite."""
    _walk(value, "", 0)


def _walk(value: Any, path: str, depth: int) -> None:
    if depth > MAX_DEPTH:
        raise StrictJSONError(NESTED)
    if isinstance(value, str):
        _whole(value, path)
    elif isinstance(value, dict):
        for key, item in value.items():
            _whole(str(key), f"{path}.{key}" if path else str(key), as_key=True)
            _walk(item, f"{path}.{key}" if path else str(key), depth + 1)
    elif isinstance(value, list | tuple):
        for index, item in enumerate(value):
            _walk(item, f"{path}[{index}]", depth + 1)
    elif isinstance(value, float) and not math.isfinite(value):
        words = f"{value} is not a finite number; JSON numbers must be finite"
        raise StrictJSONError(SpecProblem(path, words) if path else f"the value: {words}")


def _whole(text: str, path: str, *, as_key: bool = False) -> None:
    lone = next((char for char in text if 0xD800 <= ord(char) <= 0xDFFF), None)
    if lone is None:
        return
    where = f"the key {path}" if as_key else (path or "the text")
    raise StrictJSONError(f"{where} holds a lone surrogate (\\u{ord(lone):04x}), which is no "
                          "character; write the text as UTF-8")
