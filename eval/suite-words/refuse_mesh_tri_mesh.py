"""Nothing runs: a change of element type, in Mesh mode."""

from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="mesh", part="Deck",
    request="Swap the quad elements for triangles, I want a tri mesh.",
    expect="nothing_runs", category="mesh_generation",
    tags=["refuse"],
)


def setup(mdb):
    w.plate(mdb, "Deck", 3, 2, 60.0, 40.0)
