"""Define and assign, units in words (GPa, mm), names left to the model: checked by values."""

from sam_plugin.evaluation import checks as c
from sam_plugin.evaluation import workspaces as w
from sam_plugin.evaluation.task import Task

TASK = Task(
    mode="property", part="Skin",
    request=(
        "Aluminium at 70 GPa with a Poisson's ratio of 0.33, and a 2.5 mm thick "
        "shell of it on every element."
    ),
    checks=[c.material_values(70000, 0.33), c.shell_coverage(2.5, "QUAD"), c.shape_counts(QUAD=6)],
    tags=["define", "assign", "units", "chain"],
)


def setup(mdb):
    w.plate(mdb, "Skin", 3, 2, 30.0, 20.0)
