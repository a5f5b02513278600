"""Nothing runs: a point force, Chinese, in Property mode."""

from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="property", part="Cantilever",
    request="在梁的自由端加一个 500 N 的集中力。",
    expect="nothing_runs", category="load",
    tags=["refuse", "zh"],
)


def setup(mdb):
    w.beam_line(mdb, "Cantilever", (0, 0, 0), (400, 0, 0), 4)
    w.steel(mdb)
