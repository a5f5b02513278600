"""Part.Node / Part.Element: labels, shapes, read-only entities and the failure modes."""

from __future__ import annotations

import math
from typing import Any

import pytest
from samConstants import BEAM, N1_COSINES, QUAD, TRI


def test_node_labels_and_coordinates(part: Any) -> None:
    first = part.Node((0, 1, 2))
    second = part.Node(coordinates=(0.5, 1.5, -2.25))
    assert (first.label, second.label) == (1, 2)
    assert first.coordinates == (0.0, 1.0, 2.0)
    assert all(type(value) is float for value in first.coordinates)
    assert second.coordinates == (0.5, 1.5, -2.25)


def test_explicit_labels_and_max_ever_plus_one(part: Any) -> None:
    part.Node((0.0, 0.0, 0.0))
    high = part.Node((1.0, 0.0, 0.0), label=10)
    assert high.label == 10
    assert part.Node((2.0, 0.0, 0.0)).label == 11
    part.deleteNode(part.nodes.getFromLabel(11))
    # never reused: the next automatic label stays above the largest ever assigned
    assert part.Node((3.0, 0.0, 0.0)).label == 12
    with pytest.raises(ValueError) as caught:
        part.Node((0.0, 0.0, 0.0), label=10)
    assert str(caught.value) == ("node label 10 is already in use in part 'Plate'; the next free "
                                 "node label is 13")
    with pytest.raises(ValueError) as caught:
        part.Node((0.0, 0.0, 0.0), label=0)
    assert str(caught.value) == "label must be a positive integer; got 0"
    with pytest.raises(TypeError) as caught:
        part.Node((0.0, 0.0, 0.0), label=2.0)
    assert str(caught.value) == "label must be a positive integer; got 2.0"


def test_bad_coordinates(part: Any) -> None:
    with pytest.raises(TypeError) as caught:
        part.Node((0.0, 0.0))
    assert str(caught.value) == "coordinates must be a sequence of 3 numbers; got (0.0, 0.0)"
    with pytest.raises(ValueError) as caught:
        part.Node((0.0, math.nan, 0.0))
    assert str(caught.value) == "coordinates[1] must be finite; got nan"
    with pytest.raises(TypeError) as caught:
        part.Node(("0", 0.0, 0.0))
    assert str(caught.value) == "coordinates[0] must be a number; got str"
    with pytest.raises(TypeError) as caught:
        part.Node((True, 0.0, 0.0))
    assert str(caught.value) == "coordinates[0] must be a number; got bool"
    with pytest.raises(TypeError) as caught:
        part.Node((0.0, 0.0, 0.0), tolerance=1)
    assert str(caught.value) == "keyword error on tolerance"
    assert len(part.nodes) == 0


def test_elements_of_each_shape(part: Any) -> None:
    a, b, c, d = (part.Node((x, y, 0.0)) for x, y in ((0, 0), (1, 0), (1, 1), (0, 1)))
    quad = part.Element((a, b, c, d), QUAD)
    tri = part.Element(nodes=(a, b, c), elemShape=TRI)
    beam = part.Element([a, c], BEAM, label=7)
    assert (quad.label, tri.label, beam.label) == (1, 2, 7)
    assert quad.type is QUAD and str(tri.type) == "TRI" and beam.type == BEAM
    assert quad.connectivity == (1, 2, 3, 4) and beam.connectivity == (1, 3)
    assert [n.label for n in quad.getNodes()] == [1, 2, 3, 4]
    assert sorted(e.label for e in a.getElements()) == [1, 2, 7]
    assert part.Element((b, c), BEAM).label == 8


def test_element_shape_must_be_an_enum(part: Any) -> None:
    a, b, c, d = (part.Node((float(i), 0.0, 0.0)) for i in range(4))
    with pytest.raises(TypeError) as caught:
        part.Element((a, b, c, d), "QUAD")
    assert str(caught.value) == "found string, expecting enum"
    with pytest.raises(ValueError) as caught:
        part.Element((a, b, c, d), N1_COSINES)
    assert str(caught.value) == "elemShape must be one of QUAD, TRI, BEAM; got N1_COSINES"
    assert len(part.elements) == 0


def test_node_count_must_fit_the_shape(part: Any) -> None:
    a, b, c, d = (part.Node((float(i), 0.0, 0.0)) for i in range(4))
    cases = [((a, b, c), QUAD, "a QUAD element needs exactly 4 nodes; got 3"),
             ((a, b, c, d), TRI, "a TRI element needs exactly 3 nodes; got 4"),
             ((a,), BEAM, "a BEAM element needs exactly 2 nodes; got 1")]
    for nodes, shape, text in cases:
        with pytest.raises(ValueError) as caught:
            part.Element(nodes, shape)
        assert str(caught.value) == text
    assert len(part.elements) == 0


def test_repeated_foreign_and_deleted_nodes_are_refused(model: Any, part: Any) -> None:
    a, b, c = (part.Node((float(i), 0.0, 0.0)) for i in range(3))
    with pytest.raises(ValueError) as caught:
        part.Element((a, b, a), TRI)
    assert str(caught.value) == ("node 1 appears more than once in one TRI element; element "
                                 "nodes must be distinct")
    other = model.Part("Other")
    stranger = other.Node((5.0, 5.0, 5.0))
    with pytest.raises(ValueError) as caught:
        part.Element((a, stranger), BEAM)
    assert str(caught.value) == "node 1 belongs to part 'Other', not to part 'Plate'"
    part.deleteNode(c)
    with pytest.raises(ValueError) as caught:
        part.Element((a, c), BEAM)
    assert str(caught.value) == "node 3 has been deleted from part 'Plate'"
    with pytest.raises(TypeError) as caught:
        part.Element((1, 2), BEAM)
    assert str(caught.value) == "nodes must be MeshNode objects of part 'Plate'; got int"
    with pytest.raises(TypeError) as caught:
        part.Element(a, BEAM)
    assert str(caught.value) == ("nodes must be a sequence of 2 MeshNode objects for a BEAM "
                                 "element; got MeshNode")
    with pytest.raises(ValueError) as caught:
        part.Element((a, b), BEAM, label=-3)
    assert str(caught.value) == "label must be a positive integer; got -3"
    assert len(part.elements) == 0


def test_element_labels_are_never_reused(part: Any, make_grid: Any) -> None:
    nodes, elements = make_grid(part, 2, 1)
    part.deleteElement(elements[-1])
    assert part.Element(elements[0].getNodes(), QUAD).label == 3
    with pytest.raises(ValueError) as caught:
        part.Element(elements[0].getNodes(), QUAD, label=1)
    assert str(caught.value) == ("element label 1 is already in use in part 'Plate'; the next "
                                 "free element label is 4")


def test_entities_are_read_only(part: Any) -> None:
    node = part.Node((0.0, 0.0, 0.0))
    with pytest.raises(AttributeError) as caught:
        node.coordinates = (1.0, 1.0, 1.0)
    assert str(caught.value) == ("MeshNode.coordinates is read-only; use part.editNode(...) to "
                                 "move a node")
    element = part.Element((node, part.Node((1.0, 0.0, 0.0))), BEAM)
    with pytest.raises(AttributeError) as caught:
        element.label = 5
    assert str(caught.value) == "MeshElement.label is read-only"


def test_deleted_entities_refuse_navigation(part: Any) -> None:
    a, b = part.Node((0.0, 0.0, 0.0)), part.Node((1.0, 0.0, 0.0))
    beam = part.Element((a, b), BEAM)
    part.deleteElement(beam)
    with pytest.raises(ValueError) as caught:
        beam.getNodes()
    assert str(caught.value) == "element 1 has been deleted from part 'Plate'"
    part.deleteNode(a)
    with pytest.raises(ValueError) as caught:
        a.getElements()
    assert str(caught.value) == "node 1 has been deleted from part 'Plate'"
    assert len(b.getElements()) == 0
