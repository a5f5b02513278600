"""Property assign: an existing section to an existing set."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="property", part="Plate",
    request="Assign the existing shell section SHELL_2 to the element set LEFT.",
    checks=[c.coverage("SHELL_2", count=4), c.shape_counts(QUAD=16)],
    tags=["assign", "sets"],
)


def setup(mdb):
    part = w.plate(mdb, "Plate", 4, 4, 40.0, 40.0)
    w.element_set(part, "LEFT", [1, 5, 9, 13])
    w.steel(mdb)
    w.shell(mdb, "SHELL_2", "Steel", 2.0)
