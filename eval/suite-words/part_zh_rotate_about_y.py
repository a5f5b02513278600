"""Rotate, Chinese, about Y."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="part", part="Fin",
    request="绕过原点的 Y 轴把零件转 90 度。",
    checks=[c.node_count(6), c.bbox((0, 0, -20), (0, 10, 0))],
    tags=["transform", "rotate", "zh"],
)


def setup(mdb):
    w.plate(mdb, "Fin", 2, 1, 20.0, 10.0)
