"""A rectangular beam section, Chinese."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="property", part="Beam",
    request="给梁定义一个矩形截面 RECT_B，材料用 Steel，宽 20、高 40。",
    checks=[c.beam_section("RECT_B", "Steel", "rectangle", a=20, b=40)],
    tags=["define", "beam_section", "zh"],
)


def setup(mdb):
    w.beam_line(mdb, "Beam", (0, 0, 0), (400, 0, 0), 4)
    w.steel(mdb)
