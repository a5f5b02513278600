"""Assign to one set only."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="property", part="Stiffened",
    request="Put the existing 4 mm section SHELL_4 on the RIB set only, nothing else.",
    checks=[c.coverage("SHELL_4", count=3, box=((0, 0, 0), (30, 10, 0))), c.shape_counts(QUAD=9)],
    tags=["assign", "sets"],
)


def setup(mdb):
    part = w.plate(mdb, "Stiffened", 3, 3, 30.0, 30.0)
    w.element_set(part, "RIB", [1, 2, 3])
    w.steel(mdb)
    w.shell(mdb, "SHELL_4", "Steel", 4.0)
