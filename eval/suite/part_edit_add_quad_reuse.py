"""Part edit reusing existing coordinates: the new QUAD shares two nodes."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="part", part="Plate",
    request=(
        "Add one QUAD element with corners (2, 0, 0), (3, 0, 0), (3, 1, 0), (2, "
        "1, 0). Reuse the existing nodes at (2, 0, 0) and (2, 1, 0)."
    ),
    checks=[c.shape_counts(QUAD=3), c.node_count(8), c.no_coincident_nodes(),
            c.bbox((0, 0, 0), (3, 1, 0))],
    tags=["edit", "reuse"],
)


def setup(mdb):
    w.plate(mdb, "Plate", 2, 1, 2.0, 1.0)
