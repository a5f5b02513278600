"""Orient beams, Chinese."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="property", part="Pole",
    request="把所有梁单元的截面方向 n1 设成沿 Y 轴正方向。",
    checks=[c.beam_orientation((0, 1, 0)), c.shape_counts(BEAM=4)],
    tags=["orient", "zh"],
)


def setup(mdb):
    w.beam_line(mdb, "Pole", (0, 0, 0), (0, 0, 1000), 4)
