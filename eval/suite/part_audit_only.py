"""Part audit: reads only; the part stays as it is."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="part", part="Plate",
    request=(
        "Audit the part: counts, free nodes, duplicate elements, coincident nodes "
        "and element quality. Do not change anything."
    ),
    checks=[c.shape_counts(QUAD=12), c.node_count(20), c.bbox((0, 0, 0), (40, 30, 0))],
    tags=["audit"],
)


def setup(mdb):
    w.plate(mdb, "Plate", 4, 3, 40.0, 30.0)
