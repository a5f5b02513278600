"""Nothing runs: saving the model, Chinese, in Property mode."""

from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="property", part="Frame",
    request="把这个模型另存为 v2 版本。",
    expect="nothing_runs", category="other",
    tags=["refuse", "zh"],
)


def setup(mdb):
    w.plate(mdb, "Frame", 2, 2, 20.0, 20.0)
