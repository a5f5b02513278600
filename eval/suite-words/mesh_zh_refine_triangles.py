"""Refine the triangles only, Chinese."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="mesh", part="Mixed",
    request="把三角形单元细化一级，四边形不动。",
    checks=[c.shape_counts(QUAD=4, TRI=8)],
    tags=["refine", "zh"],
)


def setup(mdb):
    part = w.plate(mdb, "Mixed", 2, 2, 20.0, 20.0)
    w.plate(mdb, "Mixed", 1, 1, 10.0, 10.0, shape="TRI", origin=(20, 0, 0), part=part)
