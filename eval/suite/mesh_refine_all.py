"""Mesh refine: every element one level."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="mesh", part="Plate",
    request="Refine all elements by one level.",
    checks=[c.shape_counts(QUAD=16), c.node_count(25), c.bbox((0, 0, 0), (10, 10, 0))],
    tags=["refine"],
)


def setup(mdb):
    w.plate(mdb, "Plate", 2, 2, 10.0, 10.0)
