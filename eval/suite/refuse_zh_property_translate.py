"""Nothing runs, Chinese request: Property mode asked to move the geometry."""

from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="property", part="Plate",
    request="把零件的所有节点沿 Z 方向平移 10。",
    expect="nothing_runs", category="geometry",
    tags=["refuse", "zh"],
)


def setup(mdb):
    w.plate(mdb, "Plate", 2, 2, 10.0, 10.0)
