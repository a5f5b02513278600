"""Part repair: a duplicate element and two free nodes."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="part", part="Plate",
    request="Delete duplicate elements and delete free nodes (nodes not used by any element).",
    checks=[c.shape_counts(QUAD=4), c.node_count(9), c.no_free_nodes()],
    tags=["repair"],
)


def setup(mdb):
    from samConstants import QUAD

    part = w.plate(mdb, "Plate", 2, 2, 10.0, 10.0)
    first = part.elements.getFromLabel(1)
    part.Element(nodes=first.getNodes(), elemShape=QUAD)
    part.Node(coordinates=(50.0, 50.0, 0.0))
    part.Node(coordinates=(60.0, 50.0, 0.0))
