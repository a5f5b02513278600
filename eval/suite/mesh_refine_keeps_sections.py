"""Mesh refine inherits the section assignment."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="mesh", part="Plate",
    request="Refine all elements of the set TOP by one level.",
    checks=[c.shape_counts(QUAD=7), c.coverage("SHELL_2", "QUAD")],
    tags=["refine", "sets"],
)


def setup(mdb):
    part = w.plate(mdb, "Plate", 2, 2, 10.0, 10.0)
    w.element_set(part, "TOP", [3])
    w.steel(mdb)
    w.shell(mdb, "SHELL_2", "Steel", 2.0)
    w.assign_all(part, "SHELL_2")
