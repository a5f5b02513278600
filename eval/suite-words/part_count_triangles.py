"""Audit: a question, nothing to change."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="part", part="Mixed",
    request="How many triangles are in this part? Just look, don't change anything.",
    checks=[c.shape_counts(QUAD=4, TRI=2), c.node_count(13)],
    tags=["audit"],
)


def setup(mdb):
    part = w.plate(mdb, "Mixed", 2, 2, 20.0, 20.0)
    w.plate(mdb, "Mixed", 1, 1, 10.0, 10.0, shape="TRI", origin=(20, 0, 0), part=part)
