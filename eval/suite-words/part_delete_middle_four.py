"""Delete elements named by place (the middle four)."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="part", part="Hatch",
    request="Take out the four elements in the middle of the plate.",
    checks=[
        c.shape_counts(QUAD=12),
        c.elements_in_box((10, 10, 0), (30, 30, 0), 0),
        c.elements_in_box((0, 0, 0), (40, 40, 0), 12),
    ],
    tags=["edit", "delete_elements", "place"],
)


def setup(mdb):
    w.plate(mdb, "Hatch", 4, 4, 40.0, 40.0)
