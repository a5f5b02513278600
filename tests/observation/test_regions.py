"""L2 region index: exact contents on small parts, bounds on any part, cache by fingerprint."""

from __future__ import annotations

import math
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from samConstants import BEAM, TRI

from sam_plugin.runtime.observe.region_grid import grid_divisions
from sam_plugin.runtime.observe.region_schema import DEFAULT_GRID_CELLS
from sam_plugin.runtime.observe.regions import (
    RegionIndexCache,
    build_region_index,
    region_index,
)


def test_single_plate_index_is_exact(model: Any, grid: Any) -> None:
    part = model.Part("Plate")
    grid(part, 4, 3)
    index = build_region_index(part, "fp-1")
    assert (index.nodes, index.elements, index.free_nodes) == (12, 6, 0)
    assert index.bbox == ((0.0, 0.0, 0.0), (30.0, 20.0, 0.0))
    assert (index.node_labels, index.element_labels) == ((1, 12), (1, 6))
    assert index.longest_axis == "x"
    assert index.components_total == 1
    (component,) = index.components
    assert component.model_dump() == {
        "id": 1, "nodes": 12, "elements": 6, "bbox": ((0.0, 0.0, 0.0), (30.0, 20.0, 0.0)),
        "node_labels": (1, 12), "element_labels": (1, 6), "shapes": {"QUAD": 6},
    }
    assert [s.model_dump() for s in index.shapes] == [
        {"shape": "QUAD", "elements": 6, "bbox": ((0.0, 0.0, 0.0), (30.0, 20.0, 0.0)),
         "element_labels": (1, 6)}]
    # 11 stations over x = 0..30 (pitch 3): the node columns x = 0, 10, 20, 30 fall on
    # stations 0, 3, 7 and 10; an element counts at the station of its first node
    stations = index.stations
    assert stations is not None and stations.axis == "x"
    assert [s.at for s in stations.stations] == [float(3 * i) for i in range(11)]
    assert [s.nodes for s in stations.stations] == [3, 0, 0, 3, 0, 0, 0, 3, 0, 0, 3]
    assert [s.elements for s in stations.stations] == [2, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0]
    assert stations.stations[3].bbox == ((10.0, 0.0, 0.0), (10.0, 20.0, 0.0))
    assert stations.stations[0].span == (0.0, 1.5)
    assert stations.stations[1].bbox is None
    grid_index = index.grid
    assert grid_index is not None
    assert math.prod(grid_index.divisions) <= DEFAULT_GRID_CELLS
    assert grid_index.divisions[2] == 1  # a flat part gets one cell across its thickness
    assert sum(c[3] for c in grid_index.cells) == 12
    assert sum(c[4] for c in grid_index.cells) == 6
    assert index.notes == []


def test_components_free_nodes_and_label_ranges(model: Any, grid: Any) -> None:
    part = model.Part("Two")
    grid(part, 3, 3)  # nodes 1..9, elements 1..4
    grid(part, 2, 2, origin=(100.0, 0.0, 0.0))  # nodes 10..13, element 5
    part.Node(coordinates=(500.0, 0.0, 0.0))  # a free node, 14
    index = build_region_index(part, "fp")
    assert index.components_total == 2
    assert index.free_nodes == 1
    assert [c.model_dump() for c in index.components] == [
        {"id": 1, "nodes": 9, "elements": 4, "bbox": ((0.0, 0.0, 0.0), (20.0, 20.0, 0.0)),
         "node_labels": (1, 9), "element_labels": (1, 4), "shapes": {"QUAD": 4}},
        {"id": 2, "nodes": 4, "elements": 1,
         "bbox": ((100.0, 0.0, 0.0), (110.0, 10.0, 0.0)),
         "node_labels": (10, 13), "element_labels": (5, 5), "shapes": {"QUAD": 1}},
    ]
    assert index.bbox == ((0.0, 0.0, 0.0), (500.0, 20.0, 0.0))
    # the shape extent covers element nodes only, not the free node
    assert index.shapes[0].bbox == ((0.0, 0.0, 0.0), (110.0, 20.0, 0.0))


def test_mixed_shapes_and_sets(model: Any, grid: Any) -> None:
    part = model.Part("Mixed")
    nodes = grid(part, 2, 2)  # QUAD 1 on nodes 1..4
    top = part.Node(coordinates=(5.0, 20.0, 0.0))  # 5
    tri = part.Element(nodes=(nodes[2], nodes[3], top), elemShape=TRI)  # element 2
    tip = part.Node(coordinates=(5.0, 20.0, 30.0))  # 6
    part.Element(nodes=(top, tip), elemShape=BEAM)  # element 3
    part.Set("POST", elements=part.elements.sequenceFromLabels([3]))
    part.Set("BASE", nodes=nodes[:2])
    part.Set("EMPTY")
    index = build_region_index(part, "fp")
    assert [(s.shape, s.elements, s.bbox, s.element_labels) for s in index.shapes] == [
        ("BEAM", 1, ((5.0, 20.0, 0.0), (5.0, 20.0, 30.0)), (3, 3)),
        ("QUAD", 1, ((0.0, 0.0, 0.0), (10.0, 10.0, 0.0)), (1, 1)),
        ("TRI", 1, ((0.0, 10.0, 0.0), (10.0, 20.0, 0.0)), (tri.label, tri.label)),
    ]
    assert index.components[0].shapes == {"BEAM": 1, "QUAD": 1, "TRI": 1}
    assert index.longest_axis == "z"
    assert index.sets_total == 3
    assert [s.model_dump() for s in index.sets] == [
        {"name": "POST", "nodes": 0, "elements": 1,
         "bbox": ((5.0, 20.0, 0.0), (5.0, 20.0, 30.0))},
        {"name": "BASE", "nodes": 2, "elements": 0, "bbox": ((0.0, 0.0, 0.0), (10.0, 0.0, 0.0))},
        {"name": "EMPTY", "nodes": 0, "elements": 0, "bbox": None},
    ]


def test_empty_part_index(model: Any) -> None:
    index = build_region_index(model.Part("Empty"), "fp")
    assert (index.nodes, index.elements, index.bbox, index.grid, index.stations) == (
        0, 0, None, None, None)
    assert index.notes == ["the part has no nodes"]


def test_cache_by_fingerprint(model: Any, grid: Any) -> None:
    part = model.Part("Plate")
    grid(part, 3, 3)
    cache = RegionIndexCache(size=2)
    first = region_index(part, "fp-a", cache=cache)
    assert region_index(part, "fp-a", cache=cache) is first
    grid(part, 2, 2, origin=(0.0, 0.0, 50.0))
    second = region_index(part, "fp-b", cache=cache)
    assert second is not first and second.nodes == 13
    region_index(part, "fp-c", cache=cache)
    assert cache.get("fp-a") is None  # evicted, least recently used first
    assert cache.get("fp-b") is second


def test_grid_divisions_respect_budget() -> None:
    assert grid_divisions((100.0, 100.0, 0.0), 64) == (8, 8, 1)
    assert grid_divisions((0.0, 0.0, 0.0), 64) == (1, 1, 1)
    long_hull = grid_divisions((10000.0, 1000.0, 800.0), 64)
    assert math.prod(long_hull) <= 64 and long_hull[0] > long_hull[1] >= long_hull[2]


def _reference_components(part: Any) -> list[int]:
    """Element counts of the components, by breadth-first search (largest first)."""
    by_node: dict[int, list[Any]] = {}
    for element in part.elements:
        for label in element.connectivity:
            by_node.setdefault(label, []).append(element)
    seen: set[int] = set()
    sizes = []
    for element in part.elements:
        if element.label in seen:
            continue
        seen.add(element.label)
        queue, count = [element], 0
        while queue:
            current = queue.pop()
            count += 1
            for label in current.connectivity:
                for other in by_node[label]:
                    if other.label not in seen:
                        seen.add(other.label)
                        queue.append(other)
        sizes.append(count)
    return sorted(sizes, reverse=True)


@settings(max_examples=40, deadline=None)
@given(
    points=st.lists(st.tuples(*[st.floats(-1e4, 1e4, allow_nan=False)] * 3), min_size=2,
                    max_size=60, unique=True),
    picks=st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 10**6)), max_size=40),
    budget=st.integers(1, 100),
)
def test_index_is_bounded_and_counts_add_up(points: list[Any], picks: list[Any],
                                            budget: int) -> None:
    from sam.database import Mdb

    part = Mdb().models["Model-1"].Part("Random")
    nodes = [part.Node(coordinates=p) for p in points]
    for a, b in picks:
        first, second = nodes[a % len(nodes)], nodes[b % len(nodes)]
        if first is not second:
            part.Element(nodes=(first, second), elemShape=BEAM)
    index = build_region_index(part, "fp", grid_cells=budget)
    assert index.grid is not None
    assert math.prod(index.grid.divisions) <= budget
    assert sum(c[3] for c in index.grid.cells) == len(nodes)
    assert sum(c[4] for c in index.grid.cells) == len(part.elements)
    if index.stations is not None:
        assert sum(s.nodes for s in index.stations.stations) == len(nodes)
        assert sum(s.elements for s in index.stations.stations) == len(part.elements)
    reference = _reference_components(part)
    assert index.components_total == len(reference)
    assert [c.elements for c in index.components] == reference[:12]
    meshed = {label for e in part.elements for label in e.connectivity}
    assert index.free_nodes == len(nodes) - len(meshed)
    assert len(index.model_dump_json()) <= 12_000


def test_quad_count_of_the_big_grid(big_grid: Any) -> None:
    index = build_region_index(big_grid.part, "fp")
    assert (index.nodes, index.elements, index.components_total) == (188_356, 187_489, 1)
    assert index.shapes[0].shape == "QUAD" and index.shapes[0].elements == 187_489
    assert [s.name for s in index.sets] == ["KEEL", "STERN"]
    assert index.sets[0].bbox == ((0.0, 0.0, 0.0), (4330.0, 0.0, 0.0))
    assert index.sets[1].bbox == ((0.0, 0.0, 0.0), (4330.0, 10.0, 0.0))
    assert sum(c[3] for c in index.grid.cells) == 188_356  # type: ignore[union-attr]



def test_many_sets_and_components_are_capped_with_notes(model: Any, grid: Any) -> None:
    part = model.Part("Pieces")
    for piece in range(30):
        grid(part, 2, 2, origin=(100.0 * piece, 0.0, 0.0))
    for number in range(40):
        part.Set(f"S{number:02d}", nodes=part.nodes.sequenceFromLabels([4 * number % 120 + 1]))
    index = build_region_index(part, "fp")
    assert (index.components_total, len(index.components)) == (30, 12)
    assert (index.sets_total, len(index.sets)) == (40, 24)
    assert index.notes == [
        "sets: the first 24 of 40 are listed; query_regions(section='sets', names=[...]) shows "
        "others",
        "components: the 12 largest of 30 are listed",
    ]
    # equal components are ranked by their lowest node label
    assert [c.node_labels for c in index.components[:2]] == [(1, 4), (5, 8)]
    assert len(index.model_dump_json()) <= 12_000


def test_a_hull_like_shell_has_stations_along_its_length(model: Any) -> None:
    from samConstants import QUAD

    part = model.Part("Hull")
    rings = []
    for i in range(11):  # x = 0..1000, a half-cylinder of radius 50 below the deck
        ring = []
        for k in range(7):
            angle = math.pi * k / 6
            ring.append(part.Node(coordinates=(100.0 * i, 50.0 * math.cos(angle),
                                               -50.0 * math.sin(angle))))
        rings.append(ring)
    for i in range(10):
        for k in range(6):
            part.Element(nodes=(rings[i][k], rings[i + 1][k], rings[i + 1][k + 1],
                                rings[i][k + 1]), elemShape=QUAD)
    index = build_region_index(part, "fp")
    assert index.longest_axis == "x"
    stations = index.stations
    assert stations is not None
    assert [s.at for s in stations.stations] == [100.0 * i for i in range(11)]
    assert all(s.nodes == 7 for s in stations.stations)
    assert stations.stations[5].bbox == ((500.0, -50.0, -50.0), (500.0, 50.0, 0.0))
    assert index.grid is not None and index.grid.divisions[0] > index.grid.divisions[1]
