"""Load, Chinese words: two dofs of an edge held."""

from sam_plugin.compilers.load import acceptance as lc
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="load", part="Shed",
    request="把左边 x = 0 上的节点的 u1 和 u2 约束住，叫 PIN。",
    checks=[lc.displaced([1, 6, 11, 16, 21], {"u1": 0.0, "u2": 0.0})],
    tags=["boundary", "zh"],
)


def setup(mdb):
    w.plate(mdb, "Shed", 4, 4, 40.0, 40.0)
