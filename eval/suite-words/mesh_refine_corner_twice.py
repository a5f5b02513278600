"""Refine a region named by place, twice."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="mesh", part="Slab",
    request="Refine the lower-left quarter of the plate twice.",
    checks=[c.shape_counts(QUAD=76), c.elements_in_box((0, 0, 0), (20, 20, 0), 64)],
    tags=["refine", "place", "indirect"],
)


def setup(mdb):
    w.plate(mdb, "Slab", 4, 4, 40.0, 40.0)
