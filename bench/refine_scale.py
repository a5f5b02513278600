"""Refinement at scale: a 100 x 100 QUAD grid refined two levels versus building the final
400 x 400 grid directly through the host API, measured side by side in one run.

Both sides run against the offline SAM (``stubs/`` is put on ``sys.path`` here, explicitly).
The refined side includes everything the generated script does: reading the mesh, planning,
creating nodes and children, carrying a set and a section assignment, deleting the parents.
Three interleaved rounds; the best time of each side is compared (the machine is shared).
The refinement pauses the cyclic garbage collector while it creates its objects (see
``samops.gc_pause.collector_paused``); the direct build runs with the interpreter's
defaults, as a user script would.

Last line: ``ratio=<refine/direct> goal<=2``.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "stubs"))
sys.path.insert(0, str(ROOT))

import sam  # noqa: E402
from samConstants import QUAD  # noqa: E402

from sam_plugin.samops import mesh_ops  # noqa: E402

GOAL = 2.0
SMOKE = os.environ.get("BENCH_SMOKE") == "1"  # CI: the smallest size, fewest repeats
ROUNDS = 1 if SMOKE else 3
CELLS = 25 if SMOKE else 100  # the coarse grid's side; refined twice: 4 x CELLS
FINE = 4 * CELLS


def build_grid(part: object, cells: int, size: float = 100.0) -> None:
    """A cells x cells QUAD grid over a size x size square, through Node/Element calls."""
    step = size / cells
    row = cells + 1
    nodes = [part.Node(coordinates=(i * step, j * step, 0.0))  # type: ignore[attr-defined]
             for j in range(row) for i in range(row)]
    for j in range(cells):
        for i in range(cells):
            n0 = j * row + i
            part.Element(  # type: ignore[attr-defined]
                nodes=(nodes[n0], nodes[n0 + 1], nodes[n0 + row + 1], nodes[n0 + row]),
                elemShape=QUAD,
            )


def time_refine(model: object, index: int) -> tuple[float, dict]:
    coarse = model.Part(name=f"Coarse-{index}")  # type: ignore[attr-defined]
    build_grid(coarse, CELLS)
    coarse.Set(name="All", elements=coarse.elements)
    coarse.SectionAssignment(region=coarse.sets["All"], sectionName="Plate")
    start = time.perf_counter()
    report = mesh_ops.refine(coarse, [e.label for e in coarse.elements], 2)
    seconds = time.perf_counter() - start
    assert len(coarse.nodes) == (FINE + 1) ** 2, len(coarse.nodes)
    assert len(coarse.elements) == FINE * FINE
    assert len(coarse.sets["All"].elements) == FINE * FINE
    return seconds, report


def time_direct(model: object, index: int) -> float:
    direct = model.Part(name=f"Direct-{index}")  # type: ignore[attr-defined]
    start = time.perf_counter()
    build_grid(direct, FINE)
    seconds = time.perf_counter() - start
    assert len(direct.nodes) == (FINE + 1) ** 2 and len(direct.elements) == FINE * FINE
    return seconds


def main() -> None:
    model = sam.mdb.Model(name="Bench")
    model.Material(name="Steel").Elastic(table=((210000.0, 0.3),))
    model.HomogeneousShellSection(name="Plate", material="Steel", thickness=2.0)
    refine_times: list[float] = []
    direct_times: list[float] = []
    report: dict = {}
    # interleaved rounds, best of each: the machine is shared, one slow round is noise
    for index in range(ROUNDS):
        seconds, report = time_refine(model, index)
        refine_times.append(seconds)
        direct_times.append(time_direct(model, index))
        for name in (f"Coarse-{index}", f"Direct-{index}"):
            del model.parts[name]
    refine_seconds, direct_seconds = min(refine_times), min(direct_times)
    print(f"refine {CELLS}x{CELLS} two levels: best {refine_seconds:.3f} s of "
          f"{', '.join(f'{t:.3f}' for t in refine_times)} "
          f"({report['created_nodes']} nodes, {report['created_elements']} elements created)")
    print(f"direct {FINE}x{FINE} build:      best {direct_seconds:.3f} s of "
          f"{', '.join(f'{t:.3f}' for t in direct_times)}")
    print(f"ratio={refine_seconds / direct_seconds:.2f} goal<={GOAL:g}")


if __name__ == "__main__":
    main()
