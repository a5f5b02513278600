"""Part build: a line of BEAM elements."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="part", part="Beam",
    request="Build a straight beam from (0, 0, 0) to (1000, 0, 0) divided into 10 BEAM elements.",
    checks=[c.shape_counts(BEAM=10), c.node_count(11), c.bbox((0, 0, 0), (1000, 0, 0))],
    tags=["build"],
)


def setup(mdb):
    pass
