"""Nothing runs, Chinese words: a pressure in the Initial step."""

from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="load", part="Shed",
    request="在初始步 Initial 里给全部单元加 1 MPa 的压力。",
    expect="nothing_runs",
    tags=["refuse", "zh"],
)


def setup(mdb):
    w.plate(mdb, "Shed", 4, 4, 40.0, 40.0)
