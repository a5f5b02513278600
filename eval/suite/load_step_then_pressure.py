"""Load: a step, then a pressure in it."""

from sam_plugin.compilers.load import acceptance as lc
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="load", part="Plate",
    request=("Create the static step Load-1 after Initial, then apply a pressure of 2 named "
             "PALL on all elements in Load-1."),
    checks=[lc.step("Load-1"), lc.pressure("Load-1", range(1, 17), 2.0)],
    tags=["step", "pressure", "chain"],
)


def setup(mdb):
    w.plate(mdb, "Plate", 4, 4, 40.0, 40.0)
