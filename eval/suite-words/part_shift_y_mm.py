"""Translate, a distance in mm along a named axis."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="part", part="Block",
    request="Shift the part 150 mm along Y.",
    checks=[c.node_count(9), c.bbox((0, 150, 0), (20, 170, 0))],
    tags=["transform", "translate", "units"],
)


def setup(mdb):
    w.plate(mdb, "Block", 2, 2, 20.0, 20.0)
