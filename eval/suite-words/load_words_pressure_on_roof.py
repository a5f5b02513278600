"""Load: pressure on a named set, in everyday words."""

from sam_plugin.compilers.load import acceptance as lc
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="load", part="Shed",
    request="Put 3 MPa of pressure on the set ROOF during the step Squeeze and call it ROOFP.",
    checks=[lc.pressure("Squeeze", [13, 14, 15, 16], 3.0)],
    tags=["pressure", "sets"],
)


def setup(mdb):
    part = w.plate(mdb, "Shed", 4, 4, 40.0, 40.0)
    w.element_set(part, "ROOF", [13, 14, 15, 16])
    mdb.models["Model-1"].StaticStep(name="Squeeze", previous="Initial")
