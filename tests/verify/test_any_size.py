"""Above 50,000 entities nothing is sampled: the rest of the part is compared through the
fingerprint, the touched entities one by one (docs/architecture.md §5, I16)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from sam_plugin.compilers.part import MODULE as PART
from sam_plugin.runtime.verify.part_comparison import REST
from sam_plugin.runtime.verify.verifier import all_passed

from .conftest import build_hull, failed, plan_and_run
from .test_every_attribute import TRANSLATE_S

SIDE = 231  # 53,361 nodes, 52,900 QUADs: above the old 50,000-entity exact limit


@pytest.fixture(scope="module")
def big(tmp_path_factory: Any) -> Any:
    """The big hull once for the module; each test restores it from a snapshot."""
    import sam
    from sam.database import Mdb

    saved = sam.mdb
    sam.mdb = Mdb()
    build_hull(sam.mdb.models["Model-1"], SIDE)
    yield sam
    sam.mdb = saved


@pytest.fixture
def hull(big: Any) -> Any:
    from sam_plugin.samops import snapshot

    model = big.mdb.models["Model-1"]
    held = snapshot.take(model, "Hull")
    yield big
    snapshot.restore(model, held)


def _interior_node_moved(part: Any) -> None:
    node = part.nodes.getFromLabel(SIDE * (SIDE // 2) + SIDE // 2)
    x, y, z = node.coordinates
    part.editNode(nodes=[node], coordinates=[(x + 0.5, y + 3.0, z)])


def _connectivity_rotated(part: Any) -> None:
    from sam.mesh import repoint_element  # the offline host's own writer: a host bug

    element = part.elements.getFromLabel(SIDE * SIDE // 2)
    a, b, c, d = element.connectivity
    repoint_element(element, (b, c, d, a))


def _member_dropped(part: Any) -> None:
    keel = list(part.sets["KEEL"].nodes)
    part.Set(name="KEEL", nodes=keel[:-1])


@pytest.mark.parametrize(("tamper", "words"), [
    (_interior_node_moved, "nodes changed: node 26680 at (114.5, 118, 0), was (114, 115, 0)"),
    (_connectivity_rotated, "elements changed: element 26680 is QUAD on nodes"),
    (_member_dropped, "set members changed: node 231 in set KEEL gone"),
])
def test_one_untouched_change_in_a_big_part_fails(hull: Any, tmp_path: Path, tamper: Any,
                                                 words: str) -> None:
    checks = plan_and_run(hull, PART, TRANSLATE_S, tmp_path, "translate set S",
                          tamper=tamper).verify()
    wrong = failed(checks)
    assert REST in wrong, checks
    assert words in wrong[REST].actual
    assert not any("sampled" in c.name for c in checks)


def test_a_faithful_host_passes_a_big_part(hull: Any, tmp_path: Path) -> None:
    checks = plan_and_run(hull, PART, TRANSLATE_S, tmp_path, "translate set S").verify()
    assert all_passed(checks), failed(checks)
