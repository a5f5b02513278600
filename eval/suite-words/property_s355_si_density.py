"""Define a material, stiffness in GPa and density in kg/m3 (the model is in mm-N-t-s)."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="property", part="Flange",
    request="Add a material called S355: E 210 GPa, nu 0.3, density 7850 kg/m3.",
    checks=[c.material("S355", 210000, 0.3, 7.85e-9)],
    tags=["define", "units"],
)


def setup(mdb):
    w.plate(mdb, "Flange", 2, 2, 20.0, 20.0)
