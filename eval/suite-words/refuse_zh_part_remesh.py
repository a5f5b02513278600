"""Nothing runs: a remesh, Chinese, in Part mode."""

from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="part", part="Sheet",
    request="把这块板重新划分网格，单元尺寸改成 2。",
    expect="nothing_runs", category="mesh_generation",
    tags=["refuse", "zh"],
)


def setup(mdb):
    w.plate(mdb, "Sheet", 5, 5, 50.0, 50.0)
