"""Refinement at scale: a 100 x 100 QUAD grid refined two levels versus building the final
400 x 400 grid directly through the host API, measured side by side in one run.

Both sides run against the offline SAM (``stubs/`` is put on ``sys.path`` here, explicitly).
The refined side includes everything the generated script does: reading the mesh, planning,
creating nodes and children, carrying a set and a section assignment, deleting the parents.

Last line: ``ratio=<refine/direct> goal<=2``.
"""

from __future__ import annotations

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


def main() -> None:
    model = sam.mdb.Model(name="Bench")
    model.Material(name="Steel").Elastic(table=((210000.0, 0.3),))
    model.HomogeneousShellSection(name="Plate", material="Steel", thickness=2.0)

    coarse = model.Part(name="Coarse")
    build_grid(coarse, 100)
    coarse.Set(name="All", elements=coarse.elements)
    coarse.SectionAssignment(region=coarse.sets["All"], sectionName="Plate")

    start = time.perf_counter()
    report = mesh_ops.refine(coarse, [e.label for e in coarse.elements], 2)
    refine_seconds = time.perf_counter() - start

    direct = model.Part(name="Direct")
    start = time.perf_counter()
    build_grid(direct, 400)
    direct_seconds = time.perf_counter() - start

    assert len(coarse.nodes) == len(direct.nodes) == 401 * 401, len(coarse.nodes)
    assert len(coarse.elements) == len(direct.elements) == 400 * 400
    assert len(coarse.sets["All"].elements) == 400 * 400
    print(f"refine 100x100 two levels: {refine_seconds:.3f} s "
          f"({report['created_nodes']} nodes, {report['created_elements']} elements created)")
    print(f"direct 400x400 build:      {direct_seconds:.3f} s")
    print(f"ratio={refine_seconds / direct_seconds:.2f} goal<={GOAL:g}")


if __name__ == "__main__":
    main()
