"""Add a patch of quads, shorthand, joined at the edge."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="part", part="Shelf",
    request="extend +X: quad patch x 10..30, y 0..10, 2x1, joined at x=10",
    checks=[
        c.shape_counts(QUAD=3),
        c.node_count(8),
        c.no_coincident_nodes(),
        c.bbox((0, 0, 0), (30, 10, 0)),
    ],
    tags=["edit", "add_elements", "shorthand"],
)


def setup(mdb):
    w.plate(mdb, "Shelf", 1, 1, 10.0, 10.0)
