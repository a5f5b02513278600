"""Part transforms called by generated ``transform_part`` scripts: host API only.

Operations arrive as literal dicts (validated IR) and run in order, each resolving its own
selection at that moment. Mirrored elements get reversed node order so normals stay
consistent; in place, that means re-creating the mirrored elements (the host has no call to
re-order an element's nodes) under their old labels, and sets holding them are rebuilt.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
from samConstants import OFF

from sam_plugin.samops.mesh_read import coordinate_array
from sam_plugin.samops.selection import select_transform_nodes, transform_nodes

Point = tuple[float, float, float]
Mapper = Callable[[Point], Point]


def _unit(v: Sequence[float]) -> Point:
    norm = math.sqrt(v[0] ** 2 + v[1] ** 2 + v[2] ** 2)
    return (v[0] / norm, v[1] / norm, v[2] / norm)


def translation(vector: Sequence[float]) -> Mapper:
    dx, dy, dz = vector
    return lambda p: (p[0] + dx, p[1] + dy, p[2] + dz)


def rotation(origin: Sequence[float], axis: Sequence[float], angle_deg: float) -> Mapper:
    """Right-hand rule about ``axis`` through ``origin`` (Rodrigues' formula)."""
    kx, ky, kz = _unit(axis)
    theta = math.radians(angle_deg)
    c, s = math.cos(theta), math.sin(theta)
    ox, oy, oz = origin

    def turn(p: Point) -> Point:
        vx, vy, vz = p[0] - ox, p[1] - oy, p[2] - oz
        dot = (kx * vx + ky * vy + kz * vz) * (1 - c)
        return (ox + vx * c + (ky * vz - kz * vy) * s + kx * dot,
                oy + vy * c + (kz * vx - kx * vz) * s + ky * dot,
                oz + vz * c + (kx * vy - ky * vx) * s + kz * dot)

    return turn


def reflection(origin: Sequence[float], normal: Sequence[float]) -> Mapper:
    nx, ny, nz = _unit(normal)
    ox, oy, oz = origin

    def mirror(p: Point) -> Point:
        d = 2 * ((p[0] - ox) * nx + (p[1] - oy) * ny + (p[2] - oz) * nz)
        return (p[0] - d * nx, p[1] - d * ny, p[2] - d * nz)

    return mirror


def scaling(origin: Sequence[float], factor: float) -> Mapper:
    ox, oy, oz = origin
    return lambda p: (ox + (p[0] - ox) * factor, oy + (p[1] - oy) * factor,
                      oz + (p[2] - oz) * factor)


def reversed_connectivity(connectivity: Sequence[int]) -> tuple[int, ...]:
    """Same first node, opposite orientation: (a,b,c,d) -> (a,d,c,b); BEAM (a,b) -> (b,a)."""
    if len(connectivity) == 2:
        return (connectivity[1], connectivity[0])
    return (connectivity[0], *reversed(connectivity[1:]))


def _move(part: Any, nodes: list[Any], mapper: Mapper) -> None:
    if nodes:
        part.editNode(nodes=nodes, coordinates=[mapper(tuple(n.coordinates)) for n in nodes])


def _translate(part: Any, nodes: list[Any], vector: Sequence[float]) -> None:
    """``_move`` by ``translation(vector)``, the sums in numpy (the same IEEE additions as the
    mapper's, without a Python call per node: measured 2x faster on 188,356 nodes)."""
    if not nodes:
        return
    xyz = coordinate_array([n.coordinates for n in nodes]) + np.asarray(vector, dtype=np.float64)
    part.editNode(nodes=nodes, coordinates=list(map(tuple, xyz.tolist())))


def _copy(part: Any, elements: list[Any], nodes: list[Any], mapper: Mapper,
          reverse: bool) -> None:
    make_node = part.Node
    new_nodes = {n.label: make_node(coordinates=mapper(tuple(n.coordinates))) for n in nodes}
    make_element = part.Element
    for element in elements:
        conn = element.connectivity
        if reverse:
            conn = reversed_connectivity(conn)
        make_element(nodes=tuple(new_nodes[label] for label in conn), elemShape=element.type)


def _mirror_in_place(part: Any, elements: list[Any], nodes: list[Any], mapper: Mapper) -> None:
    _move(part, nodes, mapper)
    if not elements:
        return
    doomed = {e.label for e in elements}
    memberships = {}
    for name in part.sets.keys():
        region = part.sets[name]
        labels = [e.label for e in (region.elements or ())]
        if doomed.intersection(labels):
            memberships[name] = (list(region.nodes or ()), labels)
    plan = [(e.label, reversed_connectivity(e.connectivity), e.type) for e in elements]
    part.deleteElement(elements=elements, deleteUnreferencedNodes=OFF)
    get_node = part.nodes.getFromLabel
    replaced = {}
    for label, conn, shape in plan:
        # The same label again: later selections by label still find the element.
        replaced[label] = part.Element(nodes=tuple(get_node(k) for k in conn), elemShape=shape,
                                       label=label)
    get_element = part.elements.getFromLabel
    for name, (set_nodes, labels) in memberships.items():
        members = [replaced[k] if k in replaced else get_element(k) for k in labels]
        part.Set(name=name, nodes=set_nodes or None, elements=members)


def apply_operation(part: Any, op: Mapping[str, Any]) -> None:
    kind = op["op"]
    if kind == "translate":
        _translate(part, transform_nodes(part, op["selection"]), op["vector"])
        return
    if kind == "rotate":
        _move(part, transform_nodes(part, op["selection"]),
              rotation(op["origin"], op["axis"], op["angle_deg"]))
        return
    if kind == "scale":
        _move(part, transform_nodes(part, op["selection"]), scaling(op["origin"], op["factor"]))
        return
    elements, nodes = select_transform_nodes(part, op["selection"])
    if kind == "mirror":
        mapper = reflection(op["origin"], op["normal"])
        if op["copy"]:
            _copy(part, elements, nodes, mapper, reverse=True)
        else:
            _mirror_in_place(part, elements, nodes, mapper)
    elif kind == "translate_copy":
        _copy(part, elements, nodes, translation(op["vector"]), reverse=False)
    elif kind == "linear_array":
        vector = op["vector"]
        for k in range(1, op["count"]):
            _copy(part, elements, nodes, translation([c * k for c in vector]), reverse=False)
    else:
        raise ValueError(f"unknown transform op {kind!r}")


def apply(part: Any, operations: Sequence[Mapping[str, Any]]) -> None:
    for op in operations:
        apply_operation(part, op)
