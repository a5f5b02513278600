"""The offline viewport's standard view directions (View menu): a part in any plane can be
seen face on. No Qt here: each view is the (yaw, pitch) of ``sam_host_mesh.rotation`` that
puts the viewer on that side, the screen's right and up axes chosen as CAE hosts do (Z up in
the side views, right-handed: right x up points at the viewer).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from sam_host_mesh import MeshGeometry, rotation

ISO_PITCH = -math.degrees(math.atan(math.sqrt(2.0)))  # the viewer along (1, 1, 1)


@dataclass(frozen=True)
class View:
    key: str  # objectName suffix: viewFrontPlusZ -> "PlusZ"
    title: str  # the menu's words
    yaw: float
    pitch: float


VIEWS: tuple[View, ...] = (
    View("PlusZ", "From +&Z (X right, Y up)", 0.0, 0.0),
    View("MinusZ", "From -Z (X left, Y up)", 180.0, 180.0),
    View("PlusY", "From +&Y (X left, Z up)", 180.0, -90.0),
    View("MinusY", "From -Y (X right, Z up)", 0.0, -90.0),
    View("PlusX", "From +&X (Y right, Z up)", 270.0, -90.0),
    View("MinusX", "From -X (Y left, Z up)", 90.0, -90.0),
    View("Iso", "&Isometric", 225.0, ISO_PITCH),
)
VIEWS_BY_KEY = {view.key: view for view in VIEWS}
FLAT_RATIO = 1e-6  # a projected extent this small beside the other draws as a line


def projected_extent(geometry: MeshGeometry, yaw: float, pitch: float) -> tuple[float, float]:
    """Width and height (model units) of the part's nodes on the screen at this rotation."""
    if geometry.is_empty:
        return 0.0, 0.0
    (a0, a1, a2), (b0, b1, b2), _ = rotation(yaw, pitch)
    xs, ys, zs = (np.asarray(c, dtype=float) for c in (geometry.xs, geometry.ys, geometry.zs))
    us = a0 * xs + a1 * ys + a2 * zs
    vs = b0 * xs + b1 * ys + b2 * zs
    return float(us.max() - us.min()), float(vs.max() - vs.min())


def draws_flat(geometry: MeshGeometry, yaw: float, pitch: float) -> bool:
    """Whether this rotation shows a part with nodes apart as a line or a point."""
    width, height = projected_extent(geometry, yaw, pitch)
    _, radius = geometry.center_and_radius()
    return geometry.node_count > 1 and min(width, height) <= FLAT_RATIO * radius


def face_on_view(geometry: MeshGeometry) -> View:
    """The axis view that shows the part largest (area, then outline; +Z on ties)."""
    def size(view: View) -> tuple[float, float]:
        width, height = projected_extent(geometry, view.yaw, view.pitch)
        return width * height, width + height

    return max((v for v in VIEWS if v.key in ("PlusZ", "MinusY", "PlusX")), key=size)
