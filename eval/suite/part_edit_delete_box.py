"""Part edit: delete the elements inside a box."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="part", part="Plate",
    request="Delete the elements that lie inside the box from (0, 0, 0) to (5, 5, 0).",
    checks=[c.shape_counts(QUAD=75), c.elements_in_box((0, 0, 0), (5, 5, 0), 0),
            c.elements_in_box((0, 0, 0), (10, 10, 0), 75)],
    tags=["edit"],
)


def setup(mdb):
    w.plate(mdb, "Plate", 10, 10, 10.0, 10.0)
