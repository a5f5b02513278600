"""Refine beams three levels, said as eight times finer."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="mesh", part="Chord",
    request="I need the beam elements eight times finer.",
    checks=[c.shape_counts(BEAM=16), c.node_count(17)],
    tags=["refine", "indirect"],
)


def setup(mdb):
    w.beam_line(mdb, "Chord", (0, 0, 0), (200, 0, 0), 2)
