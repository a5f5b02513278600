"""Nothing runs, Chinese request: a boundary condition is outside every module."""

from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="part", part="Plate",
    request="对板的底边施加固定约束，并对顶边施加 10 N 的拉力。",
    expect="nothing_runs", category="boundary_condition",
    tags=["refuse", "zh"],
)


def setup(mdb):
    w.plate(mdb, "Plate", 2, 2, 10.0, 10.0)
