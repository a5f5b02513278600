"""Nothing runs: loads are outside the Part capabilities."""

from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="part", part="Plate",
    request="Apply a pressure load of 5 MPa on the top edge of the plate and fix the bottom edge.",
    expect="nothing_runs", category="load",
    tags=["refuse"],
)


def setup(mdb):
    w.plate(mdb, "Plate", 2, 2, 10.0, 10.0)
