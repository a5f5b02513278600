"""Load: a clamped edge, in everyday words."""

from sam_plugin.compilers.load import acceptance as lc
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="load", part="Shed",
    request="Clamp the bottom edge y = 0 completely and call it ROOT.",
    checks=[lc.fixed([1, 2, 3, 4, 5])],
    tags=["boundary", "place"],
)


def setup(mdb):
    w.plate(mdb, "Shed", 4, 4, 40.0, 40.0)
