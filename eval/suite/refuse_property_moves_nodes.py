"""Nothing runs: a Property request that would change geometry."""

from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="property", part="Plate",
    request=(
        "Delete the elements inside the box from (0, 0, 0) to (5, 5, 0) and move "
        "node 1 to (0, 0, 5)."
    ),
    expect="nothing_runs", category="geometry",
    tags=["refuse"],
)


def setup(mdb):
    w.plate(mdb, "Plate", 2, 2, 10.0, 10.0)
    w.steel(mdb)
