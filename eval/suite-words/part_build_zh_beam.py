"""Build, Chinese: a beam line between two points."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="part", part="Girder",
    request="建一根梁：从 (100, 0, 0) 到 (100, 0, 900)，平均分成 9 个梁单元。",
    checks=[c.shape_counts(BEAM=9), c.node_count(10), c.bbox((100, 0, 0), (100, 0, 900))],
    tags=["build", "beam", "zh"],
)


def setup(mdb):
    pass
