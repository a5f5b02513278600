"""Property audit: reads only."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="property", part="Plate",
    request=(
        "Audit the properties of the part: which elements have a section and which "
        "do not. Change nothing."
    ),
    checks=[c.shape_counts(QUAD=4), c.coverage("SHELL_2", count=4)],
    tags=["audit"],
)


def setup(mdb):
    part = w.plate(mdb, "Plate", 2, 2, 10.0, 10.0)
    w.steel(mdb)
    w.shell(mdb, "SHELL_2", "Steel", 2.0)
    w.assign_all(part, "SHELL_2")
