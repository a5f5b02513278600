"""What counts as the planned coordinate comes from the part's size, with a floor of a few ulps
of the coordinate, never from how far the part lies from the origin."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from sam_plugin.compilers.part import MODULE as PART
from sam_plugin.runtime.verify.verifier import all_passed

from .conftest import build_hull, failed, plan_and_run
from .test_every_attribute import TRANSLATE_S

NODES = "nodes match the plan (exact)"


def _shift_a_moved_node(dx: float, dy: float) -> Any:
    def shift(part: Any) -> None:
        node = part.nodes.getFromLabel(1)  # in set S: the plan moves it
        x, y, z = node.coordinates
        part.editNode(nodes=[node], coordinates=[(x + dx, y + dy, z)])
    return shift


def _one_ulp(part: Any) -> None:
    node = part.nodes.getFromLabel(1)
    x, y, z = node.coordinates
    part.editNode(nodes=[node], coordinates=[(float(np.nextafter(x, np.inf)), y, z)])


@pytest.mark.parametrize("x", [0.0, 1e6, 1e8])
def test_a_faithful_host_passes_wherever_the_part_lies(fresh_sam: Any, tmp_path: Path,
                                                       x: float) -> None:
    build_hull(fresh_sam.mdb.models["Model-1"], 12, origin=(x, 0.0, 0.0))
    checks = plan_and_run(fresh_sam, PART, TRANSLATE_S, tmp_path).verify()
    assert all_passed(checks), failed(checks)


@pytest.mark.parametrize(("x", "dy"), [(0.0, 0.5), (1e6, 0.5), (1e8, 50.0), (1e8, 0.5)])
def test_a_shift_far_from_the_origin_is_still_a_shift(fresh_sam: Any, tmp_path: Path, x: float,
                                                      dy: float) -> None:
    build_hull(fresh_sam.mdb.models["Model-1"], 12, origin=(x, 0.0, 0.0))
    checks = plan_and_run(fresh_sam, PART, TRANSLATE_S, tmp_path,
                          tamper=_shift_a_moved_node(0.0, dy)).verify()
    wrong = failed(checks)
    assert NODES in wrong
    assert wrong[NODES].actual.startswith("node 1 at (")


@pytest.mark.parametrize("x", [0.0, 1e6, 1e8])
def test_one_ulp_is_within_the_floor(fresh_sam: Any, tmp_path: Path, x: float) -> None:
    build_hull(fresh_sam.mdb.models["Model-1"], 12, origin=(x, 0.0, 0.0))
    checks = plan_and_run(fresh_sam, PART, TRANSLATE_S, tmp_path, tamper=_one_ulp).verify()
    assert all_passed(checks), failed(checks)
