"""Chain transform -> repair -> audit: a translated copy, merged at the shared edge."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="part", part="Plate",
    request=(
        "Copy all elements translated by (10, 0, 0), then merge coincident nodes "
        "with tolerance 0.001, then audit the part."
    ),
    checks=[c.shape_counts(QUAD=8), c.node_count(15), c.no_coincident_nodes(),
            c.bbox((0, 0, 0), (20, 10, 0))],
    tags=["transform", "repair", "audit", "chain"],
)


def setup(mdb):
    w.plate(mdb, "Plate", 2, 2, 10.0, 10.0)
