"""Translate, Chinese, along negative X."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="part", part="Pad",
    request="把整个零件往 X 负方向挪 30。",
    checks=[c.node_count(9), c.bbox((-30, 0, 0), (-10, 20, 0))],
    tags=["transform", "translate", "zh"],
)


def setup(mdb):
    w.plate(mdb, "Pad", 2, 2, 20.0, 20.0)
