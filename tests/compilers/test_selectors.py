"""Selector IR, compile-time checks and prediction helpers against a live stub part."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import TypeAdapter, ValidationError

from sam_plugin.compilers.evidence import Prediction, Range
from sam_plugin.compilers.selectors import (
    Selector,
    check_selector,
    count_selected,
    selected_shape_counts,
    selector_literal,
)
from sam_plugin.samops import selection

ADAPTER = TypeAdapter(Selector)


@pytest.fixture
def part(fresh_sam: Any) -> Any:
    from samConstants import BEAM, QUAD

    part = fresh_sam.mdb.models["Model-1"].Part(name="P")
    n = [part.Node(coordinates=(float(i), float(j), 0.0)) for j in range(2) for i in range(3)]
    part.Element(nodes=(n[0], n[1], n[4], n[3]), elemShape=QUAD)
    part.Element(nodes=(n[1], n[2], n[5], n[4]), elemShape=QUAD)
    part.Element(nodes=(n[2], part.Node(coordinates=(2.0, 0.0, 3.0))), elemShape=BEAM)
    part.Set(name="Right", elements=part.elements[1:2])
    part.Set(name="Corner", nodes=part.nodes[0:1])
    return part


def test_ir_normalizes_labels_and_case() -> None:
    sel = ADAPTER.validate_python({"by": "labels", "labels": [3, 1, 3]})
    assert selector_literal(sel) == {"by": "labels", "labels": (1, 3)}
    assert selector_literal(ADAPTER.validate_python({"by": "shape", "shape": "beam"})) == {
        "by": "shape", "shape": "BEAM"}
    with pytest.raises(ValidationError, match="box min y=2.0 exceeds max y=1.0"):
        ADAPTER.validate_python({"by": "box", "min": [0, 2, 0], "max": [1, 1, 1]})


def test_unknown_labels_and_sets_name_what_exists(part: Any) -> None:
    sel = ADAPTER.validate_python({"by": "labels", "labels": [2, 9, 12]})
    assert [str(d) for d in check_selector(sel, part, "selection", "elements")] == [
        "selection.labels: unknown element label(s) 9, 12; existing element labels: 1..3 "
        "(3 elements)"]
    assert [str(d) for d in check_selector(sel, part, "selection", "nodes")] == [
        "selection.labels: unknown node label(s) 9, 12; existing node labels: 1..7 (7 nodes)"]
    missing = ADAPTER.validate_python({"by": "set", "name": "Left"})
    assert [str(d) for d in check_selector(missing, part, "delete", "elements")] == [
        "delete.name: unknown set 'Left'; existing sets: Corner, Right"]
    planned = Prediction(node_count=Range.exact(0), element_count=Range.exact(0),
                         shape_counts={}, sets_present=["Left"])
    assert check_selector(missing, part, "delete", "elements", planned) == []


def test_predictions_use_the_runtime_resolver(part: Any) -> None:
    def sel(data: dict) -> Any:
        return ADAPTER.validate_python(data)

    assert count_selected(sel({"by": "all"}), part, "elements") == 3
    assert count_selected(sel({"by": "shape", "shape": "QUAD"}), part, "nodes") == 6
    assert count_selected(sel({"by": "set", "name": "Right"}), part, "nodes") == 4
    assert count_selected(sel({"by": "set", "name": "Corner"}), part, "nodes") == 1
    box = sel({"by": "box", "min": [0, 0, 0], "max": [1, 1, 0]})
    assert count_selected(box, part, "elements") == 1
    assert count_selected(box, part, "nodes") == 4
    assert selected_shape_counts(sel({"by": "all"}), part) == {"QUAD": 2, "TRI": 0, "BEAM": 1}
    assert count_selected(sel({"by": "labels", "labels": [99]}), part, "elements") == 0


def test_runtime_resolver_errors_list_what_exists(part: Any) -> None:
    with pytest.raises(selection.SelectionError, match="unknown set 'X'; existing sets: "
                       "Corner, Right"):
        selection.select_elements(part, {"by": "set", "name": "X"})
    with pytest.raises(selection.SelectionError, match="unknown node label\\(s\\) 40; existing "
                       "node labels: 1..7 \\(7 nodes\\)"):
        selection.select_nodes(part, {"by": "labels", "labels": (1, 40)})
