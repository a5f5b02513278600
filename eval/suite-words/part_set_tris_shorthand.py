"""An element set by shape, shorthand."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="part", part="Mix",
    request="set TRIS = every tri elem",
    checks=[c.shape_counts(QUAD=4, TRI=2), c.element_set("TRIS", 2, shape="TRI")],
    tags=["edit", "sets", "shorthand"],
)


def setup(mdb):
    part = w.plate(mdb, "Mix", 2, 2, 20.0, 20.0)
    w.plate(mdb, "Mix", 1, 1, 10.0, 10.0, shape="TRI", origin=(20, 0, 0), part=part)
