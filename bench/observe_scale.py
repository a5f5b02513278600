"""Observation of a 188,356-node part (L0-L2 and fingerprint) versus reading it, same run.

The observation is what ``submit`` does: ``observation.observe`` (L0, L1 and the
fingerprint, through the host gateway) plus the L2 region index, with a cold cache (the
index reuses the mesh arrays that ``observe`` read, as the controller's call does).

It is compared with two reads of the part into Python lists, nothing else:

- the floor that counts (the ratio): every attribute the fingerprint and L1 need, read once
  through the host API: node labels and coordinates, element labels, shapes and
  connectivity, set members. Nothing can observe the part faster than it can be read.
- for information: the plain scan of coordinates and connectivity only (what the first
  version of this bench compared with; it skips the labels and shapes a fingerprint must
  read, so it understates the floor).

Each is timed ``REPEATS`` times, interleaved; the best time of each is compared.
Last line: ``ratio=<observation / attribute read> goal<=1.5``.

    .venv/bin/python bench/observe_scale.py      # stubs/ is put on sys.path here
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
for entry in (ROOT / "stubs", ROOT):
    if str(entry) not in sys.path:
        sys.path.insert(0, str(entry))

from sam.database import Mdb  # noqa: E402
from samConstants import QUAD  # noqa: E402

from sam_plugin.compilers.protocol import Target  # noqa: E402
from sam_plugin.runtime.host_gateway import HostGateway  # noqa: E402
from sam_plugin.runtime.observe.observation import observe  # noqa: E402
from sam_plugin.runtime.observe.regions import (  # noqa: E402
    RegionIndexCache,
    read_mesh_arrays,
    region_index,
)
from sam_plugin.samops.readback import geometry_fingerprint  # noqa: E402

N = 434  # 434 x 434 = 188,356 nodes
REPEATS = 5


def build(db: Any) -> Any:
    part = db.models["Model-1"].Part("Hull")
    nodes = [part.Node(coordinates=(i * 10.0, j * 10.0, 0.0)) for j in range(N) for i in range(N)]
    for j in range(N - 1):
        for i in range(N - 1):
            a = j * N + i
            part.Element(nodes=(nodes[a], nodes[a + 1], nodes[a + N + 1], nodes[a + N]),
                         elemShape=QUAD)
    part.Set("KEEL", nodes=nodes[:N])
    part.Set("STERN", elements=part.elements[: N - 1])
    return part


def plain_scan(part: Any) -> tuple[list[Any], list[Any]]:
    return [n.coordinates for n in part.nodes], [e.connectivity for e in part.elements]


def attribute_read(part: Any) -> list[list[Any]]:
    """The floor: each attribute the observation reads, read once through the host API into
    one list per attribute (no tuples built per entity: that alone costs more than the
    observation's whole read)."""
    nodes, elements = part.nodes, part.elements
    read = [[n.label for n in nodes], [n.coordinates for n in nodes],
            [e.label for e in elements], [e.type for e in elements],
            [e.connectivity for e in elements]]
    for name in part.sets.keys():
        region = part.sets[name]
        read += [[n.label for n in region.nodes], [e.label for e in region.elements]]
    return read


def loop_scan(part: Any) -> int:
    """For context only: a script-style loop touching every coordinate and node label."""
    seen = 0
    for node in part.nodes:
        x, y, z = node.coordinates
        seen += 1
    for element in part.elements:
        for _label in element.connectivity:
            seen += 1
    return seen


def timed(action: Any) -> float:
    start = time.perf_counter()
    action()
    return time.perf_counter() - start


def main() -> None:
    db = Mdb()
    start = time.perf_counter()
    part = build(db)
    print(f"built {len(part.nodes)} nodes, {len(part.elements)} elements "
          f"in {time.perf_counter() - start:.2f}s")
    host = HostGateway(SimpleNamespace(mdb=db))
    target = Target(model_name="Model-1", part_name="Hull")

    def observation() -> None:
        observed = observe(host, "part", target)
        region_index(part, observed.fingerprint, cache=RegionIndexCache())

    plain_scan(part)  # warm the host's array views once, for both sides
    scans, reads, observations = [], [], []
    for _ in range(REPEATS):
        scans.append(timed(lambda: plain_scan(part)))
        reads.append(timed(lambda: attribute_read(part)))
        observations.append(timed(observation))
    scan, floor, observed = min(scans), min(reads), min(observations)
    # the parts of the observation, for the record (not part of the ratio)
    l01 = min(timed(lambda: observe(host, "part", target)) for _ in range(REPEATS))
    fingerprint = min(timed(lambda: geometry_fingerprint(part)) for _ in range(REPEATS))
    arrays = min(timed(lambda: read_mesh_arrays(part)) for _ in range(REPEATS))
    l2 = min(timed(lambda: region_index(part, "fp", cache=RegionIndexCache()))
             for _ in range(REPEATS))
    fingerprint_now = observe(host, "part", target).fingerprint
    l2_reused = min(timed(lambda: region_index(part, fingerprint_now, cache=RegionIndexCache()))
                    for _ in range(REPEATS))
    loop = min(timed(lambda: loop_scan(part)) for _ in range(REPEATS))
    print(f"attribute read (the floor):              {floor * 1000:9.1f} ms")
    print(f"plain scan (coordinates + connectivity): {scan * 1000:9.1f} ms")
    print(f"  (for context: a Python loop touching every value: {loop * 1000:.1f} ms)")
    print(f"observation L0-L2 + fingerprint:         {observed * 1000:9.1f} ms")
    print(f"  of which L0/L1 + fingerprint (observe): {l01 * 1000:8.1f} ms")
    print(f"    of which geometry_fingerprint:        {fingerprint * 1000:8.1f} ms")
    print(f"  of which L2 on the observation's read:  {l2_reused * 1000:8.1f} ms")
    print(f"  (L2 alone, cold, reading the part:      {l2 * 1000:8.1f} ms")
    print(f"    of which reading the mesh arrays:     {arrays * 1000:8.1f} ms)")
    print(f"observation / plain scan: {observed / scan:.2f} (information; was the ratio, goal<=3)")
    print(f"ratio={observed / floor:.2f} goal<=1.5")


if __name__ == "__main__":
    main()
