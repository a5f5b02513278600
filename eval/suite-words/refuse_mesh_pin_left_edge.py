"""Nothing runs: a support, asked in Mesh mode."""

from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="mesh", part="Bracket",
    request="Pin the left edge so it can't move.",
    expect="nothing_runs", category="boundary_condition",
    tags=["refuse"],
)


def setup(mdb):
    w.plate(mdb, "Bracket", 2, 2, 20.0, 20.0)
