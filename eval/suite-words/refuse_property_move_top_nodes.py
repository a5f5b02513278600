"""Nothing runs: moving nodes, asked in Property mode."""

from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="property", part="Wall",
    request="Move the top row of nodes up by 5 mm.",
    expect="nothing_runs", category="geometry",
    tags=["refuse"],
)


def setup(mdb):
    w.plate(mdb, "Wall", 2, 2, 20.0, 20.0)
