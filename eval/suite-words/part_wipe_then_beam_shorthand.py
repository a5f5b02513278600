"""Replace everything, shorthand: a beam instead of a plate."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="part", part="Rod",
    request="wipe the part, then new beam (0,0,0)->(400,0,0), 4 elems",
    checks=[c.shape_counts(BEAM=4), c.node_count(5), c.bbox((0, 0, 0), (400, 0, 0))],
    tags=["edit", "clear_all", "shorthand"],
)


def setup(mdb):
    w.plate(mdb, "Rod", 2, 2, 10.0, 10.0)
