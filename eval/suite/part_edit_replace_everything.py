"""Part edit with explicit intent to replace everything (clear_all allowed)."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="part", part="Plate",
    request=(
        "Delete everything in the part and replace it with a single QUAD element "
        "with corners (0, 0, 0), (10, 0, 0), (10, 10, 0), (0, 10, 0)."
    ),
    checks=[c.shape_counts(QUAD=1), c.node_count(4), c.bbox((0, 0, 0), (10, 10, 0))],
    tags=["edit", "clear_all"],
)


def setup(mdb):
    w.plate(mdb, "Plate", 4, 4, 10.0, 10.0)
