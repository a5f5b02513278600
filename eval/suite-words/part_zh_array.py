"""A linear array, Chinese, counting the new plates."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="part", part="Tile",
    request="沿 Y 方向再排两块一样的板，每块间隔 15。",
    checks=[c.shape_counts(QUAD=3), c.bbox((0, 0, 0), (15, 45, 0))],
    tags=["transform", "linear_array", "indirect", "zh"],
)


def setup(mdb):
    w.plate(mdb, "Tile", 1, 1, 15.0, 15.0)
