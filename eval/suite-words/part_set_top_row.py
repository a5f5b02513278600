"""An element set named by place (the top row)."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="part", part="Wall",
    request="Group the top row of elements into a set called TOP_ROW.",
    checks=[c.shape_counts(QUAD=9), c.element_set("TOP_ROW", 3, box=((0, 20, 0), (30, 30, 0)))],
    tags=["edit", "sets", "place"],
)


def setup(mdb):
    w.plate(mdb, "Wall", 3, 3, 30.0, 30.0)
