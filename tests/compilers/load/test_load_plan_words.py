"""The Load plan said from its phrases: the record (``plan.json``'s English) byte for byte
the words said before phrases (``plans_before_phrases.json``, rendered by the templates
this replaced, for each case with no unit system, ``mm``, ``mm-kN-kg-ms`` and ``cm``); the
dock's English and Chinese with the model's units on each value."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sam_plugin.compilers.units import unit_system, unit_table
from sam_plugin.words.phrase import RECORD, render
from tests.compilers.load.plan_cases import CALLS, UNITS, described

BEFORE = json.loads((Path(__file__).parent / "plans_before_phrases.json")
                    .read_text(encoding="utf-8"))


@pytest.mark.parametrize("case", sorted(CALLS))
@pytest.mark.parametrize("system", sorted(UNITS))
def test_the_record_is_the_english_before_phrases(case: str, system: str) -> None:
    units = UNITS[system]
    detail = described(case, units)
    table = unit_table(units)
    before = BEFORE[f"{case}/{system}"]
    assert [[render(op.words(), RECORD, table) for op in call.operations]
            for call in detail.calls] == before["operations"]
    assert [[op.describe(units.length if units else "") for op in call.operations]
            for call in detail.calls] == before["operations"]  # the stored text, too
    assert [[render(p, RECORD, table) for p in call.note_phrases]
            for call in detail.calls] == before["notes"] == [call.notes for call in detail.calls]
    assert detail.basis_phrase is not None
    assert render(detail.basis_phrase, RECORD, table) == before["basis"] == detail.basis


def _lines(case: str, system: str, language: str) -> list[str]:
    units = unit_system(system)
    detail = described(case, units)
    return [render(op.phrase, language, unit_table(units))
            for call in detail.calls for op in call.operations if op.phrase is not None]


def test_the_dock_says_each_value_in_the_models_units_in_its_language() -> None:
    zh = _lines("pressure_and_force", "mm-kN-kg-ms", "zh_CN")
    assert zh[2] == "在集合 ELEMS（2 个单元）上施加压力 P1：-2.5 GPa（分析步 Push）"
    assert zh[4] == ("在LOAD-F1（1 个节点，由所选内容新建的集合）的每个节点上施加集中力 F1："
                     "(0, -100, 1.5) kN（分析步 Push）")
    en = _lines("conditions", "m-N-kg-s", "en")
    # a rotation is in radians: no unit system adds one
    assert en[4] == ("displace BC-Pull (1 node, a new set made from the selection) by "
                     "u1 = 0.5 m, u3 = -2 m, ur2 = 0.01 as Pull in step Push")
    assert _lines("conditions", "mm", "zh_CN")[3] == (
        "固定集合 NODES（2 个节点）的 u2, ur3，名为 Roller（分析步 Push）")


def test_the_preview_holds_each_region_acted_on_and_nothing_else() -> None:
    loads = described("pressure_and_force", None).preview
    assert loads is not None
    assert loads.acted_on == [1, 2, 3]  # P1's set ELEMS and P2's element 3
    assert loads.acted_on_nodes == list(range(1, 10))  # F2 acts on all nodes
    assert not (loads.added or loads.deleted or loads.moved or loads.moved_to)
    conditions = described("conditions", None).preview
    assert conditions is not None
    assert conditions.acted_on == [] and conditions.acted_on_nodes == [1, 2, 4, 7, 9]
    assert "acted_on" not in conditions.model_dump(exclude_none=True)  # left out when empty
    assert described("steps", None).preview is None  # no region: nothing to draw
