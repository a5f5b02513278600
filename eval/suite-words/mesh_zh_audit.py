"""Mesh audit, Chinese."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="mesh", part="Slab",
    request="检查一下网格质量，不要修改。",
    checks=[c.shape_counts(QUAD=6), c.node_count(12)],
    tags=["audit", "zh"],
)


def setup(mdb):
    w.plate(mdb, "Slab", 3, 2, 30.0, 20.0)
