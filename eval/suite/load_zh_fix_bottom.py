"""Load, Chinese request: the bottom edge fixed."""

from sam_plugin.compilers.load import acceptance as lc
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="load", part="Plate",
    request="将板底边 y = 0 上的节点全部固定（六个自由度），边界条件命名为 BASE。",
    checks=[lc.fixed([1, 2, 3, 4, 5])],
    tags=["boundary", "zh"],
)


def setup(mdb):
    w.plate(mdb, "Plate", 4, 4, 40.0, 40.0)
