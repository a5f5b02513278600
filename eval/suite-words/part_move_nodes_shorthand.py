"""Move two nodes by label, shorthand."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="part", part="Link",
    request="n3 -> (22,0,0), n6 -> (22,10,0)",
    checks=[
        c.node_count(6),
        c.nodes_at((22, 0, 0), (22, 10, 0)),
        c.no_node_at((20, 0, 0), (20, 10, 0)),
    ],
    tags=["edit", "move_nodes", "shorthand"],
)


def setup(mdb):
    w.plate(mdb, "Link", 2, 1, 20.0, 10.0)
