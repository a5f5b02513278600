"""Scale about a named place, shorthand."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="part", part="Inset",
    request="scale 0.5 about the middle",
    checks=[c.node_count(9), c.bbox((5, 5, 0), (15, 15, 0))],
    tags=["transform", "scale", "place", "shorthand"],
)


def setup(mdb):
    w.plate(mdb, "Inset", 2, 2, 20.0, 20.0)
