"""Delete duplicate elements, said in everyday words."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="part", part="Patch",
    request=(
        "A few quads got created twice, one on top of the other. Remove the doubled "
        "elements."
    ),
    checks=[c.shape_counts(QUAD=4), c.node_count(9)],
    tags=["repair", "duplicates"],
)


def setup(mdb):
    from samConstants import QUAD

    part = w.plate(mdb, "Patch", 2, 2, 10.0, 10.0)
    for label in (1, 4):
        part.Element(nodes=part.elements.getFromLabel(label).getNodes(), elemShape=QUAD)
