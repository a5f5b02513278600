"""Load: a concentrated force on the node at a point."""

from sam_plugin.compilers.load import acceptance as lc
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="load", part="Plate",
    request=("Apply a concentrated force of (0, -200, 0) named TIP to the node at (40, 40, 0) "
             "in the step Load-1."),
    checks=[lc.force("Load-1", [25], [0, -200, 0])],
    tags=["force", "place"],
)


def setup(mdb):
    w.plate(mdb, "Plate", 4, 4, 40.0, 40.0)
    mdb.models["Model-1"].StaticStep(name="Load-1", previous="Initial")
