"""Refine everything, the level said as 'twice as fine'."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="mesh", part="Slab",
    request="Make the whole mesh twice as fine.",
    checks=[c.shape_counts(QUAD=24), c.node_count(35), c.bbox((0, 0, 0), (30, 20, 0))],
    tags=["refine", "indirect"],
)


def setup(mdb):
    w.plate(mdb, "Slab", 3, 2, 30.0, 20.0)
