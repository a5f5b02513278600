"""Turn validated values into Python literals and helper calls; never splice text.

``literal`` only accepts plain data (None, bool, int, finite float, str — exactly those
types, no subclasses — and tuples/lists and dicts of those) and returns its ``repr``; a string
can therefore only ever become a quoted string literal in the script, whatever quotes,
newlines or code it holds.
"""

from __future__ import annotations

import hashlib
import json
import math
import pprint
from collections.abc import Mapping, Sequence
from typing import Any

_WIDTH = 96


def literal(value: Any, indent: int = 0) -> str:
    """The ``repr`` of a plain value, wrapped (``pprint``) to fit lines of the script."""
    text = pprint.pformat(_plain(value, tuples=True), width=_WIDTH - indent, sort_dicts=False)
    return text.replace("\n", "\n" + " " * indent)


def plain_literal(value: Any) -> str:
    """The one-line ``repr`` of a plain value; lists stay lists (``[...]``)."""
    return repr(_plain(value, tuples=False))


def variable(tool: str, normalized: Mapping[str, Any]) -> str:
    """A script variable unique to this call (same call, same name: scripts stay stable)."""
    digest = hashlib.sha256(json.dumps(normalized, sort_keys=True).encode()).hexdigest()[:8]
    return f"_{tool}_{digest}"


def check_plain(value: Any) -> None:
    """Raise unless ``value`` is plain data whose ``repr`` is a Python literal."""
    _plain(value, tuples=False)


def _plain(value: Any, *, tuples: bool) -> Any:
    """A checked copy of ``value`` built from exact builtin types only.

    Exact scalar types, not ``isinstance``: a subclass of ``str``/``int``/``float`` can
    override ``__repr__`` and so put any code into the script. Containers (subclasses too) are
    rebuilt as builtin ones, so the ``repr`` that reaches the script is always the builtin one.
    """
    kind = type(value)
    if value is None or kind in (bool, int, str):
        return value
    if kind is float:
        if not math.isfinite(value):
            raise ValueError("a script literal must be finite")
        return value
    if isinstance(value, list | tuple):
        items = [_plain(item, tuples=tuples) for item in value]
        return tuple(items) if tuples or isinstance(value, tuple) else items
    if isinstance(value, Mapping):
        out = {}
        for key, item in value.items():
            if type(key) is not str:
                raise TypeError(f"a script literal dict needs str keys, got {key!r}")
            out[key] = _plain(item, tuples=tuples)
        return out
    raise TypeError(f"{kind.__name__} cannot enter a script as a literal")


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
