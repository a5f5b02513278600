"""Duplicate elements and free nodes, Chinese."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="part", part="Web2",
    request="清理一下：有个单元重复了，还有两个孤零零没连单元的节点，都去掉。",
    checks=[c.shape_counts(QUAD=4), c.node_count(9), c.no_free_nodes()],
    tags=["repair", "duplicates", "free_nodes", "zh"],
)


def setup(mdb):
    from samConstants import QUAD

    part = w.plate(mdb, "Web2", 2, 2, 10.0, 10.0)
    for label in (2,):
        part.Element(nodes=part.elements.getFromLabel(label).getNodes(), elemShape=QUAD)
    part.Node(coordinates=(50.0, 50.0, 0.0))
    part.Node(coordinates=(60.0, 50.0, 0.0))
