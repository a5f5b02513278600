"""Build, Chinese: a plate in the XZ plane."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="part", part="Strip",
    request=(
        "在 XZ 平面里建一块 300 × 100 的板（X 向 300，Z 向 100），一个角在原点，X "
        "向分 6 格、Z 向分 2 格，用四边形单元。"
    ),
    checks=[c.shape_counts(QUAD=12), c.node_count(21), c.bbox((0, 0, 0), (300, 0, 100))],
    tags=["build", "plane", "zh"],
)


def setup(mdb):
    pass
