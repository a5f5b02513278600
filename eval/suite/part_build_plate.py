"""Part build: a QUAD plate on an empty target."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="part", part="Plate",
    request=(
        "Build a 60 x 100 plate meshed 6 x 10 with QUAD elements, corner at the "
        "origin, in the XY plane."
    ),
    checks=[c.shape_counts(QUAD=60), c.node_count(77), c.bbox((0, 0, 0), (60, 100, 0))],
    tags=["build"],
)


def setup(mdb):
    pass
