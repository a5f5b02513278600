"""Part repair: merge the duplicated nodes of two touching plates."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="part", part="Plate",
    request="Merge coincident nodes with a tolerance of 0.001.",
    checks=[c.shape_counts(QUAD=8), c.node_count(15), c.no_coincident_nodes()],
    tags=["repair"],
)


def setup(mdb):
    part = w.plate(mdb, "Plate", 2, 2, 10.0, 10.0)
    w.plate(mdb, "Plate", 2, 2, 10.0, 10.0, origin=(10, 0, 0), part=part)
