"""Run files laid out for reading parse to exactly the value written, fast (readable_json)."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest

from sam_plugin.runtime.store.readable_json import readable_json

VALUES: list[Any] = [
    {}, [], "é", 3, None, True, 1.5,
    {"a": [], "b": {}, "c": [1, 2, 3], "d": [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]},
    [{"a": 1}, 2, [3, {"deep": "x"}], "s"],
    {1: "int key", 2.5: "float key", False: "bool key", None: "none key"},
    {"nested": [{"moved": list(range(50)), "to": [[float(i)] * 3 for i in range(50)]}]},
    ("tuple", [1, 2]),
]


@pytest.mark.parametrize("value", VALUES)
def test_parses_to_what_json_writes(value: Any) -> None:
    assert json.loads(readable_json(value)) == json.loads(json.dumps(value))


def test_objects_are_indented_and_scalar_lists_stay_on_one_line() -> None:
    text = readable_json({"labels": [1, 2, 3], "calls": [{"tool": "t"}]})
    assert text == ('{\n  "labels": [1, 2, 3],\n  "calls": [\n    {\n      "tool": "t"\n'
                    '    }\n  ]\n}')


def test_not_a_number_is_written_as_json_writes_it() -> None:
    assert math.isnan(json.loads(readable_json({"x": float("nan")}))["x"])


def test_a_value_json_cannot_write_is_refused_as_json_refuses_it() -> None:
    with pytest.raises(TypeError):
        readable_json({"x": object()})
    with pytest.raises(TypeError):
        readable_json({(1, 2): "tuple key"})
