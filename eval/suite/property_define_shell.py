"""Property define: a material with density and a shell section."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="property", part="Plate",
    request=(
        "Define material Steel with Young's modulus 210000, Poisson's ratio 0.3 "
        "and density 7.85e-9, and a shell section SHELL_5 made of Steel with thickness "
        "5."
    ),
    checks=[c.material("Steel", 210000, 0.3, 7.85e-9), c.shell_section("SHELL_5", "Steel", 5)],
    tags=["define"],
)


def setup(mdb):
    w.plate(mdb, "Plate", 2, 2, 10.0, 10.0)
