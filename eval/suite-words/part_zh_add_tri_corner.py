"""Add a triangle, Chinese, reusing a corner node."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="part", part="Corner",
    request=(
        "在板右上角外侧补一个三角形单元，三个角点是 (10, 10, 0)、(15, 10, 0) 和 (10, "
        "15, 0)，(10, 10, 0) 用现有的节点。"
    ),
    checks=[c.shape_counts(QUAD=1, TRI=1), c.node_count(6), c.no_coincident_nodes()],
    tags=["edit", "add_elements", "zh", "reuse"],
)


def setup(mdb):
    w.plate(mdb, "Corner", 1, 1, 10.0, 10.0)
