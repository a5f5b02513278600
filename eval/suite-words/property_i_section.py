"""An I beam section in an engineer's terms."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="property", part="Joist",
    request=(
        "Define an I-section called IPE200 in Steel: 200 high, flanges 100 wide and "
        "8.5 thick, web 5.6 thick, with the section origin at mid-height."
    ),
    checks=[
        c.beam_section(
            "IPE200", "Steel", "I", l=100, h=200, b1=100, b2=100, t1=8.5, t2=8.5, t3=5.6),
    ],
    tags=["define", "beam_section"],
)


def setup(mdb):
    w.beam_line(mdb, "Joist", (0, 0, 0), (400, 0, 0), 4)
    w.steel(mdb)
