"""Nothing runs: a fixed edge, Chinese, in Part mode."""

from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="part", part="Base",
    request="把底边全部固定住，六个自由度都约束。",
    expect="nothing_runs", category="boundary_condition",
    tags=["refuse", "zh"],
)


def setup(mdb):
    w.plate(mdb, "Base", 2, 2, 20.0, 20.0)
