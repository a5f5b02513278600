"""Property assign: a beam section and its orientation."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="property", part="Beam",
    request=(
        "Assign the beam section B1 to all BEAM elements and set their beam section "
        "orientation n1 = (0, 0, 1)."
    ),
    checks=[c.coverage("B1", "BEAM"), c.beam_orientation((0, 0, 1)), c.shape_counts(BEAM=5)],
    tags=["assign"],
)


def setup(mdb):
    w.beam_line(mdb, "Beam", (0, 0, 0), (500, 0, 0), 5)
    w.steel(mdb)
    mdb.models["Model-1"].RectangularProfile(name="R10x20", a=10.0, b=20.0)
    mdb.models["Model-1"].BeamSection(name="B1", material="Steel", profile="R10x20")
