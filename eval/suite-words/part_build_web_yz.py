"""Build, shorthand: a web in the YZ plane."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="part", part="Web",
    request="web in YZ: 120 (Y) x 40 (Z), 6x2 quads, corner at 0,0,0",
    checks=[c.shape_counts(QUAD=12), c.node_count(21), c.bbox((0, 0, 0), (0, 120, 40))],
    tags=["build", "plane", "shorthand"],
)


def setup(mdb):
    pass
