"""Load: a step, then a force in it, in everyday words."""

from sam_plugin.compilers.load import acceptance as lc
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="load", part="Shed",
    request=("Add a step Bend right after Initial and pull node 25 sideways with a force of "
             "(10, 0, 0) in it; call the force SIDE."),
    checks=[lc.step("Bend"), lc.force("Bend", [25], [10, 0, 0])],
    tags=["step", "force", "chain"],
)


def setup(mdb):
    w.plate(mdb, "Shed", 4, 4, 40.0, 40.0)
