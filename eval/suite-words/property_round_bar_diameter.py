"""A circular beam section given by its diameter."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="property", part="Tie",
    request="A solid round bar section called ROD, 12 mm in diameter, made of Steel.",
    checks=[c.beam_section("ROD", "Steel", "circle", r=6)],
    tags=["define", "beam_section", "indirect", "units"],
)


def setup(mdb):
    w.beam_line(mdb, "Tie", (0, 0, 0), (400, 0, 0), 4)
    w.steel(mdb)
