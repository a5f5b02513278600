"""Sets, deleteNode, deleteElement, editNode and mergeNodes."""

from __future__ import annotations

from typing import Any

import pytest
from samConstants import BEAM, OFF, ON, QUAD, TRI


def test_set_creates_replaces_and_stays_live(part: Any, make_grid: Any) -> None:
    nodes, elements = make_grid(part, 2, 2)
    first = part.Set(name="left", nodes=nodes[:3], elements=elements[:2])
    assert first.name == "left"
    assert [n.label for n in first.nodes] == [1, 2, 3]
    assert [e.label for e in first.elements] == [1, 2]
    part.deleteElement(elements[0])
    assert [e.label for e in first.elements] == [2]
    replaced = part.Set("left", elements=part.elements)
    assert part.sets["left"] is replaced and len(part.sets) == 1
    assert len(replaced.nodes) == 0 and [e.label for e in replaced.elements] == [2, 3, 4]
    single = part.Set("one", nodes=nodes[4])
    assert [n.label for n in single.nodes] == [5]
    part.deleteNode(nodes[4])
    assert len(single.nodes) == 0 and len(replaced.elements) == 0
    assert part.sets.keys() == ["left", "one"]


def test_set_refuses_foreign_and_wrong_entities(model: Any, part: Any) -> None:
    a = part.Node((0.0, 0.0, 0.0))
    stranger = model.Part("Other").Node((0.0, 0.0, 0.0))
    with pytest.raises(ValueError) as caught:
        part.Set("s", nodes=[a, stranger])
    assert str(caught.value) == "node 1 belongs to part 'Other', not to part 'Plate'"
    with pytest.raises(TypeError) as caught:
        part.Set("s", elements=[a])
    assert str(caught.value) == "elements must be MeshElement objects of part 'Plate'; got MeshNode"
    with pytest.raises(TypeError) as caught:
        part.Set("s", nodes=5)
    assert str(caught.value) == "nodes must be a sequence of MeshNode objects; got int"
    with pytest.raises(TypeError) as caught:
        part.Set("s", faces=[])
    assert str(caught.value) == "keyword error on faces"
    assert len(part.sets) == 0


def test_delete_node_takes_dependent_elements(part: Any, make_grid: Any) -> None:
    nodes, _ = make_grid(part, 2, 2)
    part.deleteNode(nodes=[nodes[4]])  # the centre node: all four QUADs use it
    assert len(part.elements) == 0 and len(part.nodes) == 8
    part.deleteNode(part.nodes.sequenceFromLabels([1, 2]))
    assert [n.label for n in part.nodes] == [3, 4, 6, 7, 8, 9]
    with pytest.raises(ValueError) as caught:
        part.deleteNode([nodes[0]])
    assert str(caught.value) == "node 1 has been deleted from part 'Plate'"


def test_delete_element_and_unreferenced_nodes(part: Any, make_grid: Any) -> None:
    _, elements = make_grid(part, 2, 1)
    part.deleteElement([elements[0]])
    assert len(part.nodes) == 6
    part.deleteElement(elements=part.elements, deleteUnreferencedNodes=ON)
    assert len(part.elements) == 0 and [n.label for n in part.nodes] == [1, 4]
    with pytest.raises(ValueError) as caught:
        part.deleteElement([elements[1]], deleteUnreferencedNodes=OFF)
    assert str(caught.value) == "element 2 has been deleted from part 'Plate'"
    with pytest.raises(TypeError) as caught:
        part.deleteElement([], deleteUnreferencedNodes="yes")
    assert str(caught.value) == "deleteUnreferencedNodes must be ON, OFF, True or False; got 'yes'"


def test_delete_element_keeps_nodes_still_in_use(part: Any, make_grid: Any) -> None:
    _, elements = make_grid(part, 2, 1)
    part.deleteElement([elements[0]], deleteUnreferencedNodes=True)
    assert [n.label for n in part.nodes] == [2, 3, 5, 6]


def test_edit_node(part: Any, make_grid: Any) -> None:
    nodes, _ = make_grid(part, 1, 1)
    part.editNode(nodes=nodes[0], coordinates=(-1.0, -1.0, 0.5))
    assert nodes[0].coordinates == (-1.0, -1.0, 0.5)
    part.editNode(part.nodes.sequenceFromLabels([2, 3]), ((5, 0, 0), (0, 5, 0)))
    assert nodes[1].coordinates == (5.0, 0.0, 0.0) and nodes[2].coordinates == (0.0, 5.0, 0.0)
    with pytest.raises(ValueError) as caught:
        part.editNode(nodes[:2], [(0.0, 0.0, 0.0)])
    assert str(caught.value) == "editNode got 2 nodes but 1 coordinates; give one point per node"
    with pytest.raises(TypeError) as caught:
        part.editNode(nodes[0], (0.0, 0.0))
    assert str(caught.value) == "coordinates must be a sequence of 3 numbers; got (0.0, 0.0)"
    with pytest.raises(TypeError) as caught:
        part.editNode(nodes[0], coordinate1=2.0)
    assert str(caught.value) == "keyword error on coordinate1"
    assert nodes[0].coordinates == (-1.0, -1.0, 0.5)


def test_merge_nodes_keeps_lower_labels_and_repoints(part: Any, make_grid: Any) -> None:
    make_grid(part, 1, 1)  # nodes 1-4 at x in 0..1
    right = [part.Node((1.0 + 5e-7, 0.0, 0.0)), part.Node((2.0, 0.0, 0.0)),
             part.Node((2.0, 1.0, 0.0)), part.Node((1.0, 1.0 - 5e-7, 0.0))]
    part.Element(right, QUAD)
    part.mergeNodes(nodes=part.nodes, tolerance=1e-6)
    assert [n.label for n in part.nodes] == [1, 2, 3, 4, 6, 7]
    assert part.elements.getFromLabel(2).connectivity == (2, 6, 7, 4)
    assert sorted(e.label for e in part.nodes.getFromLabel(2).getElements()) == [1, 2]


def test_merge_removes_duplicates_only_when_asked(part: Any) -> None:
    def two_copies() -> None:
        corners = ((0, 0), (1, 0), (1, 1), (0, 1))
        for _ in range(2):
            part.Element([part.Node((float(x), float(y), 0.0)) for x, y in corners], QUAD)

    two_copies()
    part.mergeNodes(part.nodes, removeDuplicateElements=False)
    assert [e.connectivity for e in part.elements] == [(1, 2, 3, 4), (1, 2, 3, 4)]
    part.deleteElement(part.elements, deleteUnreferencedNodes=ON)
    two_copies()
    part.mergeNodes(part.nodes)
    assert [(e.label, e.connectivity) for e in part.elements] == [(3, (9, 10, 11, 12))]
    assert len(part.nodes) == 4


def test_merge_collapses_degenerate_elements_and_respects_the_node_subset(part: Any) -> None:
    a, b, c = part.Node((0.0, 0.0, 0.0)), part.Node((0.0, 0.0, 0.0)), part.Node((1.0, 0.0, 0.0))
    part.Element((a, b), BEAM)
    part.Element((a, b, c), TRI)
    far = part.Node((1.0, 0.0, 0.0))
    part.mergeNodes([a, b], tolerance=0.0)
    assert len(part.elements) == 0  # both would use node 1 twice
    assert [n.label for n in part.nodes] == [1, 3, 4]  # node 4 was not in the merge set
    assert far.coordinates == c.coordinates
    with pytest.raises(ValueError) as caught:
        part.mergeNodes(part.nodes, tolerance=-1.0)
    assert str(caught.value) == "tolerance must be at least 0; got -1.0"


def test_merge_is_linear_on_a_large_grid(part: Any, make_grid: Any) -> None:
    import time

    make_grid(part, 120, 120)  # 14,641 nodes
    copy = [part.Node((n.coordinates[0], n.coordinates[1], 0.0)) for n in list(part.nodes)]
    start = time.perf_counter()
    part.mergeNodes(part.nodes)
    assert time.perf_counter() - start < 5.0
    assert len(part.nodes) == 121 * 121 and copy[0].label == 121 * 121 + 1


def test_bulk_edit_node_keeps_given_tuples_and_refuses_as_before(part: Any,
                                                                  make_grid: Any) -> None:
    """A list of live nodes with tuples of finite floats is moved as given (as Node keeps its
    tuple); anything else takes the checked path and raises the host's error, moving none."""
    nodes, _ = make_grid(part, 1, 1)
    points = [(9.0, 0.0, 0.0), (0.0, 9.0, -0.0)]
    part.editNode(nodes=nodes[:2], coordinates=points)
    assert nodes[0].coordinates is points[0] and nodes[1].coordinates is points[1]
    part.editNode(nodes=nodes[:2], coordinates=[(1, 2, 3), [4.0, 5.0, 6.0]])
    assert nodes[0].coordinates == (1.0, 2.0, 3.0) and type(nodes[0].coordinates[0]) is float
    assert nodes[1].coordinates == (4.0, 5.0, 6.0) and type(nodes[1].coordinates) is tuple
    before = [n.coordinates for n in nodes]
    with pytest.raises(ValueError, match="must not repeat a node"):
        part.editNode(nodes=[nodes[0], nodes[0]], coordinates=[(0.0, 0.0, 0.0)] * 2)
    with pytest.raises(ValueError, match="must be finite"):
        part.editNode(nodes=nodes[:2], coordinates=[(0.0, 0.0, 0.0), (float("inf"), 0.0, 0.0)])
    with pytest.raises(TypeError, match="sequence of 3 numbers"):
        part.editNode(nodes=nodes[:2], coordinates=[(0.0, 0.0, 0.0), (0.0, 0.0)])
    other = part._model.Part(name="Other")
    stranger = other.Node(coordinates=(0.0, 0.0, 0.0))
    with pytest.raises(ValueError, match="belongs to part 'Other'"):
        part.editNode(nodes=[nodes[0], stranger], coordinates=[(0.0, 0.0, 0.0)] * 2)
    part.deleteNode(nodes[3])
    with pytest.raises(ValueError, match="has been deleted"):
        part.editNode(nodes=[nodes[0], nodes[3]], coordinates=[(0.0, 0.0, 0.0)] * 2)
    assert [n.coordinates for n in nodes] == before
