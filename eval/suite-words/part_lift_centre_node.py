"""Move a node named by place, by a distance in mm."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="part", part="Dome",
    request="Lift the centre node of the plate by 2.5 mm.",
    checks=[c.node_count(9), c.nodes_at((15, 15, 2.5)), c.no_node_at((15, 15, 0))],
    tags=["edit", "move_nodes", "place", "units"],
)


def setup(mdb):
    w.plate(mdb, "Dome", 2, 2, 30.0, 30.0)
