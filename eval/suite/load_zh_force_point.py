"""Load, Chinese request: a force on the node at a point."""

from sam_plugin.compilers.load import acceptance as lc
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="load", part="Plate",
    request="在分析步 Load-1 中，对坐标 (40, 0, 0) 处的节点施加集中力 (100, 0, 0)，载荷命名为 F1。",
    checks=[lc.force("Load-1", [5], [100, 0, 0])],
    tags=["force", "zh"],
)


def setup(mdb):
    w.plate(mdb, "Plate", 4, 4, 40.0, 40.0)
    mdb.models["Model-1"].StaticStep(name="Load-1", previous="Initial")
