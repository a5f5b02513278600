"""Merge nodes, Chinese, with a tolerance."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="part", part="Truss",
    request="把重合的节点合并掉，容差 0.1。",
    checks=[c.shape_counts(BEAM=4), c.node_count(5), c.no_coincident_nodes()],
    tags=["repair", "merge", "zh"],
)


def setup(mdb):
    part = w.beam_line(mdb, "Truss", (0, 0, 0), (100, 0, 0), 2)
    w.beam_line(mdb, "Truss", (100, 0, 0), (200, 0, 0), 2, part=part)
