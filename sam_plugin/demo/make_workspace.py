"""Regenerate ``workspace.sam.json`` with the offline SAM (put on sys.path: offline_sam.py).

``python -m sam_plugin.demo.make_workspace`` (run from the repository root) writes:
Model-1 / Panel: a 40 x 40 plate of 4 x 4 QUAD elements (z = 0), and Model-1 / Frame: a
portal frame of 3 x 4 BEAM elements. "Plate" does not exist yet: the build example makes it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

WORKSPACE = Path(__file__).resolve().parent / "workspace.sam.json"


def build(mdb: Any) -> None:
    from samConstants import BEAM, QUAD

    model = mdb.models["Model-1"]
    panel = model.Part(name="Panel")
    nodes = {}
    for j in range(5):
        for i in range(5):
            nodes[i, j] = panel.Node(coordinates=(10.0 * i, 10.0 * j, 0.0))
    for j in range(4):
        for i in range(4):
            corners = (nodes[i, j], nodes[i + 1, j], nodes[i + 1, j + 1], nodes[i, j + 1])
            panel.Element(nodes=corners, elemShape=QUAD)
    frame = model.Part(name="Frame")
    points = [(0.0, 0.0, 0.0), (0.0, 0.0, 300.0), (0.0, 0.0, 600.0), (0.0, 0.0, 900.0),
              (400.0, 0.0, 900.0), (800.0, 0.0, 900.0), (1200.0, 0.0, 900.0),
              (1200.0, 0.0, 600.0), (1200.0, 0.0, 300.0), (1200.0, 0.0, 0.0)]
    frame_nodes = [frame.Node(coordinates=p) for p in points]
    for a, b in zip(frame_nodes, frame_nodes[1:], strict=False):
        frame.Element(nodes=(a, b), elemShape=BEAM)


def main() -> int:
    from sam_plugin.offline_sam import use_offline_sam

    use_offline_sam()
    import sam

    build(sam.mdb)
    sam.mdb.saveAs(pathName=str(WORKSPACE))
    print(f"wrote {WORKSPACE}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
