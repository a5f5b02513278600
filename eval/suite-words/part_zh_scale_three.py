"""Scale, Chinese."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="part", part="Cap",
    request="以原点为中心把零件放大到原来的三倍。",
    checks=[c.node_count(4), c.bbox((0, 0, 0), (30, 30, 0))],
    tags=["transform", "scale", "zh"],
)


def setup(mdb):
    w.plate(mdb, "Cap", 1, 1, 10.0, 10.0)
