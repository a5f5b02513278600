"""Part edit: an element set chosen by a box."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="part", part="Plate",
    request=(
        "Create an element set named LEFT holding the elements inside the box from "
        "(0, 0, 0) to (2, 10, 0)."
    ),
    checks=[c.shape_counts(QUAD=100), c.element_set("LEFT", 20, box=((0, 0, 0), (2, 10, 0)))],
    tags=["edit", "sets"],
)


def setup(mdb):
    w.plate(mdb, "Plate", 10, 10, 10.0, 10.0)
