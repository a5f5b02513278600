"""Snapshot + restore of the 188,356-node part versus one plain scan of it, same run.

The plain scan reads every node's coordinates and every element's connectivity into lists
(as in bench/observe_scale.py); the attribute read (observe_scale's floor: every label,
coordinate, shape, connectivity and set member once) is printed beside it, for information.
``snapshot`` is what every script of a run does before its first change
(``samops.snapshot.take``): in a run it takes the read of the drift check made right before
the one execution (I3 makes that read anyway; the host gateway offers it to the script,
``mesh_read.offer_read``), so what it costs on top is the sets, assignments, orientations and
definitions; the take that reads the part itself (a script run without that read) is timed
too and printed for information. ``restore`` is what a failed script does in its ``except``
(``samops.snapshot.restore``), after a failure that left the part changed:

- moved:      a transform stopped after moving 10% of the nodes (editNode back);
- appended:   an edit stopped after adding a row of nodes and elements and a set;
- rewritten:  a repair stopped after merging a node near the start (its creation-order tail,
              the whole part, is deleted and re-created with its labels: the worst case).

Each is timed ``REPEATS`` times interleaved with the scan, in CPU time (the machine is
shared: other processes' load must not count); best of each. The alternatives
the mechanism was chosen against are timed once for the record: a host copy
(``objectToCopy``, which also puts a part in the model tree) and a full rebuild through the
API. The ratio line is the moved case, the failure a transform leaves; the other cases are
printed with their own ratios. ``stubs/`` is put on sys.path here.

    .venv/bin/python bench/snapshot_scale.py
"""

from __future__ import annotations

import gc
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
for entry in (ROOT / "stubs", ROOT, ROOT / "bench"):
    if str(entry) not in sys.path:
        sys.path.insert(0, str(entry))

from observe_scale import N, attribute_read, build, plain_scan  # noqa: E402
from sam.database import Mdb  # noqa: E402
from samConstants import QUAD  # noqa: E402

from sam_plugin.runtime.observe.observation import target_fingerprint  # noqa: E402
from sam_plugin.samops import snapshot  # noqa: E402
from sam_plugin.samops.mesh_read import last_read, offer_read  # noqa: E402
from sam_plugin.samops.readback import read_part  # noqa: E402

# best of each: the scan is 30 ms, a busy machine moves it by half (CI smoke: once)
REPEATS = 1 if os.environ.get("BENCH_SMOKE") == "1" else 7


def timed(action: Callable[[], Any]) -> float:
    gc.collect()
    gc.disable()  # as in the host gateway (samops.gc_pause) while a script runs
    try:
        start = time.process_time()  # CPU time: the machine is shared, load must not count
        action()
        return time.process_time() - start
    finally:
        gc.enable()


def moved(part: Any) -> None:
    nodes = part.nodes[: len(part.nodes) // 10]
    part.editNode(nodes=nodes, coordinates=[(x + 1.0, y, z) for x, y, z in
                                            (n.coordinates for n in nodes)])


def appended(part: Any) -> None:
    row = [part.Node(coordinates=(i * 10.0, -10.0, 0.0)) for i in range(N)]
    edge = part.nodes[:N]
    for i in range(N - 1):
        part.Element(nodes=(row[i], row[i + 1], edge[i + 1], edge[i]), elemShape=QUAD)
    part.Set(name="ROW", nodes=row)


def rewritten(part: Any) -> None:
    part.mergeNodes(nodes=part.nodes[:2], tolerance=20.0)


def one_round(model: Any, part: Any, damage: Callable[[Any], None]) -> tuple[float, ...]:
    """(scan, snapshot, restore, the snapshot reading the part itself) seconds: scan, the
    drift check's read (not timed: I3 makes it), the snapshot on that read, damage the part,
    restore it."""
    scan = timed(lambda: plain_scan(part))
    itself = timed(lambda: snapshot.take(model, "Hull"))
    read_part(model, "Hull")
    last = last_read(part)
    assert last is not None
    offer_read(part, *last)
    held: list[snapshot.Snapshot] = []
    take = timed(lambda: held.append(snapshot.take(model, "Hull")))
    assert held[0].part is not None and held[0].part.mesh is last[1], "the read was not taken"
    damage(part)
    return scan, take, timed(lambda: snapshot.restore(model, held[0])), itself


def main() -> None:
    db = Mdb()
    part = build(db)
    model = db.models["Model-1"]
    fingerprint = target_fingerprint(read_part(model, "Hull"))
    print(f"part: {len(part.nodes)} nodes, {len(part.elements)} elements")
    scans, takes, alone = [], [], []
    cases: dict[str, list[float]] = {"moved": [], "appended": [], "rewritten": []}
    damage = {"moved": moved, "appended": appended, "rewritten": rewritten}
    for name in cases:
        for _ in range(REPEATS if name != "rewritten" else 1):
            scan, take, restore, itself = one_round(model, part, damage[name])
            scans.append(scan)
            takes.append(take)
            alone.append(itself)
            cases[name].append(restore)
            assert target_fingerprint(read_part(model, "Hull")) == fingerprint, name
    scan, take = min(scans), min(takes)
    floor = min(timed(lambda: attribute_read(part)) for _ in range(REPEATS))
    held_bytes = snapshot.take(model, "Hull").memory_bytes()
    print(f"plain scan: {scan * 1000:.1f} ms")
    print(f"snapshot: {take * 1000:.1f} ms on the drift check's read (reading the part "
          f"itself: {min(alone) * 1000:.1f} ms, "
          f"(that + restore after moved)/scan = {(min(alone) + min(cases['moved'])) / scan:.1f}"
          f"), holds {held_bytes / 1e6:.1f} MB of lists (references to the entity objects, "
          "which stand for their labels and shapes, and to the host's immutable coordinate "
          "and connectivity tuples)")
    for name, times in cases.items():
        best = min(times)
        print(f"restore after {name:<9}: {best * 1000:7.1f} ms; snapshot+restore/scan = "
              f"{(take + best) / scan:.1f}")
    held = snapshot.take(model, "Hull")
    moved(part)
    quietly = timed(lambda: snapshot.restore_quietly(model, held))
    print(f"the script's except path after moved (restore + its differences check): "
          f"{quietly * 1000:.1f} ms (information)")
    copy = timed(lambda: model.Part(name="HullCopy", objectToCopy=part))
    del model.parts["HullCopy"]
    held = snapshot.take(model, "Hull")
    rebuild = timed(lambda: snapshot.restore(_empty(model), _renamed(held, "Rebuilt")))
    del model.parts["Rebuilt"]
    print(f"alternatives: objectToCopy copy {copy * 1000:.0f} ms (a part in the tree); "
          f"full rebuild through the API {rebuild * 1000:.0f} ms")
    print(f"attribute read (every label, coordinate, shape, connectivity and set member once, "
          f"what the snapshot read before it kept the entity objects): {floor * 1000:.1f} ms; "
          f"snapshot/attribute read = "
          f"{take / floor:.2f}; (snapshot+restore after moved)/attribute read = "
          f"{(take + min(cases['moved'])) / floor:.2f} (information)")
    print(f"ratio={(take + min(cases['moved'])) / scan:.2f} goal<=3")


def _empty(model: Any) -> Any:
    model.Part(name="Rebuilt")
    return model


def _renamed(held: snapshot.Snapshot, name: str) -> snapshot.Snapshot:
    return snapshot.Snapshot(part_name=name, part=held.part, definitions=None)


if __name__ == "__main__":
    main()
