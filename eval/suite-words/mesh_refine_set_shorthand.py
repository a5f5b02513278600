"""Refine a set two levels, shorthand."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="mesh", part="Slab",
    request="refine set HOT x2",
    checks=[c.shape_counts(QUAD=33), c.elements_in_box((10, 0, 0), (30, 10, 0), 32)],
    tags=["refine", "sets", "shorthand"],
)


def setup(mdb):
    part = w.plate(mdb, "Slab", 3, 1, 30.0, 10.0)
    w.element_set(part, "HOT", [2, 3])
