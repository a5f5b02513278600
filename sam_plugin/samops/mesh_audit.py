"""The mesh audit: element quality, size histogram, hanging nodes and free edges.

Everything works on a ``MeshData`` snapshot, so the compiler can audit a *planned* mesh (to
predict hanging nodes exactly) with the same code the script runs on the live part.

Definitions (stated in ``mesh_audit.json`` too):

- aspect ratio: longest / shortest edge of a QUAD or TRI;
- min/max angle: interior corner angles in degrees;
- warping (QUAD): the larger angle between the normals of the two triangles either diagonal
  splits the quad into, in degrees (0 for a flat quad);
- inverted: a QUAD/TRI whose corner turns disagree with its mean normal (concave, bow-tie) or
  whose area is zero, or a zero-length BEAM;
- element size: mean edge length (QUAD/TRI) or length (BEAM);
- hanging node: a node lying strictly inside an edge (a free shell edge, a beam, or a shell
  edge along beams) that it is not a node of, i.e. where a refined region meets an
  unrefined one;
- free edge: a QUAD/TRI edge used by exactly one QUAD/TRI element, not counting the edges of
  such refinement borders (those are reported as hanging nodes).
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Iterable, Sequence
from typing import Any

from sam_plugin.samops.mesh_ops import MeshData, read_mesh_data

Vec = tuple[float, float, float]

AUDIT_FILE = "mesh_audit.json"
HISTOGRAM_BINS = 10
_LIST_LIMIT = 200
_ON_EDGE_TOLERANCE = 1e-6  # relative to the edge length
_AREA_TOLERANCE = 1e-12  # relative to the squared longest edge


def _sub(p: Vec, q: Vec) -> Vec:
    return (p[0] - q[0], p[1] - q[1], p[2] - q[2])


def _cross(u: Vec, v: Vec) -> Vec:
    return (u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0])


def _dot(u: Vec, v: Vec) -> float:
    return u[0] * v[0] + u[1] * v[1] + u[2] * v[2]


def _norm(u: Vec) -> float:
    return math.sqrt(_dot(u, u))


def _angle_deg(u: Vec, v: Vec) -> float:
    nu, nv = _norm(u), _norm(v)
    if nu == 0.0 or nv == 0.0:
        return 0.0
    cosine = max(-1.0, min(1.0, _dot(u, v) / (nu * nv)))
    return math.degrees(math.acos(cosine))


def element_quality(shape: str, points: Sequence[Vec]) -> dict[str, float | bool]:
    """Quality measures of one element (see the module docstring for the definitions)."""
    count = len(points)
    if shape == "BEAM":
        length = _norm(_sub(points[1], points[0]))
        return {"size": length, "inverted": length == 0.0}
    if count == 4:
        return _quad_quality(points)
    edges = [_sub(points[(i + 1) % count], points[i]) for i in range(count)]
    lengths = [_norm(e) for e in edges]
    longest, shortest = max(lengths), min(lengths)
    angles = [_angle_deg(edges[i], _sub(points[i - 1], points[i])) for i in range(count)]
    if count == 4:
        normal = _cross(_sub(points[2], points[0]), _sub(points[3], points[1]))
    else:
        normal = _cross(edges[0], _sub(points[2], points[0]))
    turns = [_dot(_cross(edges[i - 1], edges[i]), normal) for i in range(count)]
    area_scale = _AREA_TOLERANCE * longest * longest
    inverted = _norm(normal) <= area_scale or any(t <= area_scale * _norm(normal) for t in turns)
    quality: dict[str, float | bool] = {
        "size": sum(lengths) / count,
        "aspect_ratio": math.inf if shortest == 0.0 else longest / shortest,
        "min_angle": min(angles),
        "max_angle": max(angles),
        "warping": _warping(points) if count == 4 else 0.0,
        "inverted": inverted,
    }
    return quality


def _quad_quality(points: Sequence[Vec]) -> dict[str, float | bool]:
    """``element_quality`` for a QUAD, written out: audits run over 10^5 elements."""
    (x0, y0, z0), (x1, y1, z1), (x2, y2, z2), (x3, y3, z3) = points
    ax, ay, az = x1 - x0, y1 - y0, z1 - z0
    bx, by, bz = x2 - x1, y2 - y1, z2 - z1
    cx, cy, cz = x3 - x2, y3 - y2, z3 - z2
    dx, dy, dz = x0 - x3, y0 - y3, z0 - z3
    la = math.sqrt(ax * ax + ay * ay + az * az)
    lb = math.sqrt(bx * bx + by * by + bz * bz)
    lc = math.sqrt(cx * cx + cy * cy + cz * cz)
    ld = math.sqrt(dx * dx + dy * dy + dz * dz)
    longest, shortest = max(la, lb, lc, ld), min(la, lb, lc, ld)
    ux, uy, uz = x2 - x0, y2 - y0, z2 - z0
    vx, vy, vz = x3 - x1, y3 - y1, z3 - z1
    nx, ny, nz = uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx
    normal = math.sqrt(nx * nx + ny * ny + nz * nz)
    area_scale = _AREA_TOLERANCE * longest * longest
    inverted = normal <= area_scale
    angles = []
    # corner i lies between the incoming edge p (i-1 -> i) and the outgoing edge q (i -> i+1)
    for px, py, pz, lp, qx, qy, qz, lq in (
        (dx, dy, dz, ld, ax, ay, az, la), (ax, ay, az, la, bx, by, bz, lb),
        (bx, by, bz, lb, cx, cy, cz, lc), (cx, cy, cz, lc, dx, dy, dz, ld),
    ):
        if lp == 0.0 or lq == 0.0:
            angles.append(0.0)
        else:
            cosine = -(px * qx + py * qy + pz * qz) / (lp * lq)
            angles.append(math.degrees(math.acos(max(-1.0, min(1.0, cosine)))))
        turn = (py * qz - pz * qy) * nx + (pz * qx - px * qz) * ny + (px * qy - py * qx) * nz
        if turn <= area_scale * normal:
            inverted = True
    # out of plane: p3's distance from the plane of p0, p1, p2 (exactly flat: no warping)
    wx, wy, wz = ay * bz - az * by, az * bx - ax * bz, ax * by - ay * bx
    flat = abs(wx * (x3 - x0) + wy * (y3 - y0) + wz * (z3 - z0)) <= (
        _AREA_TOLERANCE * longest * longest * longest)
    return {
        "size": (la + lb + lc + ld) / 4.0,
        "aspect_ratio": math.inf if shortest == 0.0 else longest / shortest,
        "min_angle": min(angles),
        "max_angle": max(angles),
        "warping": 0.0 if flat else _warping(points),
        "inverted": inverted,
    }


def _warping(points: Sequence[Vec]) -> float:
    p0, p1, p2, p3 = points
    first = _angle_deg(_cross(_sub(p1, p0), _sub(p2, p0)), _cross(_sub(p2, p0), _sub(p3, p0)))
    second = _angle_deg(_cross(_sub(p2, p1), _sub(p3, p1)), _cross(_sub(p3, p1), _sub(p0, p1)))
    return max(first, second)


# ------------------------------------------------------------------------ topology


def _edge_key(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a < b else (b, a)


def shell_edge_use(mesh: MeshData) -> dict[tuple[int, int], int]:
    """How many QUAD/TRI elements use each edge (keyed by the unordered node pair)."""
    use: dict[tuple[int, int], int] = {}
    get = use.get
    for shape, conn in mesh.elements.values():
        if shape == "BEAM":
            continue
        previous = conn[-1]
        for node in conn:
            key = (previous, node) if previous < node else (node, previous)
            use[key] = get(key, 0) + 1
            previous = node
    return use


def _beam_edges(mesh: MeshData) -> set[tuple[int, int]]:
    return {_edge_key(*conn) for shape, conn in mesh.elements.values() if shape == "BEAM"}


def edge_splits(mesh: MeshData, use: dict[tuple[int, int], int] | None = None
                ) -> dict[tuple[int, int], list[int]]:
    """Edges with nodes strictly inside them, ordered along the edge.

    Checked edges: free shell edges, beams, and shell edges between two beam nodes (where a
    refined beam can leave a node on an unrefined shell edge). An interior shell edge with
    no beam on it cannot carry a node on its own: both its elements would have to be
    refined together, which shares the midpoint.
    """
    use = shell_edge_use(mesh) if use is None else use
    beams = _beam_edges(mesh)
    beam_nodes = {n for edge in beams for n in edge}
    candidates = [key for key, n in use.items()
                  if n == 1 or (key[0] in beam_nodes and key[1] in beam_nodes)]
    candidates.extend(beams - set(candidates))
    if not candidates:
        return {}
    used_nodes = {n for _, conn in mesh.elements.values() for n in conn}
    lengths = sorted(_norm(_sub(mesh.nodes[b], mesh.nodes[a])) for a, b in candidates)
    cell = max(lengths[len(lengths) // 2], 1e-9)
    buckets: dict[tuple[int, int, int], list[int]] = {}
    for label in used_nodes:
        p = mesh.nodes[label]
        key = (math.floor(p[0] / cell), math.floor(p[1] / cell), math.floor(p[2] / cell))
        buckets.setdefault(key, []).append(label)
    splits: dict[tuple[int, int], list[int]] = {}
    for a, b in candidates:
        inside = _nodes_inside(mesh, buckets, cell, a, b)
        if inside:
            splits[(a, b)] = inside
    return splits


def _nodes_inside(
    mesh: MeshData, buckets: dict[tuple[int, int, int], list[int]], cell: float, a: int, b: int
) -> list[int]:
    pa, pb = mesh.nodes[a], mesh.nodes[b]
    d = _sub(pb, pa)
    length_sq = _dot(d, d)
    if length_sq == 0.0:
        return []
    tolerance = _ON_EDGE_TOLERANCE * math.sqrt(length_sq)
    ranges = [
        range(
            math.floor((min(pa[i], pb[i]) - tolerance) / cell),
            math.floor((max(pa[i], pb[i]) + tolerance) / cell) + 1,
        )
        for i in range(3)
    ]
    found: list[tuple[float, int]] = []
    for i in ranges[0]:
        for j in ranges[1]:
            for k in ranges[2]:
                for label in buckets.get((i, j, k), ()):
                    if label == a or label == b:
                        continue
                    rel = _sub(mesh.nodes[label], pa)
                    t = _dot(rel, d) / length_sq
                    if t <= 1e-9 or t >= 1.0 - 1e-9:
                        continue
                    off = _sub(rel, (d[0] * t, d[1] * t, d[2] * t))
                    if _norm(off) <= tolerance:
                        found.append((t, label))
    return [label for _, label in sorted(found)]


def hanging_nodes(mesh: MeshData) -> list[int]:
    """Labels (or temporary ids) of the nodes that sit inside another element's edge."""
    return sorted({n for nodes in edge_splits(mesh).values() for n in nodes})


def free_edges(mesh: MeshData, splits: dict[tuple[int, int], list[int]] | None = None,
               use: dict[tuple[int, int], int] | None = None) -> list[tuple[int, int]]:
    """Free shell edges, leaving out both sides of every refinement border."""
    use = shell_edge_use(mesh) if use is None else use
    splits = edge_splits(mesh, use) if splits is None else splits
    border: set[tuple[int, int]] = set()
    for (a, b), inside in splits.items():
        chain = [a, *inside, b]
        border.add(_edge_key(a, b))
        for i in range(len(chain) - 1):
            border.add(_edge_key(chain[i], chain[i + 1]))
    return sorted(key for key, n in use.items() if n == 1 and key not in border)


# -------------------------------------------------------------------------- report


def _stats(values: Iterable[float]) -> dict[str, float | None]:
    data = [v for v in values if math.isfinite(v)]
    if not data:
        return {"min": None, "max": None, "mean": None}
    return {"min": min(data), "max": max(data), "mean": sum(data) / len(data)}


def size_histogram(sizes: Sequence[float], bins: int = HISTOGRAM_BINS) -> list[dict[str, Any]]:
    """Equal-width bins from the smallest to the largest element size."""
    if not sizes:
        return []
    lo, hi = min(sizes), max(sizes)
    if hi - lo <= 1e-12 * max(abs(hi), 1.0):
        return [{"from": lo, "to": hi, "count": len(sizes)}]
    width = (hi - lo) / bins
    counts = [0] * bins
    for size in sizes:
        counts[min(int((size - lo) / width), bins - 1)] += 1
    return [
        {"from": lo + i * width, "to": lo + (i + 1) * width, "count": counts[i]}
        for i in range(bins)
    ]


def audit_mesh(mesh: MeshData) -> dict[str, Any]:
    """The full ``mesh_audit.json`` content for a mesh snapshot."""
    shells: dict[str, list[dict[str, float | bool]]] = {"QUAD": [], "TRI": []}
    sizes: list[float] = []
    inverted: list[int] = []
    shape_counts = {"QUAD": 0, "TRI": 0, "BEAM": 0}
    for label in sorted(mesh.elements):
        shape, conn = mesh.elements[label]
        shape_counts[shape] = shape_counts.get(shape, 0) + 1
        quality = element_quality(shape, [mesh.nodes[n] for n in conn])
        sizes.append(float(quality["size"]))
        if quality["inverted"]:
            inverted.append(label)
        if shape in shells:
            shells[shape].append(quality)
    every_shell = shells["QUAD"] + shells["TRI"]
    use = shell_edge_use(mesh)
    splits = edge_splits(mesh, use)
    hanging = sorted({n for nodes in splits.values() for n in nodes})
    free = free_edges(mesh, splits, use)
    return {
        "node_count": len(mesh.nodes),
        "element_count": len(mesh.elements),
        "shape_counts": shape_counts,
        "quality": {
            "aspect_ratio": _stats(float(q["aspect_ratio"]) for q in every_shell),
            "min_angle": _stats(float(q["min_angle"]) for q in every_shell),
            "max_angle": _stats(float(q["max_angle"]) for q in every_shell),
            "warping": _stats(float(q["warping"]) for q in shells["QUAD"]),
            "inverted_elements": {"count": len(inverted), "labels": inverted[:_LIST_LIMIT]},
        },
        "element_size_histogram": size_histogram(sizes),
        "hanging_nodes": {"count": len(hanging), "labels": hanging[:_LIST_LIMIT]},
        "free_edges": {
            "count": len(free),
            "edges": [list(edge) for edge in free[:_LIST_LIMIT]],
        },
        "definitions": {
            "aspect_ratio": "longest / shortest edge (QUAD, TRI)",
            "angles": "interior corner angles in degrees",
            "warping": "largest angle between the diagonal-split triangle normals (deg)",
            "element_size": "mean edge length (QUAD, TRI) or length (BEAM)",
            "hanging_node": "a node strictly inside a free shell edge, a beam or a shell edge "
            "along beams",
        },
    }


def write_audit(part: Any, output_dir: str) -> dict[str, Any]:
    """Audit the live part and write ``mesh_audit.json`` into ``output_dir``."""
    report = audit_mesh(read_mesh_data(part))
    report["part"] = part.name
    os.makedirs(output_dir, exist_ok=True)
    with open(os.path.join(output_dir, AUDIT_FILE), "w", encoding="utf-8") as handle:
        json.dump(report, handle, indent=2, sort_keys=True, allow_nan=False, default=str)
    return report
