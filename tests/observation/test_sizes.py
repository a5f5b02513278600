"""L1 + L2 stay bounded: the design request for 188,356 nodes is about as long as for 1,000."""

from __future__ import annotations

from typing import Any

import pytest

from sam_plugin.compilers.protocol import Target
from sam_plugin.runtime.observe.observation import observe
from sam_plugin.runtime.observe.regions import region_index

KB = 1024


def _l1_l2(host: Any, part: Any) -> tuple[str, str]:
    observation = observe(host, "part", Target(model_name="Model-1", part_name=part.name))
    l2 = region_index(part, observation.fingerprint)
    return observation.prompt_json(), l2.model_dump_json()


@pytest.fixture(scope="module")
def big_sizes(big_grid: Any) -> tuple[str, str]:
    from sam_plugin.runtime.host_gateway import HostGateway

    class _Sam:
        mdb = big_grid.db

    return _l1_l2(HostGateway(_Sam()), big_grid.part)


def test_l2_of_the_big_grid_is_at_most_12_kb(big_sizes: tuple[str, str]) -> None:
    _, l2 = big_sizes
    assert len(l2.encode()) <= 12 * KB


def test_l1_plus_l2_of_the_big_grid_is_at_most_16_kb(big_sizes: tuple[str, str]) -> None:
    l1, l2 = big_sizes
    assert len(l1.encode()) + len(l2.encode()) <= 16 * KB


def test_design_context_sizes_differ_by_less_than_20_percent(
    big_sizes: tuple[str, str], db: Any, grid: Any, host: Any
) -> None:
    part = db.models["Model-1"].Part("Hull")
    nodes = grid(part, 25, 40)  # 1,000 nodes
    part.Set("KEEL", nodes=nodes[:25])
    part.Set("STERN", elements=part.elements[:24])
    small = sum(len(text.encode()) for text in _l1_l2(host(db), part))
    large = sum(len(text.encode()) for text in big_sizes)
    assert abs(large - small) / max(large, small) < 0.20, (small, large)
