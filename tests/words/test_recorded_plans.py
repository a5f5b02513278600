"""The plans of every eval task, said from their phrases, are byte for byte the words said
before phrases: ``plan.json``'s English (``Plan.text()``, what the CLI and MCP show) and the
dock's lines in English and Chinese.

``recorded_plans.json`` holds each plan (its ``plan.json`` with the phrases, the preview left
out) of a replay of eval/suite and eval/suite-words on their cassette sets, two of them with
a unit system (``mm-kN-kg-ms``, ``mm``), beside the words the code before phrases made for
the same run: its text, and the dock's lines, English and Chinese. The Chinese lines that
were English before (the warnings of a request said not to change, of a part left empty, of
a step's counts, and the counts the spec expects) are the catalogue's Chinese now, read and
kept here.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from sam_plugin.compilers.plan import Plan

RECORDED = json.loads((Path(__file__).parents[1] / "fixtures" / "plans" /
                       "recorded_plans.json").read_text(encoding="utf-8"))


def _plan(name: str) -> Plan:
    return Plan.model_validate(RECORDED[name]["plan"])


@pytest.mark.parametrize("name", sorted(RECORDED))
def test_the_record_said_from_phrases_is_the_english_before_phrases(name: str) -> None:
    plan = _plan(name)
    assert plan.text() == RECORDED[name]["text"]


def test_the_recorded_plans_carry_phrases() -> None:
    """The comparison above renders phrases, not the stored English."""
    plans = [_plan(name) for name in RECORDED]
    assert all(op.phrase is not None for plan in plans for call in plan.calls
               for op in call.operations)
    assert all(len(plan.destructive_phrases) == len(plan.destructive) for plan in plans)
    assert all(len(plan.warning_phrases) == len(plan.warnings) for plan in plans)
    assert any(plan.units for plan in plans) and any(plan.destructive for plan in plans)


@pytest.mark.parametrize("name", sorted(RECORDED))
def test_the_dock_says_a_plan_from_its_phrases_as_before(qapp: Any, name: str) -> None:
    from sam_plugin.ui import i18n
    from sam_plugin.ui.plan_text import worded_lines

    plan = _plan(name)
    assert [list(line) for line in worded_lines(plan)] == RECORDED[name]["en"]
    translator = i18n.install_translator("zh_CN")
    try:
        chinese = [list(line) for line in worded_lines(plan)]
    finally:
        i18n.remove_translator(translator)
    assert chinese == RECORDED[name]["zh"]
