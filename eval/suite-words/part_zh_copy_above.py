"""A translated copy, Chinese."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="part", part="Level",
    request="把这块板复制一份，放在它正上方 100 的地方（沿 Z 方向）。",
    checks=[c.shape_counts(QUAD=8), c.node_count(18), c.bbox((0, 0, 0), (20, 20, 100))],
    tags=["transform", "translate_copy", "zh"],
)


def setup(mdb):
    w.plate(mdb, "Level", 2, 2, 20.0, 20.0)
