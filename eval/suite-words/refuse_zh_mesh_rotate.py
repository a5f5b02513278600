"""Nothing runs: a rotation, Chinese, in Mesh mode."""

from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="mesh", part="Vane",
    request="把零件绕 Z 轴转 45 度。",
    expect="nothing_runs", category="geometry",
    tags=["refuse", "zh"],
)


def setup(mdb):
    w.plate(mdb, "Vane", 2, 2, 20.0, 20.0)
