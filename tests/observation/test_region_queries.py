"""query_regions: the L2 index on demand, one section, a zoom into a box, named sets."""

from __future__ import annotations

from typing import Any

import pytest

from sam_plugin.errors import QueryError
from sam_plugin.runtime.observe.region_query import query_regions
from sam_plugin.runtime.observe.regions import RegionIndexCache


@pytest.fixture
def plate(model: Any, grid: Any) -> Any:
    part = model.Part("Plate")
    nodes = grid(part, 11, 3)  # x = 0..100, y = 0..20; nodes 1..33, elements 1..20
    part.Set("LEFT", nodes=[nodes[0], nodes[11], nodes[22]])
    return part


def test_one_section_only(plate: Any) -> None:
    answer = query_regions(plate, {"section": "components"}, fingerprint="fp",
                           cache=RegionIndexCache())
    assert sorted(answer) == ["components", "components_total", "notes", "section"]
    assert answer["components"][0]["elements"] == 20


def test_zoom_into_a_box_counts_what_is_inside(plate: Any) -> None:
    answer = query_regions(plate, {"box": {"min": [60, 0, 0], "max": [100, 20, 0]},
                                   "grid_cells": 4, "stations": 5},
                           fingerprint="fp", cache=RegionIndexCache())
    assert answer["section"] == "all"
    assert (answer["nodes"], answer["elements"], answer["free_nodes"]) == (15, 8, 0)
    assert answer["bbox"] == [[60.0, 0.0, 0.0], [100.0, 20.0, 0.0]]
    assert answer["sets"] == [] and answer["sets_total"] == 0
    assert [s["at"] for s in answer["stations"]["stations"]] == [60.0, 70.0, 80.0, 90.0, 100.0]
    assert answer["grid"]["divisions"] == [4, 1, 1]
    assert answer["note"].startswith("zoomed: nodes inside the box")


def test_named_sets_and_errors(plate: Any) -> None:
    answer = query_regions(plate, {"section": "sets", "names": ["LEFT"]}, fingerprint="fp")
    assert answer["sets"] == [{"name": "LEFT", "nodes": 3, "elements": 0,
                               "bbox": [[0.0, 0.0, 0.0], [0.0, 20.0, 0.0]]}]
    with pytest.raises(QueryError) as caught:
        query_regions(plate, {"section": "sets", "names": ["DECK"]}, fingerprint="fp")
    assert str(caught.value) == "names: no set 'DECK' in part 'Plate'; existing sets: LEFT"
    with pytest.raises(QueryError) as caught:
        query_regions(plate, {"section": "faces"}, fingerprint="fp")
    assert str(caught.value) == ("section: 'faces' is not one of ['all', 'components', "
                                 "'grid', 'sets', 'shapes', 'stations']")
    with pytest.raises(QueryError) as caught:
        query_regions(plate, {"names": ["LEFT"]}, fingerprint="fp")
    assert str(caught.value) == "names: only used with section='sets'"
