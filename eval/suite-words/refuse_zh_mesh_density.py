"""Nothing runs: a material value, Chinese, in Mesh mode."""

from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="mesh", part="Fin",
    request="把材料的密度改成 2700 kg/m³。",
    expect="nothing_runs", category="material",
    tags=["refuse", "zh"],
)


def setup(mdb):
    w.plate(mdb, "Fin", 2, 2, 20.0, 20.0)
    w.steel(mdb)
