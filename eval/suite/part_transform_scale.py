"""Part transform: uniform scale about the origin."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="part", part="Plate",
    request="Scale the whole part by a factor of 2 about the origin.",
    checks=[c.shape_counts(QUAD=4), c.node_count(9), c.bbox((0, 0, 0), (20, 20, 0))],
    tags=["transform"],
)


def setup(mdb):
    w.plate(mdb, "Plate", 2, 2, 10.0, 10.0)
