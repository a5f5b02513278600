"""Pure geometry shared by compilers and scripts: spatial hash, patch and line expansion."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from sam_plugin.samops.geometry import (
    PointIndex,
    line_points,
    patch_cells,
    patch_points,
    size_tolerance,
)
from sam_plugin.samops.mesh_plan import plan_mesh

TOL = 0.01
near = st.floats(-0.2, 0.2).map(lambda v: round(v / (TOL / 4)) * (TOL / 4))
points = st.lists(st.tuples(near, near, near), min_size=1, max_size=40)


@settings(max_examples=60, deadline=None)
@given(stored=points, query=st.tuples(near, near, near))
def test_find_matches_brute_force(stored: list, query: tuple) -> None:
    _find_matches_brute_force(stored, query)


def test_a_point_exactly_at_the_tolerance_across_a_cell_border_is_found() -> None:
    _find_matches_brute_force([(0.0, 0.0, 0.0)], (0.0, 0.0, -TOL))


def _find_matches_brute_force(stored: list, query: tuple) -> None:
    index = PointIndex(TOL)
    for p in stored:
        index.add(p)
    expected = [i for i, p in enumerate(stored) if math.dist(p, query) <= TOL]
    found = index.find(query)
    assert found == (min(expected) if expected else None)


def test_patch_points_follow_the_bilinear_map() -> None:
    corners = ((0.0, 0.0, 0.0), (4.0, 0.0, 0.0), (5.0, 3.0, 1.0), (0.0, 2.0, 0.0))
    grid = patch_points(corners, 2, 2)
    assert grid[0] == corners[0] and grid[2] == corners[1]
    assert grid[8] == corners[2] and grid[6] == corners[3]
    assert grid[4] == (2.25, 1.25, 0.25)  # centre = mean of the corners
    assert patch_cells(2, 1, "QUAD") == [(0, 1, 4, 3), (1, 2, 5, 4)]
    assert patch_cells(1, 1, "TRI") == [(0, 1, 3), (0, 3, 2)]


def test_plan_merges_shared_edges_and_keeps_first_labels_first() -> None:
    left = ("A", "QUAD", ((0, 0, 0), (1, 0, 0), (1, 1, 0), (0, 1, 0)), (1, 1))
    right = ("B", "QUAD", ((1, 0, 0), (2, 0, 0), (2, 1, 0), (1, 1, 0)), (1, 1))
    plan = plan_mesh((), (), (left, right), (("L", (0, 0, 0), (0, 0, 2), 2),), 1e-6)
    assert len(plan.points) == 6 + 2
    assert plan.cells[1] == (1, 4, 5, 3)  # shares points 1 (1,0,0) and 3 (1,1,0)
    assert plan.cells_of(["L"]) == [2, 3] and plan.cells[2] == (0, 6)
    assert line_points((0, 0, 0), (0, 0, 2), 2)[1] == (0.0, 0.0, 1.0)


def test_size_tolerance_is_relative_to_the_model() -> None:
    assert size_tolerance([(0, 0, 0), (3000, 4000, 0)]) == 5e-3
    assert size_tolerance([(0, 0, 0)]) == 1e-6
    assert size_tolerance([]) == 1e-6
