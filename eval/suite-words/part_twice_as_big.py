"""Scale, the factor said in words."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="part", part="Washer",
    request="Make the part twice as big, keeping its corner at the origin where it is.",
    checks=[c.node_count(9), c.bbox((0, 0, 0), (30, 30, 0))],
    tags=["transform", "scale", "indirect"],
)


def setup(mdb):
    w.plate(mdb, "Washer", 2, 2, 15.0, 15.0)
