"""Move a node named by place, Chinese."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="part", part="Lid",
    request="把板左下角的那个节点挪到 (-5, -5, 0)。",
    checks=[c.node_count(9), c.nodes_at((-5, -5, 0)), c.no_node_at((0, 0, 0))],
    tags=["edit", "move_nodes", "place", "zh"],
)


def setup(mdb):
    w.plate(mdb, "Lid", 2, 2, 20.0, 20.0)
