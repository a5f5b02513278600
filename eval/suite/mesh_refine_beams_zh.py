"""Mesh refine, Chinese request: BEAM elements two levels."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="mesh", part="Beam",
    request="将所有梁单元细化两级。",
    checks=[c.shape_counts(BEAM=20), c.node_count(21), c.bbox((0, 0, 0), (500, 0, 0))],
    tags=["refine", "zh"],
)


def setup(mdb):
    w.beam_line(mdb, "Beam", (0, 0, 0), (500, 0, 0), 5)
