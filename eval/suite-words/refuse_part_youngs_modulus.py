"""Nothing runs: a material value, asked in Part mode."""

from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="part", part="Web",
    request="Set Young's modulus to 200 GPa for this part.",
    expect="nothing_runs", category="material",
    tags=["refuse"],
)


def setup(mdb):
    w.plate(mdb, "Web", 2, 2, 20.0, 20.0)
