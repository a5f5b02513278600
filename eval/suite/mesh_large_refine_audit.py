"""Mesh refine -> audit on a ~20,000-element part."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="mesh", part="Large",
    request=(
        "Refine the elements inside the box from (0, 0, 0) to (10, 10, 0) by one "
        "level and audit the mesh."
    ),
    checks=[c.shape_counts(QUAD=20300), c.elements_in_box((0, 0, 0), (10, 10, 0), 400)],
    tags=["refine", "audit", "large"],
)


def setup(mdb):
    w.plate(mdb, "Large", 200, 100, 200.0, 100.0)
