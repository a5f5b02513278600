"""Refine everything three levels, Chinese."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="mesh", part="Slab",
    request="把网格加密三次，整块板都要。",
    checks=[c.shape_counts(QUAD=64), c.node_count(81)],
    tags=["refine", "zh"],
)


def setup(mdb):
    w.plate(mdb, "Slab", 1, 1, 10.0, 10.0)
