"""Free nodes and duplicate elements, shorthand."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="part", part="Web3",
    request="rm free nodes + duplicate elems",
    checks=[c.shape_counts(QUAD=4), c.node_count(9), c.no_free_nodes()],
    tags=["repair", "duplicates", "free_nodes", "shorthand"],
)


def setup(mdb):
    from samConstants import QUAD

    part = w.plate(mdb, "Web3", 2, 2, 10.0, 10.0)
    for label in (3,):
        part.Element(nodes=part.elements.getFromLabel(label).getNodes(), elemShape=QUAD)
    part.Node(coordinates=(50.0, 50.0, 0.0))
    part.Node(coordinates=(60.0, 50.0, 0.0))
