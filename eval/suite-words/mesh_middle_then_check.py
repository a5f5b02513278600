"""Refine the middle, then audit."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="mesh", part="Slab",
    request="Refine the four elements in the middle one level, then check the mesh.",
    checks=[c.shape_counts(QUAD=28), c.elements_in_box((10, 10, 0), (30, 30, 0), 16)],
    tags=["refine", "audit", "place", "chain"],
)


def setup(mdb):
    w.plate(mdb, "Slab", 4, 4, 40.0, 40.0)
