"""A linear array, Chinese, counting the new copies."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="part", part="Tile",
    request="沿 X 方向再复制 3 份，间距 10。",
    checks=[c.shape_counts(QUAD=4), c.bbox((0, 0, 0), (40, 10, 0))],
    tags=["transform", "linear_array", "indirect", "zh"],
)


def setup(mdb):
    w.plate(mdb, "Tile", 1, 1, 10.0, 10.0)
