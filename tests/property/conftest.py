"""Property test fixtures: a fresh offline SAM and a compile → compose → execute → readback
pipeline that chains predictions exactly as the controller does."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from sam_plugin.compilers.property import MODULE
from sam_plugin.compilers.protocol import Target
from tests.support.pipeline import Pipeline, assert_verified, fresh_database

TARGET = Target(model_name="Model-1", part_name="Frame")


fresh_sam = pytest.fixture(fresh_database)


@pytest.fixture
def model(fresh_sam: Any) -> Any:
    return fresh_sam.mdb.models["Model-1"]


def build_frame(model: Any) -> Any:
    """Part ``Frame``: a 2 x 1 QUAD plate (elements 1, 2), one TRI (3) beside it and two BEAM
    elements (4 along x, 5 along z) standing on the plate."""
    from samConstants import BEAM, QUAD, TRI

    part = model.Part(name="Frame")
    n = [part.Node(coordinates=c) for c in [
        (0.0, 0.0, 0.0), (1.0, 0.0, 0.0), (2.0, 0.0, 0.0),
        (0.0, 1.0, 0.0), (1.0, 1.0, 0.0), (2.0, 1.0, 0.0),
        (3.0, 0.0, 0.0), (0.0, 0.0, 1.0),
    ]]
    part.Element(nodes=(n[0], n[1], n[4], n[3]), elemShape=QUAD)
    part.Element(nodes=(n[1], n[2], n[5], n[4]), elemShape=QUAD)
    part.Element(nodes=(n[2], n[6], n[5]), elemShape=TRI)
    part.Element(nodes=(n[0], n[1]), elemShape=BEAM)
    part.Element(nodes=(n[0], n[7]), elemShape=BEAM)
    return part


@pytest.fixture
def frame(model: Any) -> Any:
    return build_frame(model)


@pytest.fixture
def pipeline(fresh_sam: Any, tmp_path: Path) -> Pipeline:
    return Pipeline(MODULE, fresh_sam, tmp_path, TARGET)


@pytest.fixture
def verified() -> Any:
    return assert_verified
