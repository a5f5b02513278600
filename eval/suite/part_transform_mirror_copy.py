"""Part transform: mirror copy about x = 0, keeping the original."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="part", part="Plate",
    request=(
        "Mirror the part about the plane x = 0 (normal (1, 0, 0) through the origin) "
        "as a copy, keeping the original elements."
    ),
    checks=[c.shape_counts(QUAD=8), c.bbox((-10, 0, 0), (10, 10, 0))],
    tags=["transform"],
)


def setup(mdb):
    w.plate(mdb, "Plate", 2, 2, 10.0, 10.0)
