"""The repeated-key scan agrees with a parser that keeps every pair, on any JSON."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from sam.json_keys import repeated_key

_KEYS = st.sampled_from(["a", "b", "models", '" :', "{", "[x", "\\", "é"])
_SCALARS = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | \
    st.text(alphabet='ab"{}[]:,\\ é', max_size=6)


def _pairs(children: Any) -> Any:
    return st.lists(st.tuples(_KEYS, children), max_size=4)


_VALUES = st.recursive(_SCALARS, lambda children: st.lists(children, max_size=4) | _pairs(
    children).map(lambda pairs: ("object", pairs)), max_leaves=12)


def _dump(value: Any, escape: bool) -> str:
    if isinstance(value, tuple) and value and value[0] == "object":
        return "{" + ", ".join(f"{json.dumps(k, ensure_ascii=escape)} : {_dump(v, escape)}"
                               for k, v in value[1]) + "}"
    if isinstance(value, list):
        return "[" + ",".join(_dump(v, escape) for v in value) + "]"
    return json.dumps(value, ensure_ascii=escape)


def _first_repeat(text: str) -> str | None:
    found: list[str] = []

    def hook(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        keys = [k for k, _ in pairs]
        twice = [k for i, k in enumerate(keys) if k in keys[:i]]
        if twice:
            found.append(twice[0])
        return dict(pairs)

    json.loads(text, object_pairs_hook=hook)
    return found[0] if found else None


@settings(max_examples=400, deadline=None)
@given(_VALUES, st.booleans())
def test_the_scan_finds_a_repeat_exactly_when_there_is_one(value: Any, escape: bool) -> None:
    text = _dump(value, escape)
    assert (repeated_key(text.encode()) is None) == (_first_repeat(text) is None)
