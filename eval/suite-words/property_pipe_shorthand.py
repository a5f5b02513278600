"""A pipe beam section, shorthand (outer diameter, wall)."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="property", part="Post",
    request="pipe sect P60: Steel, OD 60, wall 4",
    checks=[c.beam_section("P60", "Steel", "pipe", r=30, t=4)],
    tags=["define", "beam_section", "indirect", "shorthand"],
)


def setup(mdb):
    w.beam_line(mdb, "Post", (0, 0, 0), (400, 0, 0), 4)
    w.steel(mdb)
