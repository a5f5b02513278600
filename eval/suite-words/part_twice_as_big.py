"""Scale about the part's own centre, the factor said in words."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="part", part="Washer",
    request="Make the part twice as big, staying centred where it is now.",
    checks=[c.node_count(9), c.bbox((-7.5, -7.5, 0), (22.5, 22.5, 0))],
    tags=["transform", "scale", "indirect"],
)


def setup(mdb):
    w.plate(mdb, "Washer", 2, 2, 15.0, 15.0)
