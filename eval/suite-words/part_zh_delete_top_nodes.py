"""Delete nodes named by a coordinate level, Chinese."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="part", part="Frame",
    request="把 z = 50 那一层的节点都删掉，连着它们的单元也一起删。",
    checks=[c.shape_counts(QUAD=1), c.node_count(6), c.no_node_at((0, 0, 50), (10, 0, 50))],
    tags=["edit", "delete_nodes", "zh"],
)


def setup(mdb):
    part = w.plate(mdb, "Frame", 1, 1, 10.0, 10.0)
    w.beam_line(mdb, "Frame", (0, 0, 0), (0, 0, 50), 1, part=part)
    w.beam_line(mdb, "Frame", (10, 0, 0), (10, 0, 50), 1, part=part)
