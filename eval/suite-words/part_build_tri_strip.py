"""Build: a strip of triangles."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="part", part="Gusset",
    request=(
        "Mesh a 90 by 30 strip with triangles: three cells along its length and one "
        "across, each cell split into two triangles, lying flat in XY with its "
        "corner at the origin."
    ),
    checks=[c.shape_counts(TRI=6), c.node_count(8), c.bbox((0, 0, 0), (90, 30, 0))],
    tags=["build", "tri"],
)


def setup(mdb):
    pass
