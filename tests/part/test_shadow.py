"""The shadow part keeps the host semantics of docs/architecture.md §3, and doubts what §3
leaves open."""

from __future__ import annotations

import math
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sam_plugin.errors import ShadowDoubt
from sam_plugin.samops import part_repair, part_transform
from sam_plugin.samops.part_shadow import ShadowPart, close_pairs


def _square(part: Any) -> list[Any]:
    from samConstants import QUAD

    nodes = [part.Node(coordinates=p) for p in ((0, 0, 0), (1, 0, 0), (1, 1, 0), (0, 1, 0))]
    part.Element(nodes=tuple(nodes), elemShape=QUAD)
    return nodes


def _state(part: Any) -> tuple:
    return (sorted((n.label, tuple(round(c, 9) for c in n.coordinates)) for n in part.nodes),
            sorted((e.label, str(e.type), tuple(e.connectivity)) for e in part.elements),
            sorted((name, sorted(e.label for e in (part.sets[name].elements or ())))
                   for name in part.sets.keys()))


def test_labels_count_up_and_are_never_reused() -> None:
    part = ShadowPart("P")
    nodes = _square(part)
    part.deleteNode(nodes=[nodes[3]])
    assert len(part.elements) == 0  # the QUAD used node 4: it went too
    assert part.Node(coordinates=(5, 5, 5)).label == 5
    from samConstants import BEAM

    assert part.Element(nodes=(nodes[0], nodes[1]), elemShape=BEAM).label == 2


def test_delete_element_keeps_nodes_and_sets_are_live_views() -> None:
    from samConstants import OFF

    part = ShadowPart("P")
    _square(part)
    part.Set(name="S", elements=part.elements)
    part.deleteElement(elements=list(part.elements), deleteUnreferencedNodes=OFF)
    assert (len(part.nodes), len(part.elements), len(part.sets["S"].elements)) == (4, 0, 0)


def test_element_rules_are_the_hosts() -> None:
    from samConstants import QUAD

    part = ShadowPart("P")
    a, b, c, _ = _square(part)
    with pytest.raises(TypeError, match="elemShape must be QUAD, TRI or BEAM"):
        part.Element(nodes=(a, b, c), elemShape="TRI")
    with pytest.raises(ValueError, match="a QUAD element needs exactly 4 nodes; got 3"):
        part.Element(nodes=(a, b, c), elemShape=QUAD)


def test_clean_merge_keeps_the_lowest_label_and_drops_duplicates() -> None:
    part = ShadowPart("P")
    _square(part)
    part_transform.apply(part, [{"op": "translate_copy", "vector": (0, 0, 0),
                                 "selection": {"by": "all"}}])
    part.mergeNodes(nodes=part.nodes, tolerance=1e-6, removeDuplicateElements=True)
    assert [n.label for n in part.nodes] == [1, 2, 3, 4]
    assert [(e.label, e.connectivity) for e in part.elements] == [(1, (1, 2, 3, 4))]


def test_a_chain_of_nodes_within_tolerance_is_doubted() -> None:
    part = ShadowPart("P")
    for x in (0.0, 0.6, 1.2):
        part.Node(coordinates=(x, 0, 0))
    with pytest.raises(ShadowDoubt, match=r"\(a chain\): the host may group them differently"):
        part.mergeNodes(nodes=part.nodes, tolerance=1.0)


def test_a_distance_at_the_tolerance_is_doubted() -> None:
    part = ShadowPart("P")
    part.Node(coordinates=(0, 0, 0))
    part.Node(coordinates=(1, 0, 0))
    with pytest.raises(ShadowDoubt, match="nodes 1 and 2 lie at the merge tolerance itself"):
        part.mergeNodes(nodes=part.nodes, tolerance=1.0)


coordinate = st.integers(-6, 6).map(lambda k: k / 4)


@settings(max_examples=60, deadline=None)
@given(points=st.lists(st.tuples(coordinate, coordinate, coordinate), max_size=40),
       reach=st.sampled_from([0.1, 0.3, 0.5, 1.0]))
def test_close_pairs_match_brute_force(points: list, reach: float) -> None:
    try:
        found = {(i, j) for i, j, _ in close_pairs(points, reach)}
    except ShadowDoubt:
        return  # a dense blob: the caller keeps ranges
    expected = {(i, j) for i in range(len(points)) for j in range(i + 1, len(points))
                if math.dist(points[i], points[j]) <= reach}
    assert found == expected


vector = st.tuples(*[st.integers(-2, 2).map(float)] * 3)
selection = st.sampled_from([{"by": "all"}, {"by": "shape", "shape": "QUAD"},
                             {"by": "set", "name": "Left"},
                             {"by": "box", "min": (0, 0, -1), "max": (1, 2, 1)}])
operation = st.one_of(
    st.fixed_dictionaries({"op": st.just("translate"), "vector": vector,
                           "selection": selection}),
    st.fixed_dictionaries({"op": st.just("mirror"), "origin": vector,
                           "normal": st.sampled_from([(1.0, 0, 0), (0, 0, 1.0)]),
                           "copy": st.booleans(), "selection": selection}),
    st.fixed_dictionaries({"op": st.just("translate_copy"), "vector": vector,
                           "selection": selection}),
    st.fixed_dictionaries({"op": st.just("linear_array"), "vector": vector,
                           "count": st.integers(2, 3), "selection": selection}),
)


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops=st.lists(operation, min_size=1, max_size=3), duplicates=st.booleans(),
       free=st.booleans())
def test_shadow_and_stub_end_in_the_same_state(fresh_sam: Any, ops: list, duplicates: bool,
                                                free: bool) -> None:
    """The same samops mutations on the offline SAM and on a shadow copy agree exactly."""
    from sam.database import Mdb

    fresh_sam.mdb = Mdb()
    part = fresh_sam.mdb.models["Model-1"].Part(name="P")
    _square(part)
    part_transform.apply(part, [{"op": "linear_array", "vector": (1.0, 0, 0), "count": 2,
                                 "selection": {"by": "all"}}])
    part.Set(name="Left", elements=part.elements[0:1])
    # the shadow holds the host's entities (copy on write): it predicts before the host runs
    shadow = ShadowPart.copy_of(part)
    assert _state(shadow) == _state(part)
    part_transform.apply(shadow, ops)
    predicted = _state(shadow)
    part_transform.apply(part, ops)
    assert predicted == _state(part)
    shadow = ShadowPart.copy_of(part)
    try:
        part_repair.repair(shadow, True, 1e-3, duplicates, free)
    except ShadowDoubt:
        return
    predicted = _state(shadow)
    part_repair.repair(part, True, 1e-3, duplicates, free)
    assert predicted == _state(part)


def test_labels_a_shadow_creates_after_deleting_everything_are_new(fresh_sam: Any) -> None:
    """The host never reuses a label: after clear_all the new nodes count on from the part's
    highest label, and the shadow says they are new, not the deleted ones back."""
    from sam.database import Mdb

    from sam_plugin.samops import part_ops

    fresh_sam.mdb = Mdb()
    part = fresh_sam.mdb.models["Model-1"].Part(name="P")
    _square(part)
    shadow = ShadowPart.copy_of(part)
    part_ops.clear_all(shadow)
    made = shadow.Node(coordinates=(5.0, 5.0, 0.0))
    assert made.label == 5
    assert shadow.created_nodes == {5} and shadow.changed_nodes == {1, 2, 3, 4}
