"""Nothing runs: a section, asked in Part mode."""

from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="part", part="Cover",
    request="Give the plate a 3 mm shell section.",
    expect="nothing_runs", category="section",
    tags=["refuse"],
)


def setup(mdb):
    w.plate(mdb, "Cover", 2, 2, 20.0, 20.0)
