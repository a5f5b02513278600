"""The L2 region index as data (``regions.py`` builds it): its schema, sizes and caps
(docs/architecture.md §1, observation layer L2)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

REGIONS_SCHEMA = "sam-agent/regions/1"
AXES: tuple[str, str, str] = ("x", "y", "z")
AxisName = Literal["x", "y", "z"]

DEFAULT_GRID_CELLS = 64
DEFAULT_STATIONS = 11
MAX_COMPONENTS = 12
MAX_SETS = 24
_SIGNIFICANT = 6  # digits kept for coordinates in the index (it is an index, not geometry)

Vec3 = tuple[float, float, float]
BBox = tuple[Vec3, Vec3]
LabelRange = tuple[int, int]


def round_sig(value: float) -> float:
    """``value`` with 6 significant digits: ``4999.99999999`` -> ``5000.0``."""
    return float(f"{value:.{_SIGNIFICANT}g}")


# -- the schema ----------------------------------------------------------------------------


class _Compact(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class ComponentRegion(_Compact):
    """A set of elements connected through shared nodes (free nodes belong to none)."""

    id: int
    nodes: int
    elements: int
    bbox: BBox
    node_labels: LabelRange
    element_labels: LabelRange
    shapes: dict[str, int]


class GridIndex(_Compact):
    """A coarse grid over the part's bounding box; only occupied cells are listed.

    Cell ``(i, j, k)`` spans ``origin + (i, j, k) * cell_size`` to one cell further; a node
    counts in the cell that holds it, an element in the cell of its first node.
    """

    origin: Vec3
    cell_size: Vec3
    divisions: tuple[int, int, int]
    columns: tuple[str, ...] = ("i", "j", "k", "nodes", "elements")
    cells: list[tuple[int, int, int, int, int]]


class SetRegion(_Compact):
    name: str
    nodes: int
    elements: int
    bbox: BBox | None


class ShapeRegion(_Compact):
    shape: str
    elements: int
    bbox: BBox
    element_labels: LabelRange


class Station(_Compact):
    """The slab ``span`` of the longest axis around position ``at``: what lies there."""

    at: float
    span: tuple[float, float]
    nodes: int
    elements: int
    bbox: BBox | None


class StationLines(_Compact):
    axis: AxisName
    stations: list[Station]


class RegionIndex(_Compact):
    """L2 of the observation: ``model_dump_json()`` is the compact form that goes into prompts."""

    schema_id: str = REGIONS_SCHEMA
    fingerprint: str
    nodes: int
    elements: int
    free_nodes: int
    bbox: BBox | None
    node_labels: LabelRange | None
    element_labels: LabelRange | None
    longest_axis: AxisName | None
    components_total: int
    components: list[ComponentRegion]
    shapes: list[ShapeRegion]
    sets_total: int
    sets: list[SetRegion]
    grid: GridIndex | None
    stations: StationLines | None
    notes: list[str] = Field(default_factory=list)
