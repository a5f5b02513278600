"""Nothing runs: a pressure in the Initial step (loads start in a later step)."""

from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="load", part="Plate",
    request="Apply a pressure of 3 MPa on all elements in the Initial step.",
    expect="nothing_runs",
    tags=["refuse"],
)


def setup(mdb):
    w.plate(mdb, "Plate", 4, 4, 40.0, 40.0)
