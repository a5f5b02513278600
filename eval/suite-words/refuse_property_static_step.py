"""Nothing runs: an analysis step, in Property mode."""

from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="property", part="Hull",
    request="Add a static step called Lift after the initial step.",
    expect="nothing_runs", category="analysis_step",
    tags=["refuse"],
)


def setup(mdb):
    w.plate(mdb, "Hull", 2, 2, 20.0, 20.0)
