"""Build: a square panel standing in the XZ plane, size in mm, divisions per side."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="part", part="Panel",
    request=(
        "I need a square panel, 200 mm on a side, standing in the XZ plane with one "
        "corner at the origin, meshed with 8 quads each way."
    ),
    checks=[c.shape_counts(QUAD=64), c.node_count(81), c.bbox((0, 0, 0), (200, 0, 200))],
    tags=["build", "plane", "units"],
)


def setup(mdb):
    pass
