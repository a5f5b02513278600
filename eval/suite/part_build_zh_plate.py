"""Part build, Chinese request: a QUAD plate."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="part", part="Plate",
    request=(
        "建立一个 100 x 50 的矩形板，角点在原点，"
        "位于 XY 平面，划分为 10 x 5 个四边形（QUAD）单元。"
    ),
    checks=[c.shape_counts(QUAD=50), c.node_count(66), c.bbox((0, 0, 0), (100, 50, 0))],
    tags=["build", "zh"],
)


def setup(mdb):
    pass
