"""An element set by labels, Chinese."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="part", part="Deck",
    request="把单元 1、2、5、6 放进一个叫 CORNER 的集合。",
    checks=[c.shape_counts(QUAD=16), c.element_set("CORNER", 4, box=((0, 0, 0), (20, 20, 0)))],
    tags=["edit", "sets", "zh"],
)


def setup(mdb):
    w.plate(mdb, "Deck", 4, 4, 40.0, 40.0)
