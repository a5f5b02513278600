"""Merge nodes, shorthand."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="part", part="Pair",
    request="merge dup nodes, tol 0.01",
    checks=[c.shape_counts(QUAD=6), c.node_count(12), c.no_coincident_nodes()],
    tags=["repair", "merge", "shorthand"],
)


def setup(mdb):
    part = w.plate(mdb, "Pair", 3, 1, 30.0, 10.0)
    w.plate(mdb, "Pair", 3, 1, 30.0, 10.0, origin=(0, 10, 0), part=part)
