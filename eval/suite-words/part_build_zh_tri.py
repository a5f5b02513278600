"""Build, Chinese: a triangle plate."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="part", part="Shim",
    request=(
        "用三角形单元在 XY 平面建一块 60 × 40 的板，角点在原点，分成 3 × 2 格，"
        "每格两个三角形。"
    ),
    checks=[c.shape_counts(TRI=12), c.node_count(12), c.bbox((0, 0, 0), (60, 40, 0))],
    tags=["build", "tri", "zh"],
)


def setup(mdb):
    pass
