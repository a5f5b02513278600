"""The coarse spatial grid of occupied cells and the station lines along the longest axis
of the L2 region index: whole-array bincounts, whatever the part's size (``regions.py``)."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from sam_plugin.runtime.observe.region_schema import (
    AXES,
    GridIndex,
    Station,
    StationLines,
    Vec3,
    round_sig,
)

# -- grid ----------------------------------------------------------------------------------


def grid_divisions(extent: Sequence[float], budget: int) -> tuple[int, int, int]:
    """Cells per axis, about cubic, at most ``budget`` in all; a flat axis gets one cell.

    A first guess from the volume, coarsened until it fits, then refined one axis at a time
    (the axis with the longest cells first) while the budget allows.
    """
    longest = max(extent)
    if longest <= 0:
        return (1, 1, 1)
    active = [a for a, e in enumerate(extent) if e > longest * 1e-6]
    size = math.prod(extent[a] for a in active) ** (1 / len(active)) / budget ** (
        1 / len(active))
    while True:
        divisions = [1, 1, 1]
        for a in active:
            divisions[a] = max(1, math.ceil(extent[a] / size))
        if math.prod(divisions) <= budget:
            break
        size *= 1.05
    while True:
        for a in sorted(active, key=lambda a: -extent[a] / divisions[a]):
            if math.prod(divisions) // divisions[a] * (divisions[a] + 1) <= budget:
                divisions[a] += 1
                break
        else:
            return (divisions[0], divisions[1], divisions[2])


def grid_index(coordinates: np.ndarray, low: Vec3, high: Vec3, budget: int,
               first_positions: np.ndarray) -> GridIndex:
    extent = tuple(h - lo for lo, h in zip(low, high, strict=True))
    nx, ny, nz = grid_divisions(extent, budget)
    # key (i * ny + j) * nz + k; an axis of one cell adds nothing
    keys = np.zeros(len(coordinates), dtype=np.int64)
    for axis, (count, stride) in enumerate(((nx, ny * nz), (ny, nz), (nz, 1))):
        if count > 1:
            # scaled just below count/extent so the far face falls in the last cell
            scale = count / extent[axis] * (1 - 1e-9)
            cell = ((coordinates[:, axis] - low[axis]) * scale).astype(np.int64)
            keys += cell * stride if stride > 1 else cell
    node_counts = np.bincount(keys)
    element_counts = np.bincount(keys[first_positions], minlength=len(node_counts))
    cells = []
    for key in np.flatnonzero(node_counts).tolist():
        i, rest = divmod(key, ny * nz)
        j, k = divmod(rest, nz)
        cells.append((i, j, k, int(node_counts[key]), int(element_counts[key])))
    cell_size = tuple(round_sig(e / n) for e, n in zip(extent, (nx, ny, nz), strict=True))
    return GridIndex(origin=tuple(map(round_sig, low)), cell_size=cell_size,
                     divisions=(nx, ny, nz), cells=cells)


# -- stations ------------------------------------------------------------------------------


def station_lines(coordinates: np.ndarray, axis: int, low: float, high: float, count: int,
                  first_positions: np.ndarray) -> StationLines:
    """``count`` evenly spaced stations from end to end; each owns the slab nearest to it."""
    scale = (count - 1) / (high - low)
    pitch = 1 / scale
    keys = ((coordinates[:, axis] - low) * scale + 0.5).astype(np.int64)
    node_counts = np.bincount(keys, minlength=count).tolist()
    element_counts = np.bincount(keys[first_positions], minlength=count).tolist()
    # each station's extent per axis, by scatter-min/max of every node into its station
    lows = np.full((3, count), np.inf)
    highs = np.full((3, count), -np.inf)
    for column in range(3):
        values = coordinates[:, column]
        np.minimum.at(lows[column], keys, values)
        np.maximum.at(highs[column], keys, values)
    lows_list, highs_list = lows.T.tolist(), highs.T.tolist()
    stations = []
    for number in range(count):
        at = low + number * pitch
        size = node_counts[number]
        bbox = None
        if size:
            bbox = (tuple(map(round_sig, lows_list[number])),
                    tuple(map(round_sig, highs_list[number])))
        stations.append(Station(
            at=round_sig(at),
            span=(round_sig(max(low, at - pitch / 2)), round_sig(min(high, at + pitch / 2))),
            nodes=size,
            elements=element_counts[number],
            bbox=bbox,
        ))
    return StationLines(axis=AXES[axis], stations=stations)
