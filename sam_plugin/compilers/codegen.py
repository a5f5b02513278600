"""Turn validated values into Python literals and helper calls; never splice text.

``literal`` only accepts plain data (None, bool, int, finite float, str, tuples/lists and
dicts of those) and returns its ``repr``; a string can therefore only ever become a quoted
string literal in the script, whatever quotes, newlines or code it holds.
"""

from __future__ import annotations

import math
import pprint
from collections.abc import Mapping, Sequence
from typing import Any

_WIDTH = 96


def literal(value: Any, indent: int = 0) -> str:
    """The ``repr`` of a plain value, wrapped (``pprint``) to fit lines of the script."""
    check_plain(value)
    text = pprint.pformat(_freeze(value), width=_WIDTH - indent, sort_dicts=False)
    return text.replace("\n", "\n" + " " * indent)


def _freeze(value: Any) -> Any:
    if isinstance(value, list | tuple):
        return tuple(_freeze(v) for v in value)
    if isinstance(value, Mapping):
        return {k: _freeze(v) for k, v in value.items()}
    return value


def check_plain(value: Any) -> None:
    if value is None or isinstance(value, bool | int | str):
        return
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError("a script literal must be finite")
        return
    if isinstance(value, list | tuple):
        for item in value:
            check_plain(item)
        return
    if isinstance(value, Mapping):
        for key, item in value.items():
            if not isinstance(key, str):
                raise TypeError(f"a script literal dict needs str keys, got {key!r}")
            check_plain(item)
        return
    raise TypeError(f"{type(value).__name__} cannot enter a script as a literal")


def call(function: str, args: Sequence[str] = (), kwargs: Mapping[str, Any] | None = None,
         *, literal_args: Sequence[Any] = (), tail_args: Sequence[str] = ()) -> str:
    """``function(name, ..., <literal>, ..., name, key=<literal>)``.

    ``args`` and ``tail_args`` are names the compiler chose; everything else is a literal.
    """
    pieces = list(args) + [literal(a, 4) for a in literal_args] + list(tail_args)
    for key, value in (kwargs or {}).items():
        pieces.append(f"{key}={literal(value, 5 + len(key))}")
    if len(pieces) <= 2 and sum(len(p) for p in pieces) < 70:
        return f"{function}({', '.join(pieces)})\n"
    body = "".join(f"    {p},\n" for p in pieces)
    return f"{function}(\n{body})\n"


PART = "_model.parts[_part_name]"
