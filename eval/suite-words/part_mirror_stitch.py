"""Mirror copy across a named edge, then merge the seam."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="part", part="Half",
    request=(
        "This is half of a symmetric panel. Mirror it across its right-hand edge to "
        "get the full panel, keep this half, and stitch the seam."
    ),
    checks=[
        c.shape_counts(QUAD=8),
        c.node_count(15),
        c.no_coincident_nodes(),
        c.bbox((0, 0, 0), (20, 10, 0)),
    ],
    tags=["transform", "mirror", "repair", "place", "chain"],
)


def setup(mdb):
    w.plate(mdb, "Half", 2, 2, 10.0, 10.0)
