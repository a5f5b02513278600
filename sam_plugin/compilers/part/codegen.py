"""Turn validated values into Python literals and helper calls; never splice text.

``literal`` only accepts plain data (None, bool, int, finite float, str, tuples/lists and
dicts of those) and returns its ``repr``; a string can therefore only ever become a quoted
string literal in the script, whatever quotes, newlines or code it holds.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any


def literal(value: Any) -> str:
    _check_plain(value)
    return repr(_freeze(value))


def _freeze(value: Any) -> Any:
    if isinstance(value, list | tuple):
        return tuple(_freeze(v) for v in value)
    if isinstance(value, Mapping):
        return {k: _freeze(v) for k, v in value.items()}
    return value


def _check_plain(value: Any) -> None:
    if value is None or isinstance(value, bool | int | str):
        return
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError("a script literal must be finite")
        return
    if isinstance(value, list | tuple):
        for item in value:
            _check_plain(item)
        return
    if isinstance(value, Mapping):
        for key, item in value.items():
            if not isinstance(key, str):
                raise TypeError(f"a script literal dict needs str keys, got {key!r}")
            _check_plain(item)
        return
    raise TypeError(f"{type(value).__name__} cannot enter a script as a literal")


def call(function: str, args: Sequence[str] = (), kwargs: Mapping[str, Any] | None = None,
         *, literal_args: Sequence[Any] = ()) -> str:
    """``function(arg, ..., key=<literal>, ...)``; ``args`` are trusted names, others literals."""
    pieces = list(args) + [literal(a) for a in literal_args]
    for key, value in (kwargs or {}).items():
        pieces.append(f"{key}={literal(value)}")
    if len(pieces) <= 2 and sum(len(p) for p in pieces) < 70:
        return f"{function}({', '.join(pieces)})\n"
    body = "".join(f"    {p},\n" for p in pieces)
    return f"{function}(\n{body})\n"


PART = "_model.parts[_part_name]"
