"""Part transform on a ~20,000-element part."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="part", part="Large",
    request="Translate the whole part by (0, 0, 25).",
    checks=[c.shape_counts(QUAD=20000), c.node_count(20301), c.bbox((0, 0, 25), (200, 100, 25))],
    tags=["transform", "large"],
)


def setup(mdb):
    w.plate(mdb, "Large", 200, 100, 200.0, 100.0)
