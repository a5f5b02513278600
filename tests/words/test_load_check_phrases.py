"""The Load mode's value checks as phrases: the English ``result.json`` keeps is byte for byte
what they said when they were made from English, the dock's English from the phrases is what
it showed of that English while it still read it (``shown``, recorded then), and every word
has its Chinese."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sam_plugin.compilers.evidence import Check
from sam_plugin.compilers.load import phrases as load_phrases
from sam_plugin.ui.check_words import check_row
from sam_plugin.words.phrase import Phrase, phrase, render
from tests.support.shown_checks import shown_for, shown_row

P = phrase
CONDITION = P("load.check.condition", name="Clamp")
LOAD = P("load.check.load", name="P1")
# the checks no replay of the everyday-words suite makes: (name, expected, actual, ok), and
# the English each said before phrases
CHECKS: list[tuple[tuple[Phrase, Phrase | str, Phrase | str, bool], tuple[str, str, str]]] = [
    ((P("load.check.step", name="Push"), P("check.present"), P("check.missing"), False),
     ("step Push", "present", "missing")),
    ((P("load.check.step_previous", name="Push"), "Initial", P("check.missing"), False),
     ("step Push previous", "Initial", "missing")),
    ((P("load.check.entry_kind", entry=CONDITION), P("load.kind.encastre"),
      P("load.kind.displacement"), False),
     ("boundary condition Clamp kind", "encastre", "displacement")),
    ((P("load.check.entry_kind", entry=CONDITION), P("load.kind.encastre"),
      P("load.kind.pressure"), False),
     ("boundary condition Clamp kind", "encastre", "pressure")),
    ((P("load.check.entry_kind", entry=CONDITION), P("load.kind.displacement"),
      P("load.kind.force"), False),
     ("boundary condition Clamp kind", "displacement", "force")),
    ((P("load.check.entry_members", entry=LOAD, members=P("load.members.elements")), "2",
      "-1", False), ("load P1 region elements", "2", "-1")),
    ((P("load.check.entry_value", entry=LOAD, field=P("load.field.magnitude")), "-2.5",
      P("check.missing"), False), ("load P1 magnitude", "-2.5", "missing")),
    ((P("load.check.entry_value", entry=CONDITION, field="u2"), P("load.value.free"), "0.5",
      False), ("boundary condition Clamp u2", "free", "0.5")),
    ((P("load.check.properties_unchanged"), P("load.value.unchanged"),
      P("load.value.changed"), False), ("properties unchanged", "unchanged", "changed")),
]
RECORDED = Path(__file__).parents[1] / "fixtures" / "checks" / "recorded_load_checks.json"
ROWS = json.loads(RECORDED.read_text("utf-8"))["checks"]


@pytest.mark.parametrize(("case", "english"), CHECKS)
def test_the_record_is_the_english_of_before_and_the_dock_says_the_same(
        case: tuple[Phrase, Phrase | str, Phrase | str, bool],
        english: tuple[str, str, str]) -> None:
    check = Check.said(*case)
    assert (check.name, check.expected, check.actual) == english
    assert check_row(check) == shown_for(english, check.ok)


def test_over_the_everyday_words_replays_the_checks_say_what_they_said_before() -> None:
    assert len(ROWS) > 30
    for row in ROWS:
        check = Check.model_validate(row["check"])
        assert check.name_phrase is not None, row
        before = Check.model_validate(row["before"] | {"quantity": check.quantity})
        assert check.model_dump() == before.model_dump(), row["task"]
        assert check_row(check) == shown_row(row["shown"], (before.name, before.expected,
                                                            before.actual)), row["task"]


def test_every_word_of_a_load_check_is_tried_here_and_said_in_chinese() -> None:
    tried: set[str] = set()

    def keys(value: object) -> None:
        if isinstance(value, Phrase):
            tried.add(value.key)
            for inner in value.values.values():
                keys(inner)
        elif isinstance(value, dict) and "key" in value:
            keys(Phrase.model_validate(value))

    for case, _ in CHECKS:
        for part in case:
            keys(part)
    for row in ROWS:
        for field in ("name_phrase", "expected_phrase", "actual_phrase"):
            keys(row["check"].get(field))
    words = {key for key in load_phrases.CATALOGUE
             if key.split(".")[1] in ("check", "kind", "value", "members", "field")}
    assert words - tried == set()
    assert all(render(P(key), "zh_CN") != render(P(key), "record")
               for key in words if not key.startswith("load.check."))


def test_a_load_check_in_chinese() -> None:
    name = P("load.check.entry_members", entry=P("load.check.condition", name="PIN"),
             members=P("load.members.nodes"))
    assert render(name, "zh_CN") == "边界条件 PIN 区域的节点数"
    assert render(P("load.check.entry_value", entry=LOAD, field=P("load.field.magnitude")),
                  "zh_CN") == "载荷 P1 大小"
    assert render(P("load.kind.encastre"), "zh_CN") == "固支"
