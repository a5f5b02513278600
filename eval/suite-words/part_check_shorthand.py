"""Audit, shorthand, two checks."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="part", part="Sheet9",
    request="check: free nodes? coincident nodes?",
    checks=[c.shape_counts(QUAD=9), c.node_count(16)],
    tags=["audit", "shorthand"],
)


def setup(mdb):
    w.plate(mdb, "Sheet9", 3, 3, 30.0, 30.0)
