"""Orient beams, the direction said in words."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="property", part="Purlin",
    request="The beams' 1-direction should point straight up, along global Z.",
    checks=[c.beam_orientation((0, 0, 1)), c.shape_counts(BEAM=4)],
    tags=["orient"],
)


def setup(mdb):
    w.beam_line(mdb, "Purlin", (0, 0, 0), (400, 0, 0), 4)
