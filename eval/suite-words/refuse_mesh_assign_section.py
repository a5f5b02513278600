"""Nothing runs: a section assignment, asked in Mesh mode."""

from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="mesh", part="Truss",
    request="Assign the section BEAM_A to the beams.",
    expect="nothing_runs", category="section",
    tags=["refuse"],
)


def setup(mdb):
    w.beam_line(mdb, "Truss", (0, 0, 0), (400, 0, 0), 4)
