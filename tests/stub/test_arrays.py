"""Node and element arrays: live views, indexing, labels, bounding boxes, getClosest."""

from __future__ import annotations

from typing import Any

import pytest
from samConstants import BEAM


def test_part_arrays_are_live_views(part: Any, make_grid: Any) -> None:
    nodes_view = part.nodes
    assert len(nodes_view) == 0 and not nodes_view
    make_grid(part, 2, 2)
    assert part.nodes is nodes_view
    assert len(nodes_view) == 9 and len(part.elements) == 4
    assert [n.label for n in nodes_view] == list(range(1, 10))
    assert nodes_view[0].label == 1 and nodes_view[-1].label == 9
    assert [e.label for e in part.elements[1:3]] == [2, 3]
    part.deleteElement(part.elements[0])
    assert [e.label for e in part.elements] == [2, 3, 4]
    with pytest.raises(IndexError) as caught:
        part.elements[3]
    assert str(caught.value) == "element index 3 out of range for an array of 3 elements"
    with pytest.raises(TypeError) as caught:
        part.nodes["1"]
    assert str(caught.value) == "node array indices must be integers; got str"


def test_iterating_while_deleting_is_safe(part: Any, make_grid: Any) -> None:
    make_grid(part, 2, 2)
    for element in part.elements:
        part.deleteElement(element)
    assert len(part.elements) == 0 and len(part.nodes) == 9


def test_get_from_label(part: Any, make_grid: Any) -> None:
    make_grid(part, 3, 3)
    assert part.nodes.getFromLabel(16).coordinates == (3.0, 3.0, 0.0)
    assert part.elements.getFromLabel(9).connectivity == (11, 12, 16, 15)
    with pytest.raises(ValueError) as caught:
        part.nodes.getFromLabel(99)
    assert str(caught.value) == ("node label 99 does not exist in part 'Plate'; existing node "
                                 "labels: 1..16 (16 nodes)")
    with pytest.raises(ValueError) as caught:
        part.elements.getFromLabel(0)
    assert str(caught.value) == ("element label 0 does not exist in part 'Plate'; existing "
                                 "element labels: 1..9 (9 elements)")
    with pytest.raises(TypeError) as caught:
        part.nodes.getFromLabel("3")
    assert str(caught.value) == "label must be an integer; got '3'"


def test_get_from_label_on_an_empty_part(part: Any) -> None:
    with pytest.raises(ValueError) as caught:
        part.nodes.getFromLabel(1)
    assert str(caught.value) == "node label 1 does not exist in part 'Plate'; no nodes exist"


def test_sequence_from_labels(part: Any, make_grid: Any) -> None:
    make_grid(part, 3, 3)
    picked = part.elements.sequenceFromLabels((5, 2, 5, 9))
    assert [e.label for e in picked] == [5, 2, 9]
    assert picked.getFromLabel(2).label == 2
    with pytest.raises(ValueError) as caught:
        picked.getFromLabel(1)
    assert str(caught.value) == ("element label 1 does not exist in this array of part 'Plate'; "
                                 "existing element labels: 2..9 (3 elements)")
    with pytest.raises(ValueError) as caught:
        part.elements.sequenceFromLabels([1, 40, 41])
    assert str(caught.value) == ("element labels 40, 41 do not exist in part 'Plate'; existing "
                                 "element labels: 1..9 (9 elements)")
    with pytest.raises(ValueError) as caught:
        part.nodes.sequenceFromLabels([17])
    assert str(caught.value) == ("node label 17 does not exist in part 'Plate'; existing node "
                                 "labels: 1..16 (16 nodes)")
    with pytest.raises(TypeError) as caught:
        part.nodes.sequenceFromLabels("12")
    assert str(caught.value) == "labels must be a sequence of integers; got '12'"
    part.deleteElement(part.elements.getFromLabel(5))
    assert [e.label for e in picked] == [2, 9]


def test_bounding_box(part: Any, make_grid: Any) -> None:
    make_grid(part, 3, 3)
    inside = part.nodes.getByBoundingBox(xMin=0.0, yMin=0.0, zMin=0.0, xMax=1.0, yMax=1.0,
                                         zMax=0.0)
    assert [n.label for n in inside] == [1, 2, 5, 6]
    # an element is inside only when all its nodes are
    elements = part.elements.getByBoundingBox(xMin=-0.5, yMin=-0.5, zMin=-1.0, xMax=2.0,
                                              yMax=1.0, zMax=1.0)
    assert [e.label for e in elements] == [1, 2]
    assert len(part.nodes.getByBoundingBox(xMin=2.5)) == 4
    subset = part.elements.sequenceFromLabels([2, 3, 5])
    assert [e.label for e in subset.getByBoundingBox(xMax=2.0)] == [2, 5]
    with pytest.raises(TypeError) as caught:
        part.nodes.getByBoundingBox(xmin=0.0)
    assert str(caught.value) == "keyword error on xmin"
    with pytest.raises(TypeError) as caught:
        part.nodes.getByBoundingBox(xMin="0")
    assert str(caught.value) == "xMin must be a number; got str"


def test_get_closest(part: Any, make_grid: Any) -> None:
    make_grid(part, 3, 3)
    assert part.nodes.getClosest((1.1, 0.9, 0.0), 0.5).label == 6
    assert part.nodes.getClosest((1.5, 1.5, 3.0), 0.5) is None
    assert part.nodes.getClosest((9.0, 9.0, 0.0)).label == 16
    points = [(float(i) + 0.01, 0.0, 0.0) for i in range(4)] + [(7.0, 7.0, 7.0)] * 5
    found = part.nodes.getClosest(points, searchTolerance=0.1)
    assert [None if n is None else n.label for n in found] == [1, 2, 3, 4] + [None] * 5
    few = part.nodes.getClosest([(0.0, 3.0, 0.0), (3.0, 0.0, 0.0)], 0.1)
    assert [n.label for n in few] == [13, 4]
    with pytest.raises(ValueError) as caught:
        part.nodes.getClosest((0.0, 0.0, 0.0), -1.0)
    assert str(caught.value) == "searchTolerance must be at least 0; got -1.0"


def test_arrays_built_from_entities(part: Any, model: Any) -> None:
    from sam import MeshElementArray, MeshNodeArray

    a, b = part.Node((0.0, 0.0, 0.0)), part.Node((1.0, 0.0, 0.0))
    beam = part.Element((a, b), BEAM)
    nodes = MeshNodeArray([b, a])
    assert [n.label for n in nodes] == [2, 1]
    assert [e.label for e in MeshElementArray(elements=[beam])] == [1]
    assert [n.label for n in nodes + MeshNodeArray([a])] == [2, 1, 1]
    other = model.Part("Other").Node((0.0, 0.0, 0.0))
    with pytest.raises(ValueError) as caught:
        MeshNodeArray([a, other])
    assert str(caught.value) == ("nodes must all belong to one part; got parts 'Plate' and "
                                 "'Other'")
    with pytest.raises(TypeError) as caught:
        MeshNodeArray([beam])
    assert str(caught.value) == "nodes must be MeshNode objects; got MeshElement"
    assert len(MeshNodeArray([])) == 0


def test_index_access_between_edits_and_creations_stays_cheap(part: Any) -> None:
    import time

    start = time.perf_counter()
    for i in range(20_000):
        part.Node((float(i), 0.0, 0.0))
        assert part.nodes[-1].label == i + 1
        part.editNode(part.nodes[i], (float(i), 1.0, 0.0))
    # quadratic re-listing of the array would take minutes here
    assert time.perf_counter() - start < 10.0
    assert part.nodes[0].coordinates == (0.0, 1.0, 0.0)


def test_a_loop_that_creates_nodes_sees_a_snapshot(part: Any) -> None:
    part.Node((0.0, 0.0, 0.0))
    part.Node((1.0, 0.0, 0.0))
    for node in part.nodes:
        part.Node((node.coordinates[0], 1.0, 0.0))
    assert len(part.nodes) == 4
    part.deleteNode(part.nodes[0])
    assert [n.label for n in part.nodes] == [2, 3, 4]
    assert part.nodes[0].label == 2
