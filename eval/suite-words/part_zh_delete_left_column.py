"""Delete elements named by place, Chinese (the left column)."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="part", part="Board",
    request="删掉板最左边那一列单元。",
    checks=[c.shape_counts(QUAD=12), c.elements_in_box((0, 0, 0), (10, 30, 0), 0)],
    tags=["edit", "delete_elements", "place", "zh"],
)


def setup(mdb):
    w.plate(mdb, "Board", 5, 3, 50.0, 30.0)
