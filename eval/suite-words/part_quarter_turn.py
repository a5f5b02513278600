"""Rotate: a quarter turn about the vertical axis."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="part", part="Arm",
    request=(
        "Give the part a quarter turn, counter-clockwise seen from above, about the "
        "vertical axis through the origin."
    ),
    checks=[c.node_count(6), c.bbox((-10, 0, 0), (0, 20, 0))],
    tags=["transform", "rotate", "indirect"],
)


def setup(mdb):
    w.plate(mdb, "Arm", 2, 1, 20.0, 10.0)
