"""Define a shell section of an existing material, shorthand."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="property", part="Cover",
    request="shell sec T8: Steel, t=8",
    checks=[c.shell_section("T8", "Steel", 8)],
    tags=["define", "shorthand"],
)


def setup(mdb):
    w.plate(mdb, "Cover", 2, 2, 20.0, 20.0)
    w.steel(mdb)
