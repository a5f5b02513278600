"""Load, Chinese words: a pressure on a set."""

from sam_plugin.compilers.load import acceptance as lc
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="load", part="Shed",
    request="在分析步 Squeeze 里给集合 ROOF 加 4 MPa 的压力，叫它 P4。",
    checks=[lc.pressure("Squeeze", [13, 14, 15, 16], 4.0)],
    tags=["pressure", "zh"],
)


def setup(mdb):
    part = w.plate(mdb, "Shed", 4, 4, 40.0, 40.0)
    w.element_set(part, "ROOF", [13, 14, 15, 16])
    mdb.models["Model-1"].StaticStep(name="Squeeze", previous="Initial")
