"""Chain transform -> repair -> audit, Chinese request."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="part", part="Plate",
    request="把全部单元沿 X 平移 500 后合并重合节点（容差 0.001）并审计。",
    checks=[c.shape_counts(QUAD=8), c.node_count(15), c.no_coincident_nodes(),
            c.bbox((500, 0, 0), (520, 10, 0))],
    tags=["transform", "repair", "audit", "chain", "zh"],
)


def setup(mdb):
    part = w.plate(mdb, "Plate", 2, 2, 10.0, 10.0)
    w.plate(mdb, "Plate", 2, 2, 10.0, 10.0, origin=(10, 0, 0), part=part)  # duplicate edge nodes
