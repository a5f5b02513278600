"""Refine a strip named by its coordinates three levels, Chinese."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="mesh", part="Rib",
    request="把 x 从 0 到 10 这一段的单元细化三级，其余不动。",
    checks=[c.shape_counts(QUAD=66), c.elements_in_box((0, 0, 0), (10, 10, 0), 64)],
    tags=["refine", "place", "zh"],
)


def setup(mdb):
    w.plate(mdb, "Rib", 3, 1, 30.0, 10.0)
