"""repair_part merge of coincident nodes on 50k and on 200k nodes: linear, not quadratic.

Each part is a QUAD plate built twice on top of itself (so every node has a coincident
twin); the compiled repair_part script merges them through the host. Last line:
``ratio=<t200k/t50k> goal<=5`` (4x the nodes; quadratic would be ~16). Puts ``stubs/`` on
sys.path explicitly.
"""

from __future__ import annotations

import gc
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "stubs"))
sys.path.insert(0, str(ROOT))

import sam  # noqa: E402
from sam.database import Mdb  # noqa: E402
from samConstants import QUAD  # noqa: E402

from sam_plugin.compilers.composer import compose  # noqa: E402
from sam_plugin.compilers.evidence import Prediction  # noqa: E402
from sam_plugin.compilers.part import MODULE  # noqa: E402
from sam_plugin.compilers.protocol import CompileContext, Target  # noqa: E402
from sam_plugin.runtime.host_gateway import HostGateway  # noqa: E402

TARGET = Target(model_name="Model-1", part_name="Plate")


def doubled_plate(nodes_total: int) -> None:
    """Two coincident copies of an n x n-node plate: ``nodes_total`` nodes in all."""
    sam.mdb = Mdb()
    part = sam.mdb.models["Model-1"].Part(name="Plate")
    side = int(round((nodes_total / 2) ** 0.5))
    for _copy in range(2):
        nodes = [part.Node(coordinates=(float(i), float(j), 0.0))
                 for j in range(side) for i in range(side)]
        for j in range(side - 1):
            for i in range(side - 1):
                a = j * side + i
                part.Element(nodes=(nodes[a], nodes[a + 1], nodes[a + side + 1],
                                    nodes[a + side]), elemShape=QUAD)


def timed_merge(nodes_total: int, out: Path) -> tuple[float, int, int]:
    doubled_plate(nodes_total)
    gateway = HostGateway(sam)
    before = len(gateway.part(TARGET).nodes)
    gc.collect()  # start both sizes from a collected heap, not mid-way through a GC cycle
    started = time.perf_counter()
    readback = gateway.readback(TARGET, with_fingerprint=False)
    # Chained like a real run after a transform: the compiler predicts a range, no scan.
    state = Prediction.from_readback(readback).model_copy(update={"geometry_unchanged": False})
    ctx = CompileContext(request_text="merge coincident nodes", target=TARGET, state=state,
                         model=gateway.model("Model-1"), part=gateway.part(TARGET))
    fragment = MODULE.compile("repair_part", {"merge_coincident_nodes": {"tolerance": 1e-6}},
                              ctx)
    receipt = gateway.execute(compose([fragment]).text, TARGET, out)
    elapsed = time.perf_counter() - started
    assert receipt.status == "PASS", receipt.traceback
    after = len(gateway.part(TARGET).nodes)
    assert after * 2 == before, (before, after)
    return elapsed, before, after


def main() -> None:
    # Interleaved rounds, best of each: the machine is shared, so load drifts during a run.
    smalls, larges = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(3):
            smalls.append(timed_merge(50_000, Path(tmp)))
            larges.append(timed_merge(200_000, Path(tmp)))
    small, large = min(smalls), min(larges)
    print(f"merge {small[1]} -> {small[2]} nodes: {small[0]:.3f} s")
    print(f"merge {large[1]} -> {large[2]} nodes: {large[0]:.3f} s")
    print(f"ratio={large[0] / small[0]:.2f} goal<=5")


if __name__ == "__main__":
    main()
