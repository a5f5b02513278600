"""Every phrase the plan's words use is in every catalogue language: the record (the English
``plan.json`` keeps), the dock's English and its Chinese (a missing key is listed here)."""

from __future__ import annotations

import pytest

from sam_plugin.compilers.registry import MODES, get_module
from sam_plugin.words.phrase import LANGUAGES, missing, registered


@pytest.fixture(scope="module", autouse=True)
def _every_domain() -> None:
    for mode in MODES:
        get_module(mode)


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_phrase_key_is_missing_in(language: str) -> None:
    product = [key for key in registered() if not key.startswith("test.")]
    assert missing(language, product) == []


def test_every_domain_words_its_steps_and_its_tools() -> None:
    keys = set(registered())
    for mode in MODES:
        assert f"{mode}.step" in keys
        assert any(key.startswith(f"{mode}.") and key != f"{mode}.step" for key in keys)
    assert {key for key in keys if key.startswith("tool.")}
