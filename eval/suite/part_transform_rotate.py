"""Part transform: rotate about Z through the origin."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="part", part="Plate",
    request="Rotate the whole part by 90 degrees about the Z axis through the origin.",
    checks=[c.shape_counts(QUAD=2), c.node_count(6), c.bbox((-5, 0, 0), (0, 10, 0))],
    tags=["transform"],
)


def setup(mdb):
    w.plate(mdb, "Plate", 2, 1, 10.0, 5.0)
