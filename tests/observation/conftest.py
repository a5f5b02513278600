"""Parts for the observation tests, built through the offline SAM's public API."""

from __future__ import annotations

from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import pytest

BIG_N = 434  # 434 x 434 = 188,356 nodes


def build_grid(part: Any, nx: int, ny: int, spacing: float = 10.0,
               origin: tuple[float, float, float] = (0.0, 0.0, 0.0)) -> list[Any]:
    """An nx x ny node QUAD grid in the z = origin plane; returns the nodes row by row."""
    from samConstants import QUAD

    ox, oy, oz = origin
    nodes = [part.Node(coordinates=(ox + i * spacing, oy + j * spacing, oz))
             for j in range(ny) for i in range(nx)]
    for j in range(ny - 1):
        for i in range(nx - 1):
            a = j * nx + i
            part.Element(nodes=(nodes[a], nodes[a + 1], nodes[a + nx + 1], nodes[a + nx]),
                         elemShape=QUAD)
    return nodes


def new_db() -> Any:
    from sam.database import Mdb

    return Mdb()


@pytest.fixture
def db() -> Any:
    return new_db()


@pytest.fixture
def model(db: Any) -> Any:
    return db.models["Model-1"]


@pytest.fixture
def grid() -> Callable[..., list[Any]]:
    return build_grid


def host_for(db: Any) -> Any:
    """A HostGateway over ``db`` (what observation.py's L0/L1 reads through)."""
    from sam_plugin.runtime.host_gateway import HostGateway

    return HostGateway(SimpleNamespace(mdb=db))


@pytest.fixture
def host() -> Callable[[Any], Any]:
    return host_for


@pytest.fixture(scope="session")
def big_grid() -> Any:
    """The 434 x 434 node grid part (188,356 nodes), built once per session, never modified."""
    db = new_db()
    part = db.models["Model-1"].Part("Hull")
    nodes = build_grid(part, BIG_N, BIG_N)
    part.Set("KEEL", nodes=nodes[:BIG_N])
    part.Set("STERN", elements=part.elements[:433])
    return SimpleNamespace(db=db, model=db.models["Model-1"], part=part)
