"""Add free nodes, Chinese."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="part", part="Base",
    request="在 (0, 0, -10) 和 (30, 30, -10) 各加一个孤立节点，不连任何单元。",
    checks=[c.shape_counts(QUAD=9), c.node_count(18), c.nodes_at((0, 0, -10), (30, 30, -10))],
    tags=["edit", "add_nodes", "zh"],
)


def setup(mdb):
    w.plate(mdb, "Base", 3, 3, 30.0, 30.0)
