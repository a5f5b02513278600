"""Part edit: move one node by label."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="part", part="Plate",
    request="Move node 5 (the centre node, now at (1, 1, 0)) to (1, 1, 0.5).",
    checks=[c.shape_counts(QUAD=4), c.node_count(9), c.nodes_at((1, 1, 0.5)),
            c.no_node_at((1, 1, 0))],
    tags=["edit"],
)


def setup(mdb):
    w.plate(mdb, "Plate", 2, 2, 2.0, 2.0)
