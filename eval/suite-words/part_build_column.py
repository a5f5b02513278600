"""Build: a vertical column of beam elements, count given by spacing."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="part", part="Column",
    request=(
        "A column of beam elements straight up from the origin to (0, 0, 3000), one "
        "element every 500."
    ),
    checks=[c.shape_counts(BEAM=6), c.node_count(7), c.bbox((0, 0, 0), (0, 0, 3000))],
    tags=["build", "beam", "indirect"],
)


def setup(mdb):
    pass
