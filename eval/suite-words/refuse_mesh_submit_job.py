"""Nothing runs: a job, in Mesh mode."""

from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="mesh", part="Shell1",
    request="Submit the job and tell me when the analysis finishes.",
    expect="nothing_runs", category="job",
    tags=["refuse"],
)


def setup(mdb):
    w.plate(mdb, "Shell1", 2, 2, 20.0, 20.0)
