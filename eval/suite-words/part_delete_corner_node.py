"""Delete a node named by place, with the element on it."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="part", part="Flap",
    request=(
        "Remove the node at the top-right corner of the plate, along with the "
        "element that uses it."
    ),
    checks=[c.shape_counts(QUAD=3), c.node_count(8), c.no_node_at((20, 20, 0))],
    tags=["edit", "delete_nodes", "place"],
)


def setup(mdb):
    w.plate(mdb, "Flap", 2, 2, 20.0, 20.0)
