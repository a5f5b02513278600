"""Replace everything, Chinese: triangles become quads."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="part", part="Sheet",
    request="清空这个零件，重新铺一块 20 × 20 的板，2 × 2 个四边形单元，角点在原点。",
    checks=[c.shape_counts(QUAD=4), c.node_count(9), c.bbox((0, 0, 0), (20, 20, 0))],
    tags=["edit", "clear_all", "zh"],
)


def setup(mdb):
    w.plate(mdb, "Sheet", 2, 2, 20.0, 20.0, shape="TRI")
