"""Add a free node placed by a named place (the middle)."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="part", part="Cover",
    request=(
        "Put one loose node 25 above the middle of the plate, not attached to any "
        "element."
    ),
    checks=[c.shape_counts(QUAD=4), c.node_count(10), c.nodes_at((20, 20, 25))],
    tags=["edit", "add_nodes", "place"],
)


def setup(mdb):
    w.plate(mdb, "Cover", 2, 2, 40.0, 40.0)
