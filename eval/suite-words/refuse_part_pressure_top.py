"""Nothing runs: a pressure load, asked in Part mode."""

from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="part", part="Lid",
    request="Put 2 MPa of pressure on the top face of the plate.",
    expect="nothing_runs", category="load",
    tags=["refuse"],
)


def setup(mdb):
    w.plate(mdb, "Lid", 2, 2, 20.0, 20.0)
