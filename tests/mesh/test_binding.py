"""Binding Mesh calls to the spec (docs/architecture.md §4 "The spec", I15): refine's scope
width and levels on a 2 x 2 QUAD grid (elements 1..4)."""

from __future__ import annotations

import pytest

from tests.support.specs import ALL, box, contradictions, labels, spec, step


@pytest.fixture
def grid2(plate, make_grid):
    make_grid(plate, 2, 2)
    return plate


@pytest.mark.parametrize(("scope", "selection", "levels", "binds"), [
    (labels(1), labels(1), 1, True),
    (labels(1), labels(1), 2, False),
    (labels(1, 2), box([0, 0, 0], [2, 1, 0]), 1, True),  # the bottom row: elements 1, 2
    (labels(1), ALL, 1, False),
    (ALL, labels(3), 1, True),
])
def test_refine(grid2, pipeline, scope, selection, levels, binds):
    the_spec = spec(step("refine", scope, mode="mesh", levels=1), mode="mesh")
    found = contradictions(pipeline, the_spec,
                           [("refine_mesh", {"selection": selection, "levels": levels})])
    assert (found == []) is binds, found


def test_audit_step_needs_its_call(grid2, pipeline):
    the_spec = spec(step("refine", ALL, mode="mesh", levels=1), step("audit", mode="mesh"),
                    mode="mesh")
    found = contradictions(pipeline, the_spec,
                           [("refine_mesh", {"selection": ALL, "levels": 1})])
    assert found == ["step 2 says audit the mesh; no call carries it out"]
