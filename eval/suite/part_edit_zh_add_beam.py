"""Part edit, Chinese request: a BEAM reusing an existing corner node."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="part", part="Plate",
    request="在现有节点 (0, 0, 0) 和新点 (0, 0, 100) 之间添加一个梁（BEAM）单元，复用已有节点。",
    checks=[c.shape_counts(QUAD=1, BEAM=1), c.node_count(5), c.nodes_at((0, 0, 100)),
            c.no_coincident_nodes()],
    tags=["edit", "reuse", "zh"],
)


def setup(mdb):
    w.plate(mdb, "Plate", 1, 1, 10.0, 10.0)
