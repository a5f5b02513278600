"""Replace everything, said as starting over."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="part", part="Scratch",
    request=(
        "Scrap what's there and start over with one single 25 x 25 quad, corner at "
        "the origin."
    ),
    checks=[c.shape_counts(QUAD=1), c.node_count(4), c.bbox((0, 0, 0), (25, 25, 0))],
    tags=["edit", "clear_all"],
)


def setup(mdb):
    w.plate(mdb, "Scratch", 3, 3, 30.0, 30.0)
