"""Assign and orient, shorthand."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="property", part="Brace",
    request="ROD -> all beams, n1 = -Y",
    checks=[c.coverage("ROD", "BEAM"), c.beam_orientation((0, -1, 0))],
    tags=["assign", "orient", "shorthand"],
)


def setup(mdb):
    w.beam_line(mdb, "Brace", (0, 0, 0), (400, 0, 0), 4)
    w.steel(mdb)
    mdb.models["Model-1"].CircularProfile(name="R6", r=6.0)
    mdb.models["Model-1"].BeamSection(name="ROD", material="Steel", profile="R6")
