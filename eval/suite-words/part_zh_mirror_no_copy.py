"""Mirror without keeping the original, Chinese."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="part", part="Ear",
    request="把零件关于 YZ 平面镜像过去，不保留原来的。",
    checks=[c.shape_counts(QUAD=2), c.node_count(6), c.bbox((-30, 0, 0), (-10, 10, 0))],
    tags=["transform", "mirror", "zh"],
)


def setup(mdb):
    w.plate(mdb, "Ear", 2, 1, 20.0, 10.0, origin=(10, 0, 0))
