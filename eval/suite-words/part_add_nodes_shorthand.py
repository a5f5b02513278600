"""Add free nodes, shorthand."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="part", part="Bracket",
    request="+2 free nodes @ (0,0,50), (60,0,50)",
    checks=[c.shape_counts(QUAD=3), c.node_count(10), c.nodes_at((0, 0, 50), (60, 0, 50))],
    tags=["edit", "add_nodes", "shorthand"],
)


def setup(mdb):
    w.plate(mdb, "Bracket", 3, 1, 60.0, 20.0)
