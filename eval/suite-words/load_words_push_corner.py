"""Load: a force on the corner node, in everyday words."""

from sam_plugin.compilers.load import acceptance as lc
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="load", part="Shed",
    request=("Push down on the corner node at (0, 40, 0) with 50 N, a force of (0, -50, 0), "
             "during Squeeze; call it PUSH."),
    checks=[lc.force("Squeeze", [21], [0, -50, 0])],
    tags=["force", "place"],
)


def setup(mdb):
    w.plate(mdb, "Shed", 4, 4, 40.0, 40.0)
    mdb.models["Model-1"].StaticStep(name="Squeeze", previous="Initial")
