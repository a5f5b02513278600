"""A translated copy placed by words (next to it, touching)."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="part", part="Bay",
    request="Put a copy of the plate right next to it on the +X side, edges touching.",
    checks=[c.shape_counts(QUAD=8), c.node_count(18), c.bbox((0, 0, 0), (40, 20, 0))],
    tags=["transform", "translate_copy", "place"],
)


def setup(mdb):
    w.plate(mdb, "Bay", 2, 2, 20.0, 20.0)
