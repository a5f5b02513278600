"""Build in m, cm and mm (the model is in mm), divisions by element size, and a set."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="part", part="Floor",
    request=(
        "Lay a floor plate flat in the XY plane from the origin, 1.2 m long in X and "
        "80 cm wide in Y, with square quads of 100 mm, and put all of it in a set "
        "called FLOOR."
    ),
    checks=[
        c.shape_counts(QUAD=96),
        c.node_count(117),
        c.bbox((0, 0, 0), (1200, 800, 0)),
        c.element_set("FLOOR", 96),
    ],
    tags=["build", "units", "indirect", "sets"],
)


def setup(mdb):
    pass
