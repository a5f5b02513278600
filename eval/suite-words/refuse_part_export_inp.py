"""Nothing runs: an export, in Part mode."""

from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="part", part="Panel",
    request="Export the mesh to an .inp file on my desktop.",
    expect="nothing_runs", category="other",
    tags=["refuse"],
)


def setup(mdb):
    w.plate(mdb, "Panel", 2, 2, 20.0, 20.0)
