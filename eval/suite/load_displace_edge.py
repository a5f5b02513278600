"""Load: a prescribed displacement of an edge in a step."""

from sam_plugin.compilers.load import acceptance as lc
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="load", part="Plate",
    request=("Prescribe a displacement u1 = 0.5 on the nodes of the right edge x = 40 in the "
             "step Load-1, as the boundary condition PULL."),
    checks=[lc.displaced([5, 10, 15, 20, 25], {"u1": 0.5}, "Load-1")],
    tags=["boundary", "place"],
)


def setup(mdb):
    w.plate(mdb, "Plate", 4, 4, 40.0, 40.0)
    mdb.models["Model-1"].StaticStep(name="Load-1", previous="Initial")
