"""Compile + execute a 300 x 300 QUAD build_part versus a hand-written direct API loop.

Both build the same mesh (90,601 nodes, 90,000 QUADs) against the offline SAM in one run.
Last line: ``ratio=<compiled/direct> goal<=1.5``. Puts ``stubs/`` on sys.path explicitly.
"""

from __future__ import annotations

import gc
import os
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

SMOKE = os.environ.get("BENCH_SMOKE") == "1"  # CI: the smallest size, fewest repeats
N = 60 if SMOKE else 300
REPEATS = 1 if SMOKE else 3
SIZE = 3000.0
TARGET = Target(model_name="Model-1", part_name="Plate")


def direct() -> tuple[float, int, int]:
    sam.mdb = Mdb()
    # Same footing as the gateway, which pauses the cyclic collector while a script runs.
    gc.disable()
    try:
        return _direct_loop()
    finally:
        gc.enable()


def _direct_loop() -> tuple[float, int, int]:
    started = time.perf_counter()
    part = sam.mdb.models["Model-1"].Part(name="Plate")
    step = SIZE / N
    nodes = [part.Node(coordinates=(i * step, j * step, 0.0))
             for j in range(N + 1) for i in range(N + 1)]
    row = N + 1
    for j in range(N):
        for i in range(N):
            a = j * row + i
            part.Element(nodes=(nodes[a], nodes[a + 1], nodes[a + row + 1], nodes[a + row]),
                         elemShape=QUAD)
    elapsed = time.perf_counter() - started
    return elapsed, len(part.nodes), len(part.elements)


def compiled(out: Path) -> tuple[float, int, int]:
    sam.mdb = Mdb()
    gateway = HostGateway(sam)
    started = time.perf_counter()
    before = gateway.readback(TARGET, with_fingerprint=False)
    ctx = CompileContext(request_text="build a 3000 x 3000 plate meshed 300 x 300 QUAD",
                         target=TARGET, state=Prediction.from_readback(before),
                         model=gateway.model("Model-1"), part=gateway.part(TARGET))
    fragment = MODULE.compile("build_part", {"patches": [{
        "id": "P", "shape": "QUAD", "divisions": [N, N],
        "corners": [[0, 0, 0], [SIZE, 0, 0], [SIZE, SIZE, 0], [0, SIZE, 0]]}]}, ctx)
    script = compose([fragment])
    receipt = gateway.execute(script.text, TARGET, out)
    elapsed = time.perf_counter() - started
    assert receipt.status == "PASS", receipt.traceback
    part = gateway.part(TARGET)
    assert fragment.evidence.node_count.contains(len(part.nodes))
    return elapsed, len(part.nodes), len(part.elements)


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        runs_direct, runs_compiled = [], []
        for _ in range(REPEATS):
            runs_direct.append(direct())
            runs_compiled.append(compiled(Path(tmp)))
    t_direct = min(r[0] for r in runs_direct)
    t_compiled = min(r[0] for r in runs_compiled)
    assert runs_direct[0][1:] == runs_compiled[0][1:] == ((N + 1) ** 2, N * N)
    print(f"mesh: {(N + 1) ** 2} nodes, {N * N} QUAD elements (best of {REPEATS})")
    print(f"direct API loop:     {t_direct:.3f} s")
    print(f"compile + execute:   {t_compiled:.3f} s")
    print(f"ratio={t_compiled / t_direct:.2f} goal<=1.5")


if __name__ == "__main__":
    main()
