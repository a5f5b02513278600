"""Chain refine -> audit on a box of elements."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="mesh", part="Plate",
    request=(
        "Refine the elements inside the box from (0, 0, 0) to (2, 2, 0) by one "
        "level, then audit the mesh."
    ),
    checks=[c.shape_counts(QUAD=28), c.elements_in_box((0, 0, 0), (2, 2, 0), 16),
            c.bbox((0, 0, 0), (4, 4, 0))],
    tags=["refine", "audit", "chain"],
)


def setup(mdb):
    w.plate(mdb, "Plate", 4, 4, 4.0, 4.0)
