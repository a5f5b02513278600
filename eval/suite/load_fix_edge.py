"""Load: a fixed edge (every dof), in the Initial step."""

from sam_plugin.compilers.load import acceptance as lc
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="load", part="Plate",
    request=("Fix all degrees of freedom of the nodes on the left edge x = 0 of the plate, as "
             "the boundary condition CLAMP."),
    checks=[lc.fixed([1, 6, 11, 16, 21])],
    tags=["boundary", "place"],
)


def setup(mdb):
    w.plate(mdb, "Plate", 4, 4, 40.0, 40.0)
