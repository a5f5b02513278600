"""Translate up, the distance in cm (the model is in mm)."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="part", part="Tray",
    request="Raise the whole thing by 5 cm.",
    checks=[c.node_count(4), c.bbox((0, 0, 50), (10, 10, 50))],
    tags=["transform", "translate", "units"],
)


def setup(mdb):
    w.plate(mdb, "Tray", 1, 1, 10.0, 10.0)
