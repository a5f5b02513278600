"""Property audit, Chinese."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="property", part="Part3",
    request="看看哪些单元还没有赋截面，什么都不要改。",
    checks=[c.coverage("SHELL_2", count=2), c.shape_counts(QUAD=4)],
    tags=["audit", "zh"],
)


def setup(mdb):
    part = w.plate(mdb, "Part3", 2, 2, 20.0, 20.0)
    w.element_set(part, "HALF", [1, 2])
    w.steel(mdb)
    w.shell(mdb, "SHELL_2", "Steel", 2.0)
    part.SectionAssignment(region=part.sets["HALF"], sectionName="SHELL_2")
