"""Delete elements by label, shorthand."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="part", part="Grid",
    request="del elems 3, 4 & 7",
    checks=[c.shape_counts(QUAD=5), c.elements_in_box((20, 0, 0), (40, 20, 0), 1)],
    tags=["edit", "delete_elements", "shorthand"],
)


def setup(mdb):
    w.plate(mdb, "Grid", 4, 2, 40.0, 20.0)
