"""Part build with an element set the request asks for."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="part", part="Plate",
    request=(
        "Build a 30 x 30 plate at the origin in the XY plane meshed 3 x 3 with "
        "QUAD elements, and put all of its elements in an element set named PLATE."
    ),
    checks=[c.shape_counts(QUAD=9), c.node_count(16), c.element_set("PLATE", 9)],
    tags=["build", "sets"],
)


def setup(mdb):
    pass
