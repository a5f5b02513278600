"""Part transform: a linear array of copies."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="part", part="Plate",
    request=(
        "Make a linear array of the part along X: 3 additional copies spaced 10 "
        "apart, so 4 plates in total side by side."
    ),
    checks=[c.shape_counts(QUAD=4), c.bbox((0, 0, 0), (40, 10, 0))],
    tags=["transform"],
)


def setup(mdb):
    w.plate(mdb, "Plate", 1, 1, 10.0, 10.0)
