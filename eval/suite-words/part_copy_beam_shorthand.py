"""A translated copy, shorthand."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="part", part="Purlin",
    request="dup the beam, +200 in Z",
    checks=[c.shape_counts(BEAM=6), c.node_count(8), c.bbox((0, 0, 0), (0, 600, 200))],
    tags=["transform", "translate_copy", "shorthand"],
)


def setup(mdb):
    w.beam_line(mdb, "Purlin", (0, 0, 0), (0, 600, 0), 3)
