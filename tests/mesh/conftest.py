"""Mesh test fixtures: a fresh offline SAM and a compile → compose → execute → readback
pipeline that chains predictions exactly as the controller does."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from sam_plugin.compilers.mesh import MODULE
from sam_plugin.compilers.protocol import Target
from tests.support.pipeline import Pipeline, assert_verified, fresh_database

TARGET = Target(model_name="Model-1", part_name="Plate")


fresh_sam = pytest.fixture(fresh_database)


@pytest.fixture
def model(fresh_sam: Any) -> Any:
    return fresh_sam.mdb.models["Model-1"]


def grid(part: Any, nx: int, ny: int, shape: str = "QUAD", spacing: float = 1.0) -> None:
    """An nx x ny grid on z = 0 (node labels row by row from 1); TRI: two per cell."""
    import samConstants

    row = nx + 1
    nodes = [part.Node(coordinates=(i * spacing, j * spacing, 0.0))
             for j in range(ny + 1) for i in range(row)]
    for j in range(ny):
        for i in range(nx):
            a, b, c, d = (nodes[j * row + i], nodes[j * row + i + 1],
                          nodes[(j + 1) * row + i + 1], nodes[(j + 1) * row + i])
            if shape == "QUAD":
                part.Element(nodes=(a, b, c, d), elemShape=samConstants.QUAD)
            else:
                part.Element(nodes=(a, b, c), elemShape=samConstants.TRI)
                part.Element(nodes=(a, c, d), elemShape=samConstants.TRI)


@pytest.fixture
def plate(model: Any) -> Any:
    return model.Part(name="Plate")


@pytest.fixture
def pipeline(fresh_sam: Any, tmp_path: Path) -> Pipeline:
    return Pipeline(MODULE, fresh_sam, tmp_path, TARGET)


@pytest.fixture
def verified() -> Any:
    return assert_verified


@pytest.fixture
def make_grid() -> Any:
    return grid
