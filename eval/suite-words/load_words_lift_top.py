"""Load: a displacement of an edge, in everyday words."""

from sam_plugin.compilers.load import acceptance as lc
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="load", part="Shed",
    request=("Lift the top edge y = 40 by 0.2 in the u2 direction during Squeeze; call it "
             "LIFT."),
    checks=[lc.displaced([21, 22, 23, 24, 25], {"u2": 0.2}, "Squeeze")],
    tags=["boundary", "place"],
)


def setup(mdb):
    w.plate(mdb, "Shed", 4, 4, 40.0, 40.0)
    mdb.models["Model-1"].StaticStep(name="Squeeze", previous="Initial")
