"""Nothing runs: Mesh mode only refines; deleting elements is outside it."""

from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="mesh", part="Plate",
    request="Delete all TRI elements of the part and convert the QUAD elements to TRI.",
    expect="nothing_runs", category="geometry",
    tags=["refuse"],
)


def setup(mdb):
    w.plate(mdb, "Plate", 2, 2, 10.0, 10.0)
