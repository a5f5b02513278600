"""Assign to a set, Chinese."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="property", part="Band",
    request="把截面 THIN 赋给集合 EDGE 里的单元。",
    checks=[c.coverage("THIN", count=2), c.shape_counts(QUAD=4)],
    tags=["assign", "sets", "zh"],
)


def setup(mdb):
    part = w.plate(mdb, "Band", 4, 1, 40.0, 10.0)
    w.element_set(part, "EDGE", [1, 4])
    w.steel(mdb)
    w.shell(mdb, "THIN", "Steel", 1.0)
