"""Part transform: translate the whole part."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="part", part="Plate",
    request="Translate the whole part by (100, 0, 0).",
    checks=[c.shape_counts(QUAD=4), c.node_count(9), c.bbox((100, 0, 0), (120, 20, 0))],
    tags=["transform"],
)


def setup(mdb):
    w.plate(mdb, "Plate", 2, 2, 20.0, 20.0)
