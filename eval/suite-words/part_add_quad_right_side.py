"""Add a quad placed by a named edge, sharing its nodes."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="part", part="Tab",
    request=(
        "Add one more quad on the right-hand side of the plate, the same size as the "
        "others, sharing the plate's right edge."
    ),
    checks=[
        c.shape_counts(QUAD=3),
        c.node_count(8),
        c.no_coincident_nodes(),
        c.bbox((0, 0, 0), (30, 10, 0)),
    ],
    tags=["edit", "add_elements", "place", "reuse"],
)


def setup(mdb):
    w.plate(mdb, "Tab", 2, 1, 20.0, 10.0)
