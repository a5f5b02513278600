"""A linear array, the count as 'four more'."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="part", part="Unit",
    request="Repeat this bay four more times along X, 25 apart.",
    checks=[c.shape_counts(QUAD=5), c.bbox((0, 0, 0), (125, 10, 0))],
    tags=["transform", "linear_array", "indirect"],
)


def setup(mdb):
    w.plate(mdb, "Unit", 1, 1, 25.0, 10.0)
