"""Merge nodes, said as joining two halves."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="part", part="Halves",
    request="The two halves of this plate are not connected along the seam; join them up.",
    checks=[c.shape_counts(QUAD=8), c.node_count(15), c.no_coincident_nodes()],
    tags=["repair", "merge"],
)


def setup(mdb):
    part = w.plate(mdb, "Halves", 2, 2, 10.0, 10.0)
    w.plate(mdb, "Halves", 2, 2, 10.0, 10.0, origin=(10, 0, 0), part=part)
