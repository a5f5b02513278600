"""Merge the seam and delete stray nodes, in everyday words."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="part", part="Seam",
    request="Tidy up the double nodes along the seam and the stray nodes nobody uses.",
    checks=[c.shape_counts(QUAD=8), c.node_count(15), c.no_coincident_nodes(), c.no_free_nodes()],
    tags=["repair", "merge", "free_nodes"],
)


def setup(mdb):
    part = w.plate(mdb, "Seam", 2, 2, 10.0, 10.0)
    w.plate(mdb, "Seam", 2, 2, 10.0, 10.0, origin=(10, 0, 0), part=part)
    part.Node(coordinates=(50.0, 50.0, 0.0))
    part.Node(coordinates=(60.0, 50.0, 0.0))
