"""Add beam elements along a named edge on existing nodes."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="part", part="Skin",
    request=(
        "Run a stiffener of beam elements along the top edge of the plate, one beam "
        "per quad side, on the plate's own nodes."
    ),
    checks=[c.shape_counts(QUAD=6, BEAM=3), c.node_count(12), c.no_coincident_nodes()],
    tags=["edit", "add_elements", "place", "reuse"],
)


def setup(mdb):
    w.plate(mdb, "Skin", 3, 2, 30.0, 20.0)
