"""Nothing runs: contact with friction, in Part mode."""

from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="part", part="Lap",
    request="Set up contact between the two plates where they touch, with friction 0.2.",
    expect="nothing_runs", category="contact",
    tags=["refuse"],
)


def setup(mdb):
    part = w.plate(mdb, "Lap", 2, 2, 20.0, 20.0)
    w.plate(mdb, "Lap", 2, 2, 20.0, 20.0, origin=(20, 0, 0), part=part)
