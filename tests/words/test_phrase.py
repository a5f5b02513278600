"""A phrase is a key plus values, rendered in a language with a unit system at the edge
(sam_plugin/words/phrase.py); the leaf imports nothing of the product."""

from __future__ import annotations

import pytest

from sam_plugin.words.phrase import (
    RECORD,
    Measure,
    Phrase,
    missing,
    phrase,
    recorded,
    register,
    render,
)

register({
    "test.move": {"record": "translate by {vector}, {which}", "en": "move {which} by {vector}",
                  "zh_CN": "将{which}平移 {vector}"},
    "test.nodes": {"record": ("1 node", "{count} nodes"), "zh_CN": ("1 个节点", "{count} 个节点")},
    "test.list": {"record": "{items|; }", "en": "{items}"},
    "test.fixed": {"record": "a fixed test line", "en": "a fixed test line"},
})
MOVE = phrase("test.move", vector=Measure(said="(5, 0, 0)", quantity="length"),
              which=phrase("test.nodes", count=3))


def test_a_value_says_its_unit_only_when_rendered_with_a_unit_system() -> None:
    assert render(MOVE) == "translate by (5, 0, 0), 3 nodes"
    assert render(MOVE, RECORD, {"length": "mm"}) == "translate by (5, 0, 0) mm, 3 nodes"
    assert render(MOVE, "zh_CN", {"length": "m"}) == "将3 个节点平移 (5, 0, 0) m"
    assert render(MOVE, "en", {"stress": "MPa"}) == "move 3 nodes by (5, 0, 0)"


def test_one_and_many_are_chosen_by_the_count() -> None:
    assert render(phrase("test.nodes", count=1)) == "1 node"
    assert render(phrase("test.nodes", count=0)) == "0 nodes"
    assert render(phrase("test.nodes", count=1), "zh_CN") == "1 个节点"


def test_a_list_is_joined_by_its_template_or_the_language_separator() -> None:
    items = [phrase("test.nodes", count=1), phrase("test.nodes", count=2)]
    assert render(phrase("test.list", items=items)) == "1 node; 2 nodes"
    assert render(phrase("test.list", items=items), "en") == "1 node, 2 nodes"


def test_a_language_without_a_template_falls_back_to_english_then_the_record() -> None:
    assert render(phrase("test.nodes", count=2), "en") == "2 nodes"
    assert "test.nodes" in missing("en") and "test.nodes" not in missing("zh_CN")


def test_a_phrase_survives_json_as_plan_json_keeps_it() -> None:
    again = Phrase.model_validate_json(MOVE.model_dump_json())
    assert again == MOVE and render(again, "en") == render(MOVE, "en")


def test_an_unknown_key_or_a_key_owned_twice_is_refused() -> None:
    with pytest.raises(KeyError, match="test.nobody"):
        render(phrase("test.nobody"))
    with pytest.raises(ValueError, match="test.move"):
        register({"test.move": {"record": "other"}})


def test_a_fixed_line_of_stored_english_is_found_exactly_and_only_exactly() -> None:
    assert recorded("a fixed test line") == Phrase(key="test.fixed")
    assert recorded("a fixed test line ") is None
    assert recorded("translate by (5, 0, 0), 3 nodes") is None  # a line with values
