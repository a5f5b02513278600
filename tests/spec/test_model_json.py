"""JSON a model is shown: every number is one a grammar lets it copy back, and nothing else
differs from the compact ``json.dumps`` the prompts always carried."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sam_plugin.compilers.spec.model_json import model_json

# llama.cpp's JSON number (common/json-schema-to-grammar): an exponent never starts with 0
_GRAMMAR_NUMBER = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?[1-9]\d*)?")

_scalars = st.one_of(st.none(), st.booleans(), st.integers(),
                     st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=8))
_json = st.recursive(_scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=6), inner, max_size=4)),
    max_leaves=20)


@given(_json)
def test_reads_back_as_the_same_value(value: Any) -> None:
    assert json.loads(model_json(value)) == value


@given(st.floats(allow_nan=False, allow_infinity=False))
def test_every_number_is_one_a_grammar_can_copy(number: float) -> None:
    written = model_json(number)
    assert _GRAMMAR_NUMBER.fullmatch(written), written
    assert float(written) == number


@given(_json)
def test_only_exponents_differ_from_compact_json(value: Any) -> None:
    compact = json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    if "e-0" not in compact and "e+" not in compact:
        assert model_json(value) == compact


def test_the_density_a_model_copies_is_the_density() -> None:
    shown = model_json({"materials": [{"name": "Steel", "density": 7.85e-09, "E": 210000.0}],
                        "名字": "钢", 1: True})
    assert shown == ('{"materials":[{"name":"Steel","density":7.85e-9,"E":210000.0}],'
                     '"名字":"钢","1":true}')


def test_a_key_json_cannot_write_is_refused_as_json_refuses_it() -> None:
    with pytest.raises(TypeError):
        model_json({(1, 2): "tuple key"})
