"""Nothing runs: a change of element type, in Mesh mode."""

from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="mesh", part="Plate",
    request="Swap the quad elements for triangles, I want a tri mesh.",
    expect="nothing_runs", category="mesh_generation",
    tags=["refuse"],
)


def setup(mdb):
    w.plate(mdb, "Plate", 2, 2, 20.0, 20.0)
