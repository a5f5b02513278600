"""Offline SAM at the seed's scale: a 434 x 434 node grid (188,356 nodes, 187,489 QUADs).

The stub builds the grid through ``Part.Node``/``Part.Element``, saves it with
``mdb.saveAs``, opens it with ``openMdb`` and iterates nodes and elements; the baseline does
the same work with plain tuples and dicts, written and read with the same JSON codec the
stub uses (pydantic-core), so the ratio measures the stub's own overhead. Both run in
this process, side by side, alternating for a few rounds; each step's best round counts.

Run: ``.venv/bin/python bench/stub_scale.py``. This script puts ``stubs/`` on ``sys.path``
itself (the stub is never installed). The last line is ``ratio=<stub/baseline> goal<=3``.
"""

from __future__ import annotations

import gc
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "stubs"))

import pydantic_core  # noqa: E402
import sam  # noqa: E402
import sam.database  # noqa: E402
from samConstants import QUAD  # noqa: E402

SMOKE = os.environ.get("BENCH_SMOKE") == "1"  # CI: the smallest size, fewest repeats
N = 64 if SMOKE else 434  # nodes per side
GOAL = 3.0
ROUNDS = 1 if SMOKE else 3
STEPS = ("build", "save", "load", "iterate")
NODE_COUNT = {"QUAD": 4, "TRI": 3, "BEAM": 2}


def _timed(label: str, times: dict[str, float], action: Callable[[], Any]) -> Any:
    gc.collect()
    # CPU time, not wall time: the machine is shared, and wall time swings with its load
    start = time.process_time()
    result = action()
    times[label] = time.process_time() - start
    return result


def stub_build() -> Any:
    model = sam.mdb.models["Model-1"]
    part = model.Part("Grid")
    node = part.Node
    nodes = [node((float(i), float(j), 0.0)) for j in range(N) for i in range(N)]
    element = part.Element
    for j in range(N - 1):
        row = j * N
        for i in range(N - 1):
            a = row + i
            element((nodes[a], nodes[a + 1], nodes[a + N + 1], nodes[a + N]), QUAD)
    return part


def stub_iterate(part: Any) -> tuple[int, float, int]:
    count = 0
    total = 0.0
    for node in part.nodes:
        count += node.label
        total += node.coordinates[0]
    quads = 0
    for element in part.elements:
        if str(element.type) == "QUAD":
            quads += len(element.connectivity)
    return count, total, quads


def baseline_build() -> dict[str, Any]:
    nodes: dict[int, tuple[float, float, float]] = {}
    label = 1
    for j in range(N):
        for i in range(N):
            nodes[label] = (float(i), float(j), 0.0)
            label += 1
    elements: dict[int, tuple[str, tuple[int, ...]]] = {}
    label = 1
    for j in range(N - 1):
        row = j * N + 1
        for i in range(N - 1):
            a = row + i
            elements[label] = ("QUAD", (a, a + 1, a + N + 1, a + N))
            label += 1
    return {"nodes": nodes, "elements": elements}


def baseline_save(data: dict[str, Any], path: Path) -> None:
    # the same flat-column layout the stub writes: the fairest plain-data equivalent
    coordinates: list[float] = []
    for xyz in data["nodes"].values():
        coordinates.extend(xyz)
    connectivity: list[int] = []
    shapes = []
    for shape, conn in data["elements"].values():
        shapes.append(shape)
        connectivity.extend(conn)
    document = {
        "nodes": {"labels": list(data["nodes"]), "coordinates": coordinates},
        "elements": {"labels": list(data["elements"]), "types": shapes,
                     "connectivity": connectivity},
    }
    path.write_bytes(pydantic_core.to_json(document))


def baseline_load(path: Path) -> dict[str, Any]:
    document = pydantic_core.from_json(path.read_bytes())
    flat = document["nodes"]["coordinates"]
    nodes = {label: (flat[3 * i], flat[3 * i + 1], flat[3 * i + 2])
             for i, label in enumerate(document["nodes"]["labels"])}
    conn = document["elements"]["connectivity"]
    elements = {}
    start = 0
    for label, shape in zip(document["elements"]["labels"], document["elements"]["types"],
                            strict=True):
        end = start + NODE_COUNT[shape]
        elements[label] = (shape, tuple(conn[start:end]))
        start = end
    return {"nodes": nodes, "elements": elements}


def baseline_iterate(data: dict[str, Any]) -> tuple[int, float, int]:
    count = 0
    total = 0.0
    for label, xyz in data["nodes"].items():
        count += label
        total += xyz[0]
    quads = 0
    for _label, (shape, conn) in data["elements"].items():
        if shape == "QUAD":
            quads += len(conn)
    return count, total, quads


def run_stub(folder: Path) -> tuple[dict[str, float], tuple[int, float, int], int]:
    times: dict[str, float] = {}
    sam.mdb = sam.database.Mdb()
    part = _timed("build", times, stub_build)
    assert len(part.nodes) == N * N and len(part.elements) == (N - 1) ** 2
    path = folder / "grid.sam.json"
    _timed("save", times, lambda: sam.mdb.saveAs(str(path)))
    opened = _timed("load", times, lambda: sam.openMdb(str(path)))
    loaded = opened.models["Model-1"].parts["Grid"]
    result = _timed("iterate", times, lambda: stub_iterate(loaded))
    sam.mdb = sam.database.Mdb()
    return times, result, path.stat().st_size


def run_baseline(folder: Path) -> tuple[dict[str, float], tuple[int, float, int], int]:
    times: dict[str, float] = {}
    data = _timed("build", times, baseline_build)
    path = folder / "grid.json"
    _timed("save", times, lambda: baseline_save(data, path))
    reloaded = _timed("load", times, lambda: baseline_load(path))
    result = _timed("iterate", times, lambda: baseline_iterate(reloaded))
    return times, result, path.stat().st_size


def _best(runs: list[dict[str, float]]) -> dict[str, float]:
    return {step: min(run[step] for run in runs) for step in STEPS}


def main() -> None:
    stub_runs: list[dict[str, float]] = []
    base_runs: list[dict[str, float]] = []
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        for _ in range(ROUNDS):
            # alternate, each side alone in memory, so neither pays for the other's heap
            base_times, base_result, base_size = run_baseline(folder)
            base_runs.append(base_times)
            stub_times, stub_result, stub_size = run_stub(folder)
            stub_runs.append(stub_times)
            if stub_result != base_result:
                raise SystemExit(f"stub and baseline disagree: {stub_result} != {base_result}")
    stub, base = _best(stub_runs), _best(base_runs)
    print(f"grid {N} x {N}: {N * N} nodes, {(N - 1) ** 2} QUAD elements; "
          f"best of {ROUNDS} rounds, CPU seconds")
    print(f"{'step':<10}{'stub s':>10}{'baseline s':>12}")
    for step in STEPS:
        print(f"{step:<10}{stub[step]:>10.3f}{base[step]:>12.3f}")
    stub_total = sum(stub.values())
    base_total = sum(base.values())
    print(f"{'total':<10}{stub_total:>10.3f}{base_total:>12.3f}")
    print(f"file bytes: stub {stub_size:,}  baseline {base_size:,}")
    print(f"ratio={stub_total / base_total:.2f} goal<={GOAL:g}")


if __name__ == "__main__":
    main()
