"""Fixtures for the offline SAM's own tests: a fresh database and session per test."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest


@pytest.fixture
def fresh_sam() -> Iterator[Any]:
    """``sam`` with a new database (``Model-1`` only) and no displayed object."""
    import sam
    from sam.database import Mdb

    saved = sam.mdb
    sam.mdb = Mdb()
    viewport = sam.session.viewports["Viewport: 1"]
    viewport.displayedObject = None
    try:
        yield sam
    finally:
        sam.mdb = saved
        viewport.displayedObject = None


@pytest.fixture
def model(fresh_sam: Any) -> Any:
    return fresh_sam.mdb.models["Model-1"]


@pytest.fixture
def part(model: Any) -> Any:
    return model.Part("Plate")


def grid(part: Any, nx: int, ny: int, spacing: float = 1.0) -> tuple[list[Any], list[Any]]:
    """An nx x ny QUAD grid on z = 0 (node labels row by row from 1)."""
    from samConstants import QUAD

    nodes = [part.Node((i * spacing, j * spacing, 0.0)) for j in range(ny + 1)
             for i in range(nx + 1)]
    elements = []
    for j in range(ny):
        for i in range(nx):
            a = j * (nx + 1) + i
            elements.append(part.Element(
                (nodes[a], nodes[a + 1], nodes[a + nx + 2], nodes[a + nx + 1]), QUAD))
    return nodes, elements


@pytest.fixture
def make_grid() -> Any:
    return grid
