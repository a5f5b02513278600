"""Refine beams only, said as splitting each in half."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="mesh", part="Frame",
    request="Split every beam element in half; leave the plate alone.",
    checks=[c.shape_counts(QUAD=1, BEAM=6)],
    tags=["refine", "indirect"],
)


def setup(mdb):
    part = w.plate(mdb, "Frame", 1, 1, 10.0, 10.0)
    w.beam_line(mdb, "Frame", (0, 0, 0), (0, 0, 60), 3, part=part)
