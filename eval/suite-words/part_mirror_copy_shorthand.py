"""Mirror copy, shorthand."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="part", part="Lug",
    request="mirror copy about y=0",
    checks=[c.shape_counts(QUAD=8), c.bbox((0, -20, 0), (20, 20, 0))],
    tags=["transform", "mirror", "shorthand"],
)


def setup(mdb):
    w.plate(mdb, "Lug", 2, 2, 20.0, 20.0)
