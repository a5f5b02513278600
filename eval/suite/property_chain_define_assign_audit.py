"""Chain define -> assign -> audit."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="property", part="Plate",
    request=(
        "Define material Steel (E = 210000, nu = 0.3), a shell section S5 of Steel "
        "with thickness 5, assign S5 to all elements, and audit the properties."
    ),
    checks=[c.material("Steel", 210000, 0.3), c.shell_section("S5", "Steel", 5),
            c.coverage("S5", "QUAD"), c.shape_counts(QUAD=6)],
    tags=["define", "assign", "audit", "chain"],
)


def setup(mdb):
    w.plate(mdb, "Plate", 3, 2, 30.0, 20.0)
