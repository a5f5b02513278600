"""Load: a pressure on an element set, in an existing step."""

from sam_plugin.compilers.load import acceptance as lc
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="load", part="Plate",
    request="Apply a pressure of 5 MPa named PTOP on the element set TOP in the step Load-1.",
    checks=[lc.pressure("Load-1", [13, 14, 15, 16], 5.0)],
    tags=["pressure", "sets"],
)


def setup(mdb):
    part = w.plate(mdb, "Plate", 4, 4, 40.0, 40.0)
    w.element_set(part, "TOP", [13, 14, 15, 16])
    mdb.models["Model-1"].StaticStep(name="Load-1", previous="Initial")
