"""L3 on-demand detail: selectors, caps with totals, and errors that hand back the legal set."""

from __future__ import annotations

from typing import Any

import pytest

from sam_plugin.errors import QueryError
from sam_plugin.runtime.observe.detail import query_entities


@pytest.fixture
def plate(model: Any, grid: Any) -> Any:
    """A 4 x 3 node plate (spacing 10): nodes 1..12 row by row, QUAD elements 1..6."""
    part = model.Part("Plate")
    nodes = grid(part, 4, 3)
    part.Set("EDGE", nodes=[nodes[0], nodes[4], nodes[8]])
    part.Set("RIGHT", elements=part.elements.sequenceFromLabels([3, 6]))
    return part


def test_nodes_by_labels_in_the_order_asked(plate: Any) -> None:
    result = query_entities(plate, {"entity": "nodes", "by": "labels", "labels": [6, 1, 6]})
    assert result.compact() == {
        "entity": "nodes", "by": "labels", "total": 2, "returned": 2, "truncated": False,
        "labels_range": [1, 6],
        "nodes": [{"label": 6, "coordinates": [10.0, 10.0, 0.0]},
                  {"label": 1, "coordinates": [0.0, 0.0, 0.0]}],
    }


def test_unknown_labels_name_the_existing_range(plate: Any) -> None:
    with pytest.raises(QueryError) as caught:
        query_entities(plate, {"entity": "elements", "by": "labels", "labels": [2, 7, 99]})
    assert str(caught.value) == (
        "labels: unknown element label(s) 7, 99 in part 'Plate'; existing element labels: "
        "1..6 (6 elements)")


def test_by_set_and_unknown_set(plate: Any) -> None:
    result = query_entities(plate, {"entity": "elements", "by": "set", "name": "RIGHT"})
    assert [(e.label, e.shape, e.connectivity) for e in result.elements or []] == [
        (3, "QUAD", (3, 4, 8, 7)), (6, "QUAD", (7, 8, 12, 11))]
    empty = query_entities(plate, {"entity": "nodes", "by": "set", "name": "RIGHT"})
    assert empty.total == 0
    assert empty.note == "set 'RIGHT' holds no nodes of its own, only elements: query " \
                         "entity='elements'"
    with pytest.raises(QueryError) as caught:
        query_entities(plate, {"entity": "nodes", "by": "set", "name": "DECK"})
    assert str(caught.value) == "name: no set 'DECK' in part 'Plate'; existing sets: EDGE, RIGHT"


def test_by_box_is_inclusive_and_elements_need_all_nodes_inside(plate: Any) -> None:
    box = {"min": [0.0, 0.0, -1.0], "max": [20.0, 10.0, 1.0]}
    nodes = query_entities(plate, {"entity": "nodes", "by": "box", **box})
    assert [n.label for n in nodes.nodes or []] == [1, 2, 3, 5, 6, 7]
    elements = query_entities(plate, {"entity": "elements", "by": "box", **box})
    assert [e.label for e in elements.elements or []] == [1, 2]


def test_cut_lists_keep_the_total_and_say_so(plate: Any) -> None:
    result = query_entities(plate, {"entity": "nodes", "by": "box", "min": [0, 0, 0],
                                    "max": [30, 20, 0], "limit": 5})
    assert (result.total, result.returned, result.truncated) == (12, 5, True)
    assert result.labels_range == (1, 12)
    assert result.note == ("the list was cut: showing 5 of 12 nodes (lowest labels first); "
                           "narrow the query (a smaller box, a set or a label list) to see "
                           "the rest")


def test_nearest_nodes_and_elements(plate: Any) -> None:
    nodes = query_entities(plate, {"entity": "nodes", "by": "nearest", "point": [11, 1, 0],
                                   "k": 3})
    # node 2 at distance sqrt(2); nodes 3 and 6 tie at sqrt(82): the lower label first
    assert [(n.label, n.distance) for n in nodes.nodes or []] == [
        (2, round(2**0.5, 9)), (3, round(82**0.5, 9)), (6, round(82**0.5, 9))]
    elements = query_entities(plate, {"entity": "elements", "by": "nearest",
                                      "point": [25, 15, 0], "k": 2})
    # centroids: element 6 at (25, 15), elements 3 and 5 at distance 10
    assert [(e.label, e.distance) for e in elements.elements or []] == [(6, 0.0), (3, 10.0)]


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"entity": "nodes", "by": "near"},
         "by: 'near' is not one of ['labels', 'set', 'box', 'nearest']"),
        ({"entity": "faces", "by": "labels", "labels": [1]},
         "entity: 'faces' is not one of ['nodes', 'elements']"),
        ({"entity": "nodes", "by": "box", "min": [0, 0, 0]}, "arguments: 'max' is a required "
                                                             "property"),
        ({"entity": "nodes", "by": "labels", "labels": [1], "point": [0, 0, 0]},
         "point: not used with by='labels'; by='labels' takes labels"),
        ({"entity": "nodes", "by": "box", "min": [5, 0, 0], "max": [0, 1, 1]},
         "min: every coordinate of min must be <= max; got min [5, 0, 0], max [0, 1, 1]"),
        ({"entity": "nodes", "by": "labels", "labels": [0]},
         "labels.0: 0 is less than the minimum of 1"),
        ({"entity": "nodes", "by": "set", "name": "EDGE", "colour": "red"},
         "arguments: Additional properties are not allowed ('colour' was unexpected); legal "
         "fields: entity, by, labels, name, min, max, point, k, limit"),
    ],
)
def test_bad_arguments_name_the_field_and_legal_values(plate: Any, arguments: dict[str, Any],
                                                       message: str) -> None:
    with pytest.raises(QueryError) as caught:
        query_entities(plate, arguments)
    assert str(caught.value) == message


def test_big_part_answers_are_capped_at_200(big_grid: Any) -> None:
    result = query_entities(big_grid.part, {"entity": "elements", "by": "box",
                                            "min": [0, 0, 0], "max": [5000, 5000, 0]})
    assert (result.total, result.returned, result.truncated) == (187_489, 200, True)
    assert result.labels_range == (1, 187_489)
    nearest = query_entities(big_grid.part, {"entity": "nodes", "by": "nearest",
                                             "point": [2165.0, 2165.0, 0.0], "k": 1})
    assert nearest.nodes is not None
    # four nodes tie around the centre; the lowest label wins
    assert nearest.nodes[0].coordinates == (2160.0, 2160.0, 0.0)
