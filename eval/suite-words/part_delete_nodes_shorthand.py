"""Delete nodes by label, shorthand."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="part", part="Spar",
    request="delete nodes 1,2 + attached elems",
    checks=[c.shape_counts(BEAM=2), c.node_count(3), c.bbox((200, 0, 0), (400, 0, 0))],
    tags=["edit", "delete_nodes", "shorthand"],
)


def setup(mdb):
    w.beam_line(mdb, "Spar", (0, 0, 0), (400, 0, 0), 4)
