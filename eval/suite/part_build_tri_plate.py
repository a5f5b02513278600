"""Part build: a TRI plate."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="part", part="TriPlate",
    request=(
        "Create a 40 x 20 plate in the XY plane starting at the origin, meshed "
        "4 x 2 with TRI elements (two triangles per cell)."
    ),
    checks=[c.shape_counts(TRI=16), c.node_count(15), c.bbox((0, 0, 0), (40, 20, 0))],
    tags=["build"],
)


def setup(mdb):
    pass
