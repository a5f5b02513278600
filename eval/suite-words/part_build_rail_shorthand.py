"""Build, shorthand: a beam line along Y."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="part", part="Rail",
    request="beam line (0,0,0)->(0,2400,0), 8 elems",
    checks=[c.shape_counts(BEAM=8), c.node_count(9), c.bbox((0, 0, 0), (0, 2400, 0))],
    tags=["build", "beam", "shorthand"],
)


def setup(mdb):
    pass
