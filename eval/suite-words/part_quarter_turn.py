"""Rotate: a quarter turn about X, said by the plane it ends in."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="part", part="Arm",
    request=(
        "Stand the plate up on its bottom edge: a quarter turn about the X axis "
        "through the origin, so that it ends up in the XZ plane."
    ),
    checks=[c.node_count(6), c.bbox((0, 0, 0), (20, 0, 10))],
    tags=["transform", "rotate", "indirect"],
)


def setup(mdb):
    w.plate(mdb, "Arm", 2, 1, 20.0, 10.0)
