"""How far a transform call's operations can carry the part's coordinates, refused at
compile when beyond what a coordinate may hold (``schema_common.COORDINATE_LIMIT``): a scale
whose coordinates overflow would run, fail and be restored; here it is one line instead.

The reach is the part's bounding box carried through each operation: its eight corners
mapped by the operation (a translate, rotate, mirror, scale) and, for one that copies, kept
beside their images. An operation on a subset moves points inside that box, so the reach
holds for every selection (it may exceed the selection's own, never fall short).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from sam_plugin.compilers.part.ir import (
    LinearArrayOp,
    MirrorOp,
    RotateOp,
    ScaleOp,
    TranslateCopyOp,
    TranslateOp,
)
from sam_plugin.compilers.protocol import Diagnostic
from sam_plugin.compilers.schema_common import COORDINATE_LIMIT
from sam_plugin.samops.mesh_read import Box


def check_reach(operations: Sequence[Any], bounds: Box | None) -> list[Diagnostic]:
    """The first operation that carries a coordinate beyond ±COORDINATE_LIMIT, one line;
    ``bounds``: the part's node box (``mesh_read.node_box``; None without nodes)."""
    if bounds is None:
        return []
    points = _corners(np.asarray(bounds[0], float), np.asarray(bounds[1], float))
    for index, op in enumerate(operations):
        with np.errstate(over="ignore", invalid="ignore"):
            moved = _images(op, points)
        reach = float(np.max(np.abs(moved))) if moved.size else 0.0
        if not math.isfinite(reach) or reach > COORDINATE_LIMIT:
            said = f"{reach:.3g}" if math.isfinite(reach) else "infinity"
            return [Diagnostic(path=f"operations[{index}]", message=(
                f"this {op.op} carries coordinates to {said}, beyond the ±{COORDINATE_LIMIT:g} "
                "a coordinate may hold; nothing runs (use a smaller factor or vector)"))]
        points = _corners(moved.min(axis=0), moved.max(axis=0))
    return []


def _images(op: Any, points: np.ndarray) -> np.ndarray:
    """The box corners ``points`` after ``op``, with the originals when it copies."""
    image: np.ndarray
    if isinstance(op, TranslateOp):
        image = points + np.asarray(op.vector, float)
        return image
    if isinstance(op, TranslateCopyOp):
        return np.vstack([points, points + np.asarray(op.vector, float)])
    if isinstance(op, LinearArrayOp):
        far = points + (op.count - 1) * np.asarray(op.vector, float)
        return np.vstack([points, far])
    if isinstance(op, ScaleOp):
        origin = np.asarray(op.origin, float)
        image = origin + op.factor * (points - origin)
        return image
    if isinstance(op, RotateOp):
        origin = np.asarray(op.origin, float)
        image = origin + (points - origin) @ _rotation(op.axis, op.angle_deg).T
        return image
    if isinstance(op, MirrorOp):
        origin, normal = np.asarray(op.origin, float), np.asarray(op.normal, float)
        unit = normal / np.linalg.norm(normal)
        image = points - 2.0 * np.outer((points - origin) @ unit, unit)
        return np.vstack([points, image]) if op.make_copy else image
    return points


def _rotation(axis: Sequence[float], degrees: float) -> np.ndarray:
    """Rodrigues' rotation matrix about ``axis`` (a direction the compile checked)."""
    unit = np.asarray(axis, float) / np.linalg.norm(axis)
    x, y, z = unit
    cross = np.array([[0.0, -z, y], [z, 0.0, -x], [-y, x, 0.0]])
    angle = math.radians(degrees)
    matrix: np.ndarray = np.eye(3) + math.sin(angle) * cross + \
        (1.0 - math.cos(angle)) * (cross @ cross)
    return matrix


def _corners(low: np.ndarray, high: np.ndarray) -> np.ndarray:
    return np.array([[hx, hy, hz] for hx in (low[0], high[0]) for hy in (low[1], high[1])
                     for hz in (low[2], high[2])])
