"""Nothing runs: coarsening, in Mesh mode (it only refines)."""

from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="mesh", part="Slab",
    request="Coarsen the mesh: turn every 2 x 2 block of quads into one quad.",
    expect="nothing_runs", category="mesh_generation",
    tags=["refuse"],
)


def setup(mdb):
    w.plate(mdb, "Slab", 4, 4, 40.0, 40.0)
