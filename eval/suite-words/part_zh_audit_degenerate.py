"""Audit, Chinese: degenerate elements only."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="part", part="Sheet7",
    request="帮我查一下这个零件里有没有退化的单元，别做任何修改。",
    checks=[c.shape_counts(QUAD=4), c.node_count(9)],
    tags=["audit", "zh"],
)


def setup(mdb):
    w.plate(mdb, "Sheet7", 2, 2, 20.0, 20.0)
