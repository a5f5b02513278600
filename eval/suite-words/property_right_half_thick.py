"""Assign to a region named by place (the right half)."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="property", part="Door",
    request="Give the right half of the plate the section THICK.",
    checks=[c.coverage("THICK", count=4, box=((20, 0, 0), (40, 20, 0))), c.shape_counts(QUAD=8)],
    tags=["assign", "place"],
)


def setup(mdb):
    w.plate(mdb, "Door", 4, 2, 40.0, 20.0)
    w.steel(mdb)
    w.shell(mdb, "THICK", "Steel", 6.0)
