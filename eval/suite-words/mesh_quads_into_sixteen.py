"""Refine a set two levels, said as the number of pieces each quad becomes."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="mesh", part="Lug",
    request="Split every quad of the set FINE into 16 smaller quads.",
    checks=[c.shape_counts(QUAD=19), c.elements_in_box((0, 0, 0), (10, 10, 0), 16)],
    tags=["refine", "sets", "indirect"],
)


def setup(mdb):
    part = w.plate(mdb, "Lug", 2, 2, 20.0, 20.0)
    w.element_set(part, "FINE", [1])
