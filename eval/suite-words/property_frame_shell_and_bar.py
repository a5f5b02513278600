"""Two sections for two kinds of element, each assigned."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="property", part="Frame",
    request=(
        "Steel is already defined. Make a 6 mm shell SH6 for the quads and a 30 mm "
        "diameter round bar BAR30 for the beams, and give each to its elements."
    ),
    checks=[
        c.shell_section("SH6", "Steel", 6),
        c.beam_section("BAR30", "Steel", "circle", r=15),
        c.coverage("SH6", "QUAD"),
        c.coverage("BAR30", "BEAM"),
    ],
    tags=["define", "assign", "beam_section", "indirect", "chain"],
)


def setup(mdb):
    part = w.plate(mdb, "Frame", 2, 2, 20.0, 20.0)
    w.beam_line(mdb, "Frame", (0, 20, 0), (20, 20, 0), 2, part=part)
    w.steel(mdb)
