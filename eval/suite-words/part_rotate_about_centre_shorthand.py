"""Rotate about the part's own centre, shorthand."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="part", part="Plaque",
    request="rot 90 deg about Z, around the plate's centre",
    checks=[c.node_count(9), c.bbox((10, -10, 0), (30, 30, 0))],
    tags=["transform", "rotate", "place", "shorthand"],
)


def setup(mdb):
    w.plate(mdb, "Plaque", 2, 2, 40.0, 20.0)
