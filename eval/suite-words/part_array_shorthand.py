"""A linear array, shorthand."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="part", part="Cell",
    request="array in Y, 3 total, pitch 12",
    checks=[c.shape_counts(QUAD=3), c.bbox((0, 0, 0), (12, 36, 0))],
    tags=["transform", "linear_array", "shorthand"],
)


def setup(mdb):
    w.plate(mdb, "Cell", 1, 1, 12.0, 12.0)
