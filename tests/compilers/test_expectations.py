"""The spec's expected-results line, read tolerantly: English, Chinese, missing, garbled."""

from __future__ import annotations

import pytest

from sam_plugin.compilers.expectations import parse_expectations


def test_english_line_with_counts_shapes_sets_and_selection():
    spec = ("Build the plate.\nPlanned Part capabilities: build, edit\n"
            "Expected results: 77 nodes, 60 elements (60 QUAD), sets: S1, Top; "
            "selected: 12 elements")
    found = parse_expectations(spec)
    assert (found.nodes, found.elements) == (77, 60)
    assert found.shapes == {"QUAD": 60}
    assert found.sets == ["S1", "Top"]
    assert found.selected == {"elements": 12}


def test_chinese_line():
    spec = ("平移集合S1。\n计划 Part 操作类别：transform\n"
            "预期结果：77 个节点，60 个单元（60 个 QUAD），集合：S1；选中：12 个单元")
    found = parse_expectations(spec)
    assert (found.nodes, found.elements, found.shapes) == (77, 60, {"QUAD": 60})
    assert found.sets == ["S1"] and found.selected == {"elements": 12}


@pytest.mark.parametrize("line", [
    "**Expected results:** 1,200 nodes; 1,000 elements",
    "- Expected: nodes: 1200, elements = 1000",
    "expected results: 1200 nodes and 1000 elements are left",
])
def test_variants_the_models_write(line):
    found = parse_expectations(f"spec\n{line}")
    assert (found.nodes, found.elements) == (1200, 1000)


@pytest.mark.parametrize("spec", [
    "", "Translate by 5.\nPlanned Part capabilities: transform",
    "Expected results: whatever the calls do", "Expected results:",
    "Expected results: " + "9" * 5000 + " nodes" + "(" * 1000,
])
def test_missing_or_unreadable_lines_are_no_expectations_never_an_error(spec):
    found = parse_expectations(spec)
    assert found.elements is None and found.shapes == {} and found.sets == []


def test_the_last_line_wins_and_a_set_of_none_is_no_set():
    spec = "Expected results: 5 nodes\nExpected results: 6 nodes, sets: none"
    found = parse_expectations(spec)
    assert found.nodes == 6 and found.sets == []
