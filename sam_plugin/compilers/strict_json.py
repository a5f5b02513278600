"""Tool arguments parsed strictly: a key twice in one object, NaN or Infinity are errors.

``json.loads`` lets the last of two equal keys win silently; in a tool call that is never what
the model meant (``{"labels": [2], ..., "labels": "all"}`` must not delete everything), so a
repeated key is refused and named.
"""

from __future__ import annotations

import json
from typing import Any

from sam_plugin.compilers.protocol import quote
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
